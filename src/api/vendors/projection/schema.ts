import { STATEMENT_BREAKPOINT, tenantMigrations } from "../../../shared/tenants/migration-files";

const STATEMENT_BREAKPOINT_LINE = `\n${STATEMENT_BREAKPOINT}\n`;

/**
 * A trigger's statements that count the written line (NEW) in its status, when `guard` (SQL) holds. Its status's row
 * is made when missing with NOT EXISTS, not INSERT OR IGNORE: a trigger's statements take the conflict handling of the
 * statement that fired it (apply's upsert), not their own.
 */
const counted = (guard = "1") =>
  "INSERT INTO vendor_line_counts (status_name, lines) SELECT NEW.status_name, 0 " +
  `WHERE ${guard} AND NOT EXISTS (SELECT 1 FROM vendor_line_counts WHERE status_name = NEW.status_name); ` +
  `UPDATE vendor_line_counts SET lines = lines + 1 WHERE status_name = NEW.status_name AND ${guard};`;

/** A trigger's statement that no longer counts the line as it was (OLD) in its status, when `guard` (SQL) holds. */
const uncounted = (guard = "1") => `UPDATE vendor_line_counts SET lines = lines - 1 WHERE status_name = OLD.status_name AND ${guard};`;

/** The line's JSON fields the q language searches, as generated columns (search.ts names them). */
const SEARCHED_FIELDS = [
  ["part_number", "$.partNumber"],
  ["description", "$.description"],
  ["po_number", "$.poNumber"],
  ["quantity", "$.quantity"],
  ["ship_to_city", "$.shipTo.city"],
  ["ship_to_state", "$.shipTo.state"],
] as const;

/** The lists of what waits for the vendor (ListQuery.attention) and the column that says a line is in each. */
export const ATTENTION_COLUMNS = [
  ["returns", "returns_to_receive"],
  ["invoices", "invoices_in_exception"],
] as const;
export type Attention = (typeof ATTENTION_COLUMNS)[number][0];

/** Triggers that keep vendor_attention_counts' row of `attention` equal to the live lines whose `column` is above 0. */
function attentionTriggers(attention: string, column: string): string[] {
  const inList = (row: "NEW" | "OLD") => `(${row}.deleted = 0 AND ${row}.${column} > 0)`;
  const add = (delta: 1 | -1) => `UPDATE vendor_attention_counts SET lines = lines + (${delta}) WHERE attention = '${attention}';`;
  return [
    `CREATE TRIGGER vendor_${attention}_counted AFTER INSERT ON vendor_lines WHEN ${inList("NEW")} BEGIN ${add(1)} END`,
    `CREATE TRIGGER vendor_${attention}_uncounted AFTER DELETE ON vendor_lines WHEN ${inList("OLD")} BEGIN ${add(-1)} END`,
    `CREATE TRIGGER vendor_${attention}_recounted AFTER UPDATE OF deleted, ${column} ON vendor_lines WHEN ${inList("OLD")} <> ${inList("NEW")} ` +
      `BEGIN UPDATE vendor_attention_counts SET lines = lines + (CASE WHEN ${inList("NEW")} THEN 1 ELSE -1 END) WHERE attention = '${attention}'; END`,
  ];
}

