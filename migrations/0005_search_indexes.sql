-- Structured search (GET /users/search, /orders/search, /manufacturers/search): indexes for the
-- filter and sort columns the field registry exposes (src/search/resources). Searches are tenant
-- scoped, so tenant_id leads; SQLite appends the rowid (= id, the tie-break) to every index, so
-- "ORDER BY <column>, id" within a tenant is read in index order without a sort step.

CREATE INDEX users_tenant_last_name ON users(tenant_id, last_name);
CREATE INDEX users_tenant_first_name ON users(tenant_id, first_name);
CREATE INDEX users_tenant_email ON users(tenant_id, email);
CREATE INDEX users_tenant_login ON users(tenant_id, login_user_id);
CREATE INDEX users_tenant_contact ON users(tenant_id, contact_id);

CREATE INDEX orders_tenant_facility ON orders(tenant_id, facility_id);
CREATE INDEX orders_tenant_requester_name ON orders(tenant_id, requester_name);
CREATE INDEX orders_tenant_shipping_method ON orders(tenant_id, shipping_method);
CREATE INDEX orders_tenant_payment_method ON orders(tenant_id, payment_method);
CREATE INDEX orders_tenant_order_number ON orders(tenant_id, order_number);

-- partNumber on /orders/search matches orders by any of their lines.
CREATE INDEX order_lines_part_number ON order_lines(part_number, order_id);
