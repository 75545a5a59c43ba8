import { jsonGroups, MAX_PARAMETER_BYTES } from "../../../db/bulk-insert";
import { quotedIdentifier as quoted } from "../../../db/identifiers";
import { letOthersIn } from "../../../platform/let-others-in";
import { PART_NUMBER_AGENCY } from "../../../shared/catalog/product-codes";
import type { KindEnv } from "../kinds";
import {
  existingObjects,
  indexesToMake,
  nextDefinition,
  nextName,
  oldName,
  otherIndexName,
  referenceRenamer,
  removeTableChunk,
  type SchemaObject,
} from "./schema";

/**
 * The main database's copy of the scan codes after a bulk import's switch (src/shared/catalog/product-codes.ts): built
 * anew beside the live copy, then switched to, as the catalog is. The copy row by row costs a random write in both
 * of the table's keys per code (a million products: 95 s, docs/benchmarks.md "Catalog import"); here every code of
 * the new catalog is read in key order (part numbers, then device identifiers by agency) and appended to a bare
 * `next_product_codes`, its index is built in one statement, and one transaction renames the copies. The old copy is
 * then removed in bounded steps. Each step starts from the cursor the last one returned and is safe to run again:
 * the appends ignore rows already there, and the index, the switch and the removal look at the schema first. Every
 * write is a batch of its own (one transaction).
 * The live copy lags the catalog until the switch, which costs scan to order only a second read, never a wrong quote.
 */

const TABLE = "product_codes";
const NEXT = quoted(nextName(TABLE));
const OLD = quoted(oldName(TABLE));
const renamer = referenceRenamer([TABLE]);
/** The copy's primary key. */
const CODE_KEY = "agency, code, product_id";

export const SCAN_CODE_CHUNKS = {
  /** Codes read from the catalog and appended per statement batch (one JSON parameter of about 0.5 MB). */
  codes: 10_000,
  /** Rows removed per statement from a leftover copy before it is dropped. */
  removeRows: 20_000,
  /** Work per Workflow step: chunks run back to back for this long (0: one chunk). */
  stepBudgetMs: 1000,
};
export type ScanCodeChunks = typeof SCAN_CODE_CHUNKS;

export type ScanCodesCursor =
  | { phase: "prepare" }
  /** Part numbers after [normalized part number, product rowid] of the catalog. */
  | { phase: "parts"; after: [string, number] }
  /** Device identifiers after [agency, device id]. */
  | { phase: "devices"; after: [string, string] }
  | { phase: "index" }
  | { phase: "switch" }
  | { phase: "cleanup" };

/** The catalog's codes after a key (?1, ?2), ?3 of them, in key order: each a walk of an index from the key. */
export const SCAN_CODE_READS = {
  parts:
    "SELECT normalized_part_number, id, rowid FROM products WHERE (normalized_part_number, rowid) > (?1, ?2) " +
    "ORDER BY normalized_part_number, rowid LIMIT ?3",
  devices:
    "SELECT agency, device_id, product_id FROM device_identifiers WHERE (agency, device_id) > (?1, ?2) ORDER BY agency, device_id LIMIT ?3",
};

export const SCAN_CODES_START: ScanCodesCursor = { phase: "prepare" };

/**
 * Runs the copy for about `sizes.stepBudgetMs` from `cursor`; the cursor to go on from, or null once it is done. The
 * switch always starts a step of its own: a step that failed after the switch committed runs again from where it
 * started, and every phase before the switch writes to the next copy, which the switch has renamed.
 */
export async function scanCodesStep(
  env: KindEnv,
  cursor: ScanCodesCursor,
  sizes: ScanCodeChunks = SCAN_CODE_CHUNKS,
): Promise<ScanCodesCursor | null> {
  const started = Date.now();
  let at: ScanCodesCursor | null = cursor;
  do {
    at = await STEPS[at.phase](env, at as never, sizes);
    await letOthersIn();
  } while (at && at.phase !== "switch" && Date.now() - started < sizes.stepBudgetMs);
  return at;
}

