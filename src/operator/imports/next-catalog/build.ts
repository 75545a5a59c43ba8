import { quotedIdentifier as quoted } from "../../../db/identifiers";
import { letOthersIn } from "../../../platform/let-others-in";
import { POSITIONED_ORDERS, type PositionedSort } from "../../../shared/catalog/positions";
import { newManufacturers, RECORD_FIELD_COLUMNS, RECORD_FIELD_VALUES, RECORD_VALUES, stagedDeviceIdentifiers } from "../apply";
import type { BuildPhase, JobRow } from "../jobs";
import {
  createNextVersion,
  HEAPED_TABLES,
  heapName,
  leftoverTables,
  missingNextIndexes,
  nextName,
  removeLeftoverChunk,
  SEARCH_DOCUMENTS_VIEW,
  switchStatements,
} from "./schema";

/**
 * The bulk path of a catalog import (docs/architecture.md, "Catalog imports"): the next catalog version is built beside
 * the live one, set-based and without triggers, then switched to in one transaction. Its phases, in order:
 * - prepare: leftovers of an earlier build removed, the next tables created (the live definitions, renamed);
 * - copy: the live products in rowid ranges, each with the file's update or the replace's withdrawal applied, with their
 *   categories and device identifiers (into heaps) and facet counts;
 * - create: the file's new products in line order (so their rowids, the static search rank, follow the file);
 * - sort: categories and device identifiers copied from their heaps into their tables in key order, one statement each;
 * - indexes: each index of the next tables built from what is there, one statement each (sorting the keys once costs a
 *   fraction of keeping an index up to date row by row: docs/benchmarks.md, "Catalog import");
 * - index: the full-text index in rowid ranges, FTS5 automerge off;
 * - positions: the sort positions of deep pages, in keyset chunks;
 * - merge: the full-text index merged to one segment in bounded 'merge' steps;
 * - switch: the next version goes live with its catalog version (src/operator/imports/next-catalog/schema.ts);
 * - cleanup: the old version removed in bounded steps.
 * Searches read the live version throughout, between the build's statements: chunks are short; the sort and index
 * statements are not (seconds at a million products), and a search waits for the one under way. The job row holds the phase
 * and a cursor, and every chunk moves the cursor in the same transaction as its writes (each write is guarded by the
 * cursor it started from), so a step run again after a crash resumes exactly where the last commit left it.
 */

/**
 * A catalog import takes the bulk path when it changes (creates, updates or withdraws) at least this share of the
 * catalog it leaves. Below it, the staged rows go through the live tables' triggers: a few changed rows cost far less
 * than a rebuild of the whole full-text index (docs/decisions.md, "Catalog import at speed").
 */
export const BULK_SHARE = 0.25;

/** How much each chunk of the build writes; each is one short statement batch (docs/benchmarks.md, "Catalog import"). */
export const CHUNKS = {
  /** Live products copied per batch; new products inserted per batch (staged lines). */
  copyRows: 2000,
  /**
   * Products added to the full-text index per statement (one segment each): about 0.2 s at a million products. Fewer,
   * larger segments merge far faster: 1,000-row chunks made the merge of a million products take 4 minutes.
   */
  indexRows: 4000,
  /** Sort positions written per statement. */
  positionRows: 10_000,
  /** Pages written per full-text 'merge' step of the next index (about 0.15 s). */
  mergePages: 1000,
  /**
   * Segments at which the index phase merges the next index to one before it goes on (FTS5 allows 2,000 per level, and
   * a 'crisis' merge of that many would hold the database for long): reached past 4M products.
   */
  maxSegments: 1000,
  /** How often (in index chunks) the index phase counts its segments. */
  segmentCheckChunks: 100,
};
export type ChunkSizes = typeof CHUNKS;
/** The FTS5 write buffer while the next index is built: one segment per chunk. */
const BUILD_HASH_BYTES = 8 * 1024 * 1024;
/** Work per Workflow step: chunks run back to back for this long, each a statement batch of its own. */
const STEP_BUDGET_MS = 2000;