/**
 * A vendor's projection's schema (docs/tenant-stores.md, "Vendors' lines"), applied by drizzle's durable-sqlite
 * migrator when the object starts, as a tenant store's is. A line is kept as the vendor reads it (`line`, the JSON of a
 * VendorOrderLine) beside the columns its list filters and sorts by. `revision` is the store's revision of the line:
 * an older one never overwrites a newer one, so messages may arrive twice or out of order. A line the store deleted
 * stays as a tombstone (`deleted`), so a late message cannot bring it back.
 *
 * `vendor_line_counts` holds how many live lines the projection has in each status, so that a page's total is a sum of
 * at most as many rows as there are statuses rather than a count of every matching line (docs/architecture.md,
 * "Capacity of a vendor's projection"). Triggers keep it in the transaction of every write of `vendor_lines` (apply,
 * retain, a test's own); a projection made before it has it filled once, by the migration that creates it. Deleting a
 * closed line past the list's retention (the alarm's purge, retention.ts) uncounts it as any delete does; a tombstone
 * counts in no status.
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
    ].join(STATEMENT_BREAKPOINT_LINE),
  },
  {
    tag: "0001_vendor_line_counts",
    sql: [
      "CREATE TABLE vendor_line_counts (status_name TEXT PRIMARY KEY, lines INTEGER NOT NULL) WITHOUT ROWID",
      "INSERT INTO vendor_line_counts (status_name, lines) SELECT status_name, count(*) FROM vendor_lines WHERE deleted = 0 GROUP BY status_name",
      `CREATE TRIGGER vendor_line_counted AFTER INSERT ON vendor_lines WHEN NEW.deleted = 0 BEGIN ${counted()} END`,
      `CREATE TRIGGER vendor_line_uncounted AFTER DELETE ON vendor_lines WHEN OLD.deleted = 0 BEGIN ${uncounted()} END`,
      "CREATE TRIGGER vendor_line_recounted AFTER UPDATE OF deleted, status_name ON vendor_lines " +
        "WHEN OLD.deleted <> NEW.deleted OR OLD.status_name <> NEW.status_name BEGIN " +
        `${uncounted("OLD.deleted = 0")} ${counted("NEW.deleted = 0")} END`,
    ].join(STATEMENT_BREAKPOINT_LINE),
  },
  {
    // Closed lines and tombstones by their last change, for the alarm's purge past the list's retention
    // (retention.ts). Its condition is retention.ts's CLOSED_ROW, written out: a migration does not change once run.
    tag: "0002_vendor_lines_closed",
    sql: "CREATE INDEX vendor_lines_closed ON vendor_lines(changed_at) WHERE (deleted = 1 OR status_name IN ('Delivered', 'Cancelled', 'Rejected'))",
  },
  {
    // What waits for the vendor besides a line's state (its returnsToReceive and invoicesInException, > 0): columns
    // kept from the line at each write, a partial index each for their lists, and their counts as vendor_line_counts
    // holds the statuses', kept by triggers in the same transaction.
    tag: "0003_vendor_lines_attention",
    sql: [
      "ALTER TABLE vendor_lines ADD COLUMN returns_to_receive INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE vendor_lines ADD COLUMN invoices_in_exception INTEGER NOT NULL DEFAULT 0",
      "CREATE INDEX vendor_lines_returns ON vendor_lines(order_date, line_id) WHERE deleted = 0 AND returns_to_receive > 0",
      "CREATE INDEX vendor_lines_invoices ON vendor_lines(order_date, line_id) WHERE deleted = 0 AND invoices_in_exception > 0",
      "CREATE TABLE vendor_attention_counts (attention TEXT PRIMARY KEY, lines INTEGER NOT NULL) WITHOUT ROWID",
      "INSERT INTO vendor_attention_counts (attention, lines) VALUES ('returns', 0), ('invoices', 0)",
      ...ATTENTION_COLUMNS.flatMap(([attention, column]) => attentionTriggers(attention, column)),
    ].join(STATEMENT_BREAKPOINT_LINE),
  },
  {
    // The fields the q language searches besides the list's own columns (search.ts): generated from the line's JSON
    // (virtual: read when a query reads them, nothing stored).
    tag: "0004_vendor_lines_searched",
    sql: SEARCHED_FIELDS.map(
      ([column, path]) => `ALTER TABLE vendor_lines ADD COLUMN ${column} GENERATED ALWAYS AS (json_extract(line, '${path}')) VIRTUAL`,
    ).join(STATEMENT_BREAKPOINT_LINE),
  },
]);
