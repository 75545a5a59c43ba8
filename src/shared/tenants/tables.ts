import { quotedIdentifier as quoted } from "../../db/identifiers";

/**
 * The tables of a tenant store (tenant-migrations/) and how the control database says which tenant each row belongs to,
 * for the move of a deployment into tenant stores (src/operator/tenant-stores) and for the read-only window of that move
 * (migrations/0028: the same expressions in its triggers; test/tenants/read-only-window.test.ts holds the two together).
 */
export interface StoreTable {
  name: string;
  /** The primary key: the order in which a copy pages through the table and a digest reads it. */
  key: readonly string[];
  /** The id of the row's tenant, as an SQL expression over the row `t` in the control database. */
  owner: string;
  /** The tenant's directory: a sandbox twin (tenant -T) reads its tenant's, so its store gets a copy of T's rows. */
  directory?: true;
  /**
   * The control database has an index on (owner, key): a page of the tenant's rows is a range of it. Without one, a
   * page reads the table in key order and skips other tenants' rows; an index on the owner alone would make SQLite
   * sort every row of the tenant again for each page (docs/benchmarks.md, "Tenant store moves").
   */
  ownerKeyIndex?: true;
}

const viaCompany = "(SELECT tenant_id FROM companies WHERE id = t.company_id)";
const viaUser = "(SELECT tenant_id FROM users WHERE id = t.user_id)";
const viaOrder = "(SELECT tenant_id FROM orders WHERE id = t.order_id)";
const viaEndpoint = "(SELECT tenant_id FROM webhook_endpoints WHERE id = t.endpoint_id)";

/** In an order in which each table's foreign keys point only to tables before it. */
export const STORE_TABLES: readonly StoreTable[] = [
  { name: "companies", key: ["id"], owner: "t.tenant_id", directory: true },
  { name: "addresses", key: ["id"], owner: viaCompany, directory: true },
  { name: "facilities", key: ["id"], owner: viaCompany, directory: true },
  { name: "users", key: ["id"], owner: "t.tenant_id", directory: true, ownerKeyIndex: true },
  { name: "user_companies", key: ["user_id", "company_id"], owner: viaUser, directory: true },
  { name: "user_facilities", key: ["user_id", "facility_id"], owner: viaUser, directory: true },
  { name: "scim_groups", key: ["id"], owner: "t.tenant_id", directory: true },
  {
    name: "scim_group_members",
    key: ["group_id", "user_id"],
    owner: "(SELECT tenant_id FROM scim_groups WHERE id = t.group_id)",
    directory: true,
  },
  { name: "quotes", key: ["id"], owner: "t.tenant_id" },
  { name: "orders", key: ["id"], owner: "t.tenant_id", ownerKeyIndex: true },
  { name: "order_lines", key: ["id"], owner: viaOrder },
  { name: "shipping_documents", key: ["id"], owner: viaOrder },
  {
    name: "shipping_document_lines",
    key: ["shipping_document_id", "line_id"],
    owner: "(SELECT o.tenant_id FROM shipping_documents d JOIN orders o ON o.id = d.order_id WHERE d.id = t.shipping_document_id)",
  },
  { name: "shipped_units", key: ["id"], owner: viaOrder },
  { name: "sandbox_manual_orders", key: ["order_id"], owner: viaOrder },
  { name: "order_line_revisions", key: ["line_id", "revision"], owner: viaOrder },
  { name: "invoices", key: ["id"], owner: "t.tenant_id" },
  { name: "invoice_lines", key: ["invoice_id", "line_number"], owner: "(SELECT tenant_id FROM invoices WHERE id = t.invoice_id)" },
  { name: "purchasing_settings", key: ["tenant_id"], owner: "t.tenant_id" },
  { name: "unit_returns", key: ["id"], owner: "t.tenant_id" },
  { name: "outbox_events", key: ["id"], owner: "t.tenant_id" },
  { name: "idempotency_results", key: ["tenant_id", "idempotency_key"], owner: "t.tenant_id" },
  { name: "webhook_endpoints", key: ["id"], owner: "t.tenant_id" },
  { name: "webhook_deliveries", key: ["id"], owner: viaEndpoint },
  { name: "webhook_deliveries_owed", key: ["event_id", "endpoint_id"], owner: viaEndpoint },
];

/**
 * The tenant whose rows of `table` a store holds: its own, except that a sandbox twin's store (-T) holds a copy of its
 * tenant's directory (T's rows).
 */
/**
 * A store's own bookkeeping, which the control database has no copy of: its outbox of line changes for the vendors'
 * projections (tenant-migrations/0002) and its idempotency keys' attempts (0003). A move empties them; they start at
 * the switch.
 */
export const STORE_ONLY_TABLES = [
  "vendor_projection",
  "vendor_line_changes",
  "vendor_line_marks",
  "idempotency_attempts",
  "directory_versions",
] as const;

/** The directory's tables, parents first (a sandbox twin's store holds a copy of its tenant's). */
export const DIRECTORY_TABLES: readonly StoreTable[] = STORE_TABLES.filter((table) => table.directory);

/** `"a" = ? AND "b" = ?` over the table's key columns, each column prefixed (`t.`) if asked. */
export const keyCondition = (table: StoreTable, prefix = "") => table.key.map((column) => `${prefix}${quoted(column)} = ?`).join(" AND ");

/**
 * A row of the control database written in place in a store: a row already there is overwritten, so that writing it
 * twice leaves what writing it once does (a copy's step run again, a directory change pushed again).
 */
export function upsertStatement(table: StoreTable, columns: readonly string[]): string {
  const names = columns.map(quoted);
  return (
    `INSERT INTO ${quoted(table.name)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ` +
    `ON CONFLICT (${table.key.map(quoted).join(", ")}) DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`
  );
}

export const ownerInStore = (table: StoreTable, storeTenantId: number) => (table.directory ? Math.abs(storeTenantId) : storeTenantId);