type BuildJob = Pick<JobRow, "id" | "mode" | "withdrawn" | "created" | "updated" | "rows_to_apply" | "rows_applied"> & {
  build_phase: BuildPhase;
  build_cursor: number;
  build_version: string;
  build_rows: number;
};

const NEXT_FTS = nextName("products_fts");
const NEXT_FTS_INDEX = quoted(`${NEXT_FTS}_idx`);
const fts = (table: string, command: string, value: number) =>
  `INSERT INTO ${quoted(table)} (${quoted(table)}, rank) VALUES ('${command}', ${value})`;

/** Decides the job's path once (its counts are final): 'bulk' or 'rows'. */
export async function chooseApplyPath(catalog: D1Database, jobId: string): Promise<"rows" | "bulk"> {
  const job = await catalog
    .prepare("SELECT apply_path, created, updated, withdrawn, (SELECT count(*) FROM products) AS live FROM catalog_imports WHERE id = ?")
    .bind(jobId)
    .first<{ apply_path: "rows" | "bulk" | null; created: number; updated: number; withdrawn: number; live: number }>();
  if (!job) throw new Error(`no import job ${jobId}`);
  if (job.apply_path) return job.apply_path;
  const changed = job.created + job.updated + job.withdrawn;
  const path = changed > 0 && changed >= BULK_SHARE * (job.live + job.created) ? "bulk" : "rows";
  await catalog
    .prepare(
      "UPDATE catalog_imports SET apply_path = ?2, build_phase = CASE ?2 WHEN 'bulk' THEN 'prepare' END, build_cursor = 0, " +
        "build_version = lower(hex(randomblob(12))) WHERE id = ?1 AND apply_path IS NULL",
    )
    .bind(jobId, path)
    .run();
  return path;
}

/** Runs build chunks for about STEP_BUDGET_MS; true once the build is done (switched and cleaned up). */
export async function buildStep(catalog: D1Database, jobId: string, sizes: ChunkSizes = CHUNKS): Promise<boolean> {
  const started = Date.now();
  do {
    const job = await catalog
      .prepare(
        "SELECT id, mode, withdrawn, created, updated, rows_to_apply, rows_applied, build_phase, build_cursor, build_version, build_rows " +
          "FROM catalog_imports WHERE id = ?",
      )
      .bind(jobId)
      .first<BuildJob>();
    if (!job) throw new Error(`no import job ${jobId}`);
    if (job.build_phase === "done") return true;
    await PHASES[job.build_phase](catalog, job, sizes);
    await letOthersIn(); // a request between two chunks
  } while (Date.now() - started < STEP_BUDGET_MS);
  return false;
}

/** The last rowid of a table (0 when empty), as `last`. */
const LAST_ROWID = (table: string) => `SELECT coalesce(max(rowid), 0) AS last FROM ${quoted(table)}`;

/** The cursor a chunk started from is still the job's: a chunk that committed is never written twice. */
const GUARD = "EXISTS (SELECT 1 FROM catalog_imports WHERE id = ?1 AND build_cursor = ?2)";

/**
 * Moves the job to `phase` (cursor 0), or moves its cursor, with its progress (and the next version's products, when
 * known): the last statement of a chunk's batch.
 */
function advance(catalog: D1Database, job: BuildJob, to: { phase?: BuildPhase; cursor?: number; applied?: number; buildRows?: number }) {
  const set = [
    "build_phase = ?3",
    "build_cursor = ?4",
    "progressed_at = ?5",
    "rows_applied = max(rows_applied, ?6)",
    "build_rows = coalesce(?8, build_rows)",
    ...(to.phase === "positions" ? ["upkeep_started_at = coalesce(upkeep_started_at, ?5)"] : []),
  ];
  return catalog
    .prepare(`UPDATE catalog_imports SET ${set.join(", ")} WHERE id = ?1 AND build_cursor = ?2 AND build_phase = ?7`)
    .bind(
      job.id,
      job.build_cursor,
      to.phase ?? job.build_phase,
      to.phase ? 0 : (to.cursor ?? job.build_cursor),
      new Date().toISOString(),
      to.applied ?? job.rows_applied,
      job.build_phase,
      to.buildRows ?? null,
    );
}