type Step<P extends ScanCodesCursor["phase"]> = (
  env: KindEnv,
  cursor: Extract<ScanCodesCursor, { phase: P }>,
  sizes: ScanCodeChunks,
) => Promise<ScanCodesCursor | null>;

const STEPS: { [P in ScanCodesCursor["phase"]]: Step<P> } = {
  async prepare({ DB }, _, sizes) {
    // A copy an earlier job left (failed before its switch, or not yet removed) goes first.
    for (const leftover of await existingObjects(DB, [nextName(TABLE), oldName(TABLE)])) {
      if (await removeTableChunk(DB, leftover, CODE_KEY, sizes.removeRows)) return { phase: "prepare" };
    }
    const table = (await liveDefinitions(DB)).find((o) => o.type === "table");
    if (!table) throw new Error(`the main database lacks ${TABLE}`);
    await DB.batch([DB.prepare(nextDefinition(table, renamer))]);
    return { phase: "parts", after: ["", 0] };
  },

  async parts(env, { after }, sizes) {
    const rows = await env.CATALOG.prepare(SCAN_CODE_READS.parts).bind(after[0], after[1], sizes.codes).raw<[string, string, number]>();
    await append(
      env.DB,
      rows.map(([code, productId]) => [PART_NUMBER_AGENCY, code, productId]),
    );
    const last = rows.at(-1);
    return rows.length < sizes.codes ? { phase: "devices", after: ["", ""] } : { phase: "parts", after: [last![0], last![2]] };
  },

  async devices(env, { after }, sizes) {
    const rows = await env.CATALOG.prepare(SCAN_CODE_READS.devices).bind(after[0], after[1], sizes.codes).raw<[string, string, string]>();
    await append(env.DB, rows);
    const last = rows.at(-1);
    return rows.length < sizes.codes ? { phase: "index" } : { phase: "devices", after: [last![0], last![1]] };
  },

  async index({ DB }) {
    const indexes = (await liveDefinitions(DB)).filter((o) => o.type === "index");
    const made = await existingObjects(
      DB,
      indexes.map((o) => otherIndexName(o.name)),
      "index",
    );
    const missing = indexesToMake(indexes, made, renamer);
    if (missing.length > 0) await DB.batch(missing.map((sql) => DB.prepare(sql)));
    return { phase: "switch" };
  },

  async switch({ DB }) {
    // Run again after it committed, the switch finds no next copy and leaves the live one alone.
    if ((await existingObjects(DB, [nextName(TABLE)])).length > 0) {
      await DB.batch([
        DB.prepare(`ALTER TABLE ${quoted(TABLE)} RENAME TO ${OLD}`),
        DB.prepare(`ALTER TABLE ${NEXT} RENAME TO ${quoted(TABLE)}`),
      ]);
    }
    return { phase: "cleanup" };
  },

  async cleanup({ DB }, _, sizes) {
    if ((await existingObjects(DB, [oldName(TABLE)])).length === 0) return null;
    await removeTableChunk(DB, oldName(TABLE), CODE_KEY, sizes.removeRows);
    return { phase: "cleanup" };
  },
};

/** Appends codes ([agency, code, productId]) to the next copy; codes already there are left alone. */
async function append(db: D1Database, codes: readonly (readonly [string, string, string])[]) {
  if (codes.length === 0) return;
  await db.batch(
    jsonGroups(codes, MAX_PARAMETER_BYTES).map((json) =>
      db
        .prepare(
          `INSERT INTO ${NEXT} (agency, code, product_id) SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?1) j ` +
            "WHERE true ON CONFLICT DO NOTHING",
        )
        .bind(json),
    ),
  );
}

/** The live copy's table and its indexes, as defined in the main database. */
async function liveDefinitions(db: D1Database): Promise<SchemaObject[]> {
  const { results } = await db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY rowid")
    .bind(TABLE)
    .all<SchemaObject>();
  return results;
}
