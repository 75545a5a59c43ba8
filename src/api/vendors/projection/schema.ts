import { tenantMigrations } from "../../../shared/tenants/migration-files";

/**
 * A vendor's projection's schema (docs/tenant-stores.md, "Vendors' lines"), applied by drizzle's durable-sqlite
 * migrator when the object starts, as a tenant store's is. A line is kept as the vendor reads it (`line`, the JSON of a
 * VendorOrderLine) beside the columns its list filters and sorts by. `revision` is the store's revision of the line:
 * an older one never overwrites a newer one, so messages may arrive twice or out of order. A line the store deleted
 * stays as a tombstone (`deleted`), so a late message cannot bring it back.
 */
export const VENDOR_PROJECTION_MIGRATIONS = tenantMigrations([
  {
    tag: "0000_vendor_lines",
    sql: [
      "CREATE TABLE vendor_lines (line_id INTEGER PRIMARY KEY, tenant_id INTEGER NOT NULL, revision INTEGER NOT NULL, " +
        "deleted INTEGER NOT NULL DEFAULT 0, changed_at INTEGER NOT NULL, applied_at INTEGER NOT NULL, " +
        "order_date TEXT NOT NULL, order_number TEXT NOT NULL, status_name TEXT NOT NULL, line TEXT NOT NULL)",
      "CREATE INDEX vendor_lines_listed ON vendor_lines(status_name, order_date, line_id) WHERE deleted = 0",
      "CREATE INDEX vendor_lines_order ON vendor_lines(order_number) WHERE deleted = 0",
      "CREATE INDEX vendor_lines_tenant ON vendor_lines(tenant_id)",
    ].join("\n--> statement-breakpoint\n"),
  },
]);
