-- Documents back to a procurement suite (docs/api.md, "Procurement systems (cXML)"): a connection with a documentUrl has
-- a webhook endpoint of its tenant whose connection_id names it; its deliveries, through the same outbox, queue and
-- retries as any webhook, carry the cXML document the operator plane renders for each event (ConfirmationRequest,
-- ShipNoticeRequest). tenant-migrations/0008 adds the column in the stores.
ALTER TABLE webhook_endpoints ADD COLUMN connection_id INTEGER;

-- The orders OrderRequests placed: the suite's orderID and its line numbers, by Medparts line id, for the documents sent
-- back. Written once the order is placed, off the answer's path.
CREATE TABLE procurement_orders (
  order_number TEXT PRIMARY KEY,
  connection_id INTEGER NOT NULL REFERENCES procurement_connections(id),
  order_id TEXT NOT NULL,
  payload_id TEXT NOT NULL,
  order_date TEXT,
  lines TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX procurement_orders_connection ON procurement_orders(connection_id, order_id);
