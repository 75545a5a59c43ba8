import type { TableProgress } from "./copy";

/**
 * The tenant registry (migrations/0028, `tenant_stores`): where each tenant's data lives and the state of its move.
 * Every change but the start names the move it belongs to, so a move that was replaced can never change the row.
 */

export type StoreState = "database" | "copying" | "copied" | "store";

export interface TableCheck {
  table: string;
  database: { rows: number; digest: string };
  store: { rows: number; digest: string };
  equal: boolean;
}

/** What a move found: per store (the tenant's, its sandbox twin's), per table, both sides' rows and digests. */
export interface Verification {
  equal: boolean;
  stores?: { tenantId: number; bytes: number; tables: TableCheck[] }[];
  /** Why the move stopped before verifying (a step that kept failing). */
  error?: string;
}

export interface RegistryRow {
  tenant_id: number;
  state: StoreState;
  move_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  total_rows: number | null;
  copied_rows: number | null;
  verification: string | null;
  /** 1 when the move switches the tenant to its stores once verified. */
  switch_after: number;
}

export const readRegistry = (db: D1Database, tenantId: number) =>
  db.prepare("SELECT * FROM tenant_stores WHERE tenant_id = ?1").bind(tenantId).first<RegistryRow>();

/**
 * Puts the tenant in its read-only window for move `moveId`, unless a move of it is under way or it lives in its
 * stores already (no row returned then: a copy from the database would overwrite what only the stores hold).
 * From this statement on, the database refuses every write of the tenant's rows (migrations/0028's triggers).
 */
export const startMoveStatement = (db: D1Database, tenantId: number, moveId: string, at: string, switchAfter: boolean) =>
  db
    .prepare(
      "INSERT INTO tenant_stores (tenant_id, state, move_id, started_at, finished_at, total_rows, copied_rows, verification, switch_after) " +
        "VALUES (?1, 'copying', ?2, ?3, NULL, NULL, 0, NULL, ?4) ON CONFLICT (tenant_id) DO UPDATE SET state = 'copying', " +
        "move_id = ?2, started_at = ?3, finished_at = NULL, total_rows = NULL, copied_rows = 0, verification = NULL, switch_after = ?4 " +
        "WHERE tenant_stores.state NOT IN ('copying', 'store') RETURNING *",
    )
    .bind(tenantId, moveId, at, switchAfter ? 1 : 0);

export const recordTotal = (db: D1Database, tenantId: number, moveId: string, total: number) =>
  db.prepare("UPDATE tenant_stores SET total_rows = ?3 WHERE tenant_id = ?1 AND move_id = ?2").bind(tenantId, moveId, total).run();

export const recordCopied = (db: D1Database, tenantId: number, moveId: string, copied: number) =>
  db.prepare("UPDATE tenant_stores SET copied_rows = ?3 WHERE tenant_id = ?1 AND move_id = ?2").bind(tenantId, moveId, copied).run();

/**
 * Ends the window: when every table of every store matched, 'store' if the move was asked to switch the tenant, else
 * 'copied'; otherwise back to 'database' (the copy is not used). The state the tenant is left in (null when this move
 * had ended already).
 */
export const finishMove = async (db: D1Database, tenantId: number, moveId: string, verification: Verification, at: string) =>
  (
    await db
      .prepare(
        "UPDATE tenant_stores SET state = CASE WHEN ?3 = 0 THEN 'database' WHEN switch_after = 1 THEN 'store' ELSE 'copied' END, " +
          "finished_at = ?4, verification = ?5 WHERE tenant_id = ?1 AND move_id = ?2 AND state = 'copying' RETURNING state",
      )
      .bind(tenantId, moveId, verification.equal ? 1 : 0, at, JSON.stringify(verification))
      .first<{ state: StoreState }>()
  )?.state ?? null;

/** Both sides of one table, compared. */
export const tableCheck = (table: string, database: TableProgress, store: TableProgress): TableCheck => ({
  table,
  database: { rows: database.rows, digest: database.digest },
  store: { rows: store.rows, digest: store.digest },
  equal: database.rows === store.rows && database.digest === store.digest,
});