/** Progress of the writes a person follows: the changed rows, in proportion to the build's copy, create and index work. */
function appliedAt(job: BuildJob, share: number) {
  return Math.min(job.rows_to_apply, Math.floor(job.rows_to_apply * share));
}

const PHASES: Record<Exclude<BuildPhase, "done">, (catalog: D1Database, job: BuildJob, sizes: ChunkSizes) => Promise<unknown>> = {
  async prepare(catalog, job) {
    const [leftover] = await leftoverTables(catalog);
    if (leftover) return removeLeftoverChunk(catalog, leftover);
    const create = await createNextVersion(catalog);
    const live = await catalog.prepare(LAST_ROWID("products")).first<{ last: number }>();
    return catalog.batch([
      catalog.prepare(`DROP VIEW IF EXISTS ${quoted(nextName(SEARCH_DOCUMENTS_VIEW))}`),
      ...create.map((sql) => catalog.prepare(sql)),
      catalog.prepare(fts(NEXT_FTS, "automerge", 0)),
      catalog.prepare(fts(NEXT_FTS, "crisismerge", 1999)),
      catalog.prepare(fts(NEXT_FTS, "hashsize", BUILD_HASH_BYTES)),
      advance(catalog, job, { phase: "copy", buildRows: (live?.last ?? 0) + job.created }),
    ]);
  },

  async copy(catalog, job, sizes) {
    const from = job.build_cursor;
    // The live products' last rowid and their columns, in one round trip (the next table has the same columns).
    const [lastRow, columnRows] = await catalog.batch([
      catalog.prepare(LAST_ROWID("products")),
      catalog.prepare("SELECT name FROM pragma_table_info('products')"),
    ]);
    const last = (lastRow!.results[0] as { last: number }).last;
    if (from >= last) return catalog.batch([advance(catalog, job, { phase: "create" })]);
    const to = from + sizes.copyRows;
    const range = "p.rowid > ?2 AND p.rowid <= ?3";
    const columns = (columnRows!.results as { name: string }[]).map((column) => quoted(column.name));
    // The file's updates of the chunk's products, as staged rows `r`.
    const updates = `r.job_id = ?1 AND r.record IS NOT NULL AND r.product_id IN (SELECT p.id FROM products p WHERE ${range}) AND ${GUARD}`;
    const updated = "EXISTS (SELECT 1 FROM catalog_import_rows r WHERE r.job_id = ?1 AND r.product_id = p.id AND r.record IS NOT NULL)";
    const statements = [
      catalog.prepare(newManufacturers(updates)),
      catalog.prepare(
        `INSERT INTO next_products (rowid, ${columns.join(", ")}) SELECT p.rowid, ${columns.map((c) => `p.${c}`).join(", ")} ` +
          `FROM products p WHERE ${range} AND ${GUARD}`,
      ),
      catalog.prepare(
        `UPDATE next_products AS p SET (${RECORD_FIELD_COLUMNS}) = (${RECORD_FIELD_VALUES}) FROM catalog_import_rows r ` +
          `WHERE r.job_id = ?1 AND r.product_id = p.id AND r.record IS NOT NULL AND ${range} AND ${GUARD}`,
      ),
      ...(job.mode === "replace" && job.withdrawn > 0
        ? [
            catalog.prepare(
              "UPDATE next_products AS p SET status = 'withdrawn', content_hash = NULL, source_hash = NULL " +
                `WHERE ${range} AND p.status != 'withdrawn' AND NOT EXISTS (SELECT 1 FROM catalog_import_rows r WHERE r.job_id = ?1 AND r.product_id = p.id) AND ${GUARD}`,
            ),
          ]
        : []),
      catalog.prepare(
        `INSERT INTO ${IDENTIFIERS_HEAP} SELECT d.* FROM products p JOIN device_identifiers d ON d.product_id = p.id ` +
          `WHERE ${range} AND NOT ${updated} AND ${GUARD}`,
      ),
      catalog.prepare(stagedDeviceIdentifiers(IDENTIFIERS_HEAP, updates, { keyed: false })),
      ...categoriesAndCounts(catalog, range),
      advance(catalog, job, {
        cursor: Math.min(to, last),
        applied: appliedAt(job, (Math.min(to, last) / Math.max(1, job.build_rows)) * 0.5),
      }),
    ];
    return catalog.batch(statements.map((s, i) => (i === statements.length - 1 ? s : s.bind(job.id, from, to))));
  },

  async create(catalog, job, sizes) {
    const from = job.build_cursor;
    const last =
      (
        await catalog
          .prepare("SELECT coalesce(max(seq), 0) AS last FROM catalog_import_rows WHERE job_id = ?")
          .bind(job.id)
          .first<{ last: number }>()
      )?.last ?? 0;
    if (from >= last) {
      const built = await catalog.prepare("SELECT count(*) AS n FROM next_products").first<{ n: number }>();
      return catalog.batch([advance(catalog, job, { phase: "sort", buildRows: built?.n ?? 0 })]);
    }
    const to = from + sizes.copyRows;
    const staged = "r.job_id = ?1 AND r.seq > ?2 AND r.seq <= ?3 AND r.action = 'create'";
    const statements = [
      catalog.prepare(newManufacturers(`${staged} AND ${GUARD}`)),
      catalog.prepare(
        `INSERT INTO next_products (id, ${RECORD_FIELD_COLUMNS}) SELECT ${RECORD_VALUES} FROM catalog_import_rows r ` +
          `WHERE ${staged} AND ${GUARD} ORDER BY r.seq ON CONFLICT (id) DO NOTHING`,
      ),
      catalog.prepare(stagedDeviceIdentifiers(IDENTIFIERS_HEAP, `${staged} AND ${GUARD}`, { keyed: false })),
      ...categoriesAndCounts(catalog, `p.id IN (SELECT r.product_id FROM catalog_import_rows r WHERE ${staged})`),
      advance(catalog, job, {
        cursor: Math.min(to, last),
        applied: appliedAt(job, 0.5 * (1 - (job.created / Math.max(1, job.build_rows)) * (1 - Math.min(to, last) / last))),
      }),
    ];
    return catalog.batch(statements.map((s, i) => (i === statements.length - 1 ? s : s.bind(job.id, from, to))));
  },

  async sort(catalog, job) {
    // Cursor 0: the categories; 1: the device identifiers. Each in one statement, with its heap dropped.
    const [categories, identifiers] = HEAPED_TABLES;
    if (job.build_cursor === 0) {
      return catalog.batch([
        catalog.prepare(
          `INSERT OR IGNORE INTO ${quoted(nextName(categories))} (category, product_id) SELECT category, product_id FROM ${quoted(heapName(categories))} ` +
            "ORDER BY category, product_id",
        ),
        catalog.prepare(`DROP TABLE ${quoted(heapName(categories))}`),
        advance(catalog, job, { cursor: 1 }),
      ]);
    }
    return catalog.batch([
      catalog.prepare(
        `INSERT OR REPLACE INTO ${quoted(nextName(identifiers))} (agency, device_id, product_id, contains_device_id, quantity) ` +
          `SELECT agency, device_id, product_id, contains_device_id, quantity FROM ${IDENTIFIERS_HEAP} ORDER BY agency, device_id, rowid`,
      ),
      catalog.prepare(`DROP TABLE ${IDENTIFIERS_HEAP}`),
      advance(catalog, job, { phase: "indexes" }),
    ]);
  },

  async indexes(catalog, job) {
    const [next] = await missingNextIndexes(catalog);
    if (!next) return catalog.batch([advance(catalog, job, { phase: "index" })]);
    return catalog.batch([catalog.prepare(next), advance(catalog, job, { cursor: job.build_cursor + 1 })]);
  },

  async index(catalog, job, sizes) {
    const from = job.build_cursor;
    const last = (await catalog.prepare(LAST_ROWID("next_products")).first<{ last: number }>())?.last ?? 0;
    if (from >= last) return catalog.batch([advance(catalog, job, { phase: "positions" })]);
    if (from > 0 && from % (sizes.indexRows * sizes.segmentCheckChunks) === 0 && (await segments(catalog)) >= sizes.maxSegments) {
      return mergeToOne(catalog, sizes.mergePages);
    }
    const to = from + sizes.indexRows;
    const view = quoted(nextName(SEARCH_DOCUMENTS_VIEW));
    return catalog.batch([
      catalog
        .prepare(
          `INSERT INTO ${NEXT_FTS} (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories) ` +
            `SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories FROM ${view} ` +
            `WHERE document_id > ?2 AND document_id <= ?3 AND ${GUARD}`,
        )
        .bind(job.id, from, to),
      advance(catalog, job, { cursor: Math.min(to, last), applied: appliedAt(job, 0.5 + (0.5 * Math.min(to, last)) / last) }),
    ]);
  },

  async positions(catalog, job, sizes) {
    const built = await catalog.prepare("SELECT sort_by FROM next_catalog_positions_built").all<{ sort_by: string }>();
    const sort = (Object.keys(POSITIONED_ORDERS) as PositionedSort[]).find((s) => !built.results.some((row) => row.sort_by === s));
    if (!sort) return catalog.batch([advance(catalog, job, { phase: "merge" })]);
    return positionChunk(catalog, job, sort, sizes.positionRows);
  },

  async merge(catalog, job, sizes) {
    // A merge step is safe to repeat.
    if (!(await severalSegments(catalog))) {
      return catalog.batch([
        catalog.prepare(fts(NEXT_FTS, "automerge", 4)),
        catalog.prepare(fts(NEXT_FTS, "crisismerge", 16)),
        catalog.prepare(fts(NEXT_FTS, "hashsize", 1024 * 1024)),
        advance(catalog, job, { phase: "switch" }),
      ]);
    }
    return catalog.batch([
      catalog.prepare(fts(NEXT_FTS, "merge", -sizes.mergePages)),
      advance(catalog, job, { cursor: job.build_cursor + 1 }),
    ]);
  },

  async switch(catalog, job) {
    const statements = await switchStatements(catalog);
    return catalog.batch([
      ...statements.map((sql) => catalog.prepare(sql)),
      catalog.prepare("UPDATE catalog_version SET version = ? WHERE id = 1").bind(job.build_version),
      advance(catalog, job, { phase: "cleanup" }),
    ]);
  },

  async cleanup(catalog, job) {
    const [leftover] = await leftoverTables(catalog);
    if (leftover) return removeLeftoverChunk(catalog, leftover);
    return catalog.batch([advance(catalog, job, { phase: "done" })]);
  },
};

