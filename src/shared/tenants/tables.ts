import { quotedIdentifier as quoted } from "../../db/identifiers";

/**
 * The tables of a tenant store (tenant-migrations/): the tenant's directory, whose master copy the control database keeps
 * and pushes to the store (src/operator/tenant-stores/directory-mirror.ts), and the tenant's own data, which lives in
 * its stores only (docs/tenant-stores.md).
 */
export interface StoreTable {
  name: string;
  /** The primary key. */
  key: readonly string[];
}

/** A directory table, as the control database keeps it: `owner` is the id of a row's tenant, an SQL expression over `t`. */
export interface DirectoryTable extends StoreTable {
  owner: string;
}

const viaCompany = "(SELECT tenant_id FROM companies WHERE id = t.company_id)";
const viaUser = "(SELECT tenant_id FROM users WHERE id = t.user_id)";

/** The directory's tables, parents first (a sandbox twin's store holds a copy of its tenant's). */
export const DIRECTORY_TABLES: readonly DirectoryTable[] = [
  { name: "companies", key: ["id"], owner: "t.tenant_id" },
  { name: "addresses", key: ["id"], owner: viaCompany },
  { name: "facilities", key: ["id"], owner: viaCompany },
  { name: "users", key: ["id"], owner: "t.tenant_id" },
  { name: "user_companies", key: ["user_id", "company_id"], owner: viaUser },
  { name: "user_facilities", key: ["user_id", "facility_id"], owner: viaUser },
  { name: "scim_groups", key: ["id"], owner: "t.tenant_id" },
  { name: "scim_group_members", key: ["group_id", "user_id"], owner: "(SELECT tenant_id FROM scim_groups WHERE id = t.group_id)" },
];

/** The tenant's own data, in its stores only, in an order in which each table's foreign keys point only to tables before it. */
export const TENANT_DATA_TABLES: readonly StoreTable[] = [
  { name: "quotes", key: ["id"] },
  { name: "orders", key: ["id"] },
  { name: "order_lines", key: ["id"] },
  { name: "shipping_documents", key: ["id"] },
  { name: "shipping_document_lines", key: ["shipping_document_id", "line_id"] },
  { name: "shipped_units", key: ["id"] },
  { name: "recall_unit_keys", key: ["key", "unit_id"] },
  { name: "recall_unit_checks", key: ["unit_id"] },
  { name: "tenant_recalls", key: ["recall_id"] },
  { name: "recall_units", key: ["recall_id", "unit_id"] },
  { name: "recall_exposure_pending", key: ["recall_id"] },
  { name: "sandbox_manual_orders", key: ["order_id"] },
  { name: "order_line_revisions", key: ["line_id", "revision"] },
  { name: "invoices", key: ["id"] },
  { name: "invoice_lines", key: ["invoice_id", "line_number"] },
  { name: "purchasing_settings", key: ["tenant_id"] },
  { name: "unit_returns", key: ["id"] },
  { name: "outbox_events", key: ["id"] },
  { name: "idempotency_results", key: ["tenant_id", "idempotency_key"] },
  { name: "webhook_endpoints", key: ["id"] },
  { name: "webhook_deliveries", key: ["id"] },
  { name: "webhook_deliveries_owed", key: ["event_id", "endpoint_id"] },
];

/** Every table of a store that holds the tenant's rows, parents first. */
export const STORE_TABLES: readonly StoreTable[] = [...DIRECTORY_TABLES, ...TENANT_DATA_TABLES];

/**
 * A store's own bookkeeping: the preconditions of an order change's batch (tenant-migrations/0001), its outbox of line
 * changes for the vendors' projections (0002), its idempotency keys' attempts (0003) and the versions of the directory
 * rows it applied (0005), the recall revision it matched up to (0011).
 */
export const STORE_ONLY_TABLES = [
  "write_preconditions",
  "vendor_projection",
  "vendor_line_changes",
  "vendor_line_marks",
  "idempotency_attempts",
  "directory_versions",
  "recall_progress",
] as const;

/** `"a" = ? AND "b" = ?` over the table's key columns, each column prefixed (`t.`) if asked. */
export const keyCondition = (table: StoreTable, prefix = "") => table.key.map((column) => `${prefix}${quoted(column)} = ?`).join(" AND ");

/**
 * A row of the control database written in place in a store: a row already there is overwritten, so that writing it
 * twice leaves what writing it once does (a directory change pushed again).
 */
export function upsertStatement(table: StoreTable, columns: readonly string[]): string {
  const names = columns.map(quoted);
  return (
    `INSERT INTO ${quoted(table.name)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ` +
    `ON CONFLICT (${table.key.map(quoted).join(", ")}) DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`
  );
}