const IDENTIFIERS_HEAP = quoted(heapName("device_identifiers"));

/**
 * The categories of the chunk's products (`chunk`, a condition on `p`, a next_products row, over ?1-?3) into their
 * heap, and what the chunk adds to the facet counts (a name twice in one product's categories is one category).
 */
function categoriesAndCounts(catalog: D1Database, chunk: string): D1PreparedStatement[] {
  const pairs = `SELECT DISTINCT p.id AS product_id, j.value AS category FROM next_products p, json_each(p.categories) j WHERE ${chunk} AND ${GUARD}`;
  return [
    catalog.prepare(
      `INSERT INTO ${quoted(heapName("product_categories"))} (category, product_id) SELECT category, product_id FROM (${pairs})`,
    ),
    catalog.prepare(
      "INSERT INTO next_catalog_manufacturer_counts (manufacturer_id, product_count) SELECT p.manufacturer_id, count(*) FROM next_products p " +
        `WHERE ${chunk} AND ${GUARD} GROUP BY p.manufacturer_id ` +
        "ON CONFLICT (manufacturer_id) DO UPDATE SET product_count = product_count + excluded.product_count",
    ),
    catalog.prepare(
      `INSERT INTO next_catalog_category_counts (category, product_count) SELECT category, count(*) FROM (${pairs}) WHERE true GROUP BY category ` +
        "ON CONFLICT (category) DO UPDATE SET product_count = product_count + excluded.product_count",
    ),
  ];
}

/** Whether the next index has more than one segment: two seeks of its segment index, where counting them reads it all. */
async function severalSegments(catalog: D1Database): Promise<boolean> {
  const row = await catalog
    .prepare(`SELECT (SELECT min(segid) FROM ${NEXT_FTS_INDEX}) < (SELECT max(segid) FROM ${NEXT_FTS_INDEX}) AS several`)
    .first<{ several: number | null }>();
  return row?.several === 1;
}

async function segments(catalog: D1Database): Promise<number> {
  const row = await catalog.prepare(`SELECT count(DISTINCT segid) AS n FROM ${NEXT_FTS_INDEX}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Merge steps of the next index until it has one segment. */
async function mergeToOne(catalog: D1Database, pages: number) {
  do await catalog.prepare(fts(NEXT_FTS, "merge", -pages)).run();
  while (await severalSegments(catalog));
}

/**
 * The next `rows` positions of `sort`, after the last one written (the chunk's start is read from the positions
 * themselves, so a chunk run again writes nothing twice); the sort is marked built once every product has one.
 */
async function positionChunk(catalog: D1Database, job: BuildJob, sort: PositionedSort, rows: number) {
  const last = await catalog
    .prepare(
      "SELECT c.position, p.part_number, p.description, p.id, p.manufacturer_id, m.name FROM next_catalog_positions c " +
        "JOIN next_products p ON p.rowid = c.product_rowid JOIN manufacturers m ON m.id = p.manufacturer_id " +
        "WHERE c.sort_by = ? ORDER BY c.position DESC LIMIT 1",
    )
    .bind(sort)
    .first<{ position: number; part_number: string; description: string; id: string; manufacturer_id: number; name: string }>();
  const base = last?.position ?? 0;
  const write = async (sql: string, ...binds: unknown[]) => (await catalog.batch([catalog.prepare(sql).bind(...binds)]))[0]!;
  if (base >= job.build_rows) {
    return write(
      "INSERT INTO next_catalog_positions_built (sort_by, catalog_version) VALUES (?, ?) ON CONFLICT (sort_by) DO NOTHING",
      sort,
      job.build_version,
    );
  }
  const insert = (select: string, order: string) =>
    "INSERT OR IGNORE INTO next_catalog_positions (sort_by, position, product_rowid) " +
    `SELECT ?1, ?2 + row_number() OVER (ORDER BY ${order}), rid FROM (${select} LIMIT ${rows})`;
  if (sort !== "Manufacturer") {
    const column = sort === "PartNumber" ? "part_number" : "description";
    const after = last ? `(${column}, id) > (?3, ?4)` : "?3 IS NULL AND ?4 IS NULL";
    const key = sort === "PartNumber" ? last?.part_number : last?.description;
    return write(
      insert(`SELECT rowid AS rid, ${column}, id FROM next_products WHERE ${after} ORDER BY ${column}, id`, `${column}, id`),
      sort,
      base,
      key ?? null,
      last?.id ?? null,
    );
  }
  // By manufacturer name: the rest of the last one's products, then the manufacturers after it by name.
  if (last) {
    const within = await write(
      insert(
        "SELECT rowid AS rid, part_number, id FROM next_products WHERE manufacturer_id = ?3 AND (part_number, id) > (?4, ?5) ORDER BY part_number, id",
        "part_number, id",
      ),
      sort,
      base,
      last.manufacturer_id,
      last.part_number,
      last.id,
    );
    if (within.meta.changes > 0) return within;
  }
  return write(
    insert(
      "SELECT p.rowid AS rid, m.name, p.part_number, p.id FROM manufacturers m CROSS JOIN next_products p ON p.manufacturer_id = m.id " +
        "WHERE ?3 IS NULL OR m.name > ?3 ORDER BY m.name, p.part_number, p.id",
      "name, part_number, id",
    ),
    sort,
    base,
    last?.name ?? null,
  );
}
