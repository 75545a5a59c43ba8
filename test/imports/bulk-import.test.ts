import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BULK_SHARE, buildStep } from "../../src/operator/imports/next-catalog/build";
import { SCAN_CODE_READS, SCAN_CODES_START, type ScanCodesCursor, scanCodesStep } from "../../src/operator/imports/next-catalog/scan-codes";
import { fullTextSegments } from "../../src/shared/catalog/full-text-index";
import { gtin14Of } from "../../src/shared/catalog/gtin";
import { POSITIONED_ORDERS } from "../../src/shared/catalog/positions";
import { call, operatorTokenFor } from "../helpers/api";
import { detailRaw, search } from "../helpers/catalog";
import { afterBatchCommits } from "../helpers/faults";
import { catalogCount, catalogVersion, createImport, getJob, IMPORTS, ndjson, productRow, runImport } from "../helpers/imports";

/**
 * The bulk path of a catalog import (src/operator/imports/next-catalog/): a file that changes a large share of the
 * catalog builds the next version beside the live one and switches to it. The oracle for everything the build writes
 * set-based is what the live tables' triggers keep: the categories, counts, full-text documents and sort positions
 * recomputed from the products must equal what the build left.
 */

const product = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `BLK-${n}`,
  partNumber: `BLK${n}00Z`,
  title: `Bulk valve assembly ${n}`,
  description: `Valve ${n} of the bulk import tests`,
  manufacturer: n % 2 === 0 ? "Bulkwerk Medical" : "Valvecraft",
  categories: n % 3 === 0 ? ["Valves", "Pumps"] : ["Valves"],
  ...extra,
});

const one = async <T>(sql: string, ...binds: unknown[]) =>
  (await env.CATALOG.prepare(sql)
    .bind(...binds)
    .first<T>())!;
const count = catalogCount;
const jobRow = (id: string) =>
  one<{ apply_path: string; build_phase: string }>("SELECT apply_path, build_phase FROM catalog_imports WHERE id = ?", id);

/** Rows in either of two queries' results and not in the other's. */
const differing = (a: string, b: string) => {
  const except = (x: string, y: string) => `(SELECT count(*) FROM (SELECT * FROM (${x}) EXCEPT SELECT * FROM (${y})))`;
  return count(`SELECT ${except(a, b)} + ${except(b, a)} AS n`);
};

const LEFTOVER_TABLES = "SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'next\\_%' ESCAPE '\\' OR name LIKE 'old\\_%' ESCAPE '\\'";

/** Every way the catalog's derived tables can disagree with its products (0 when consistent), by table. */
async function inconsistencies() {
  const positions = Object.fromEntries(
    await Promise.all(
      Object.entries(POSITIONED_ORDERS).map(async ([sort, order]) => [
        sort,
        await differing(
          `SELECT position, product_rowid FROM catalog_positions WHERE sort_by = '${sort}'`,
          `SELECT row_number() OVER (ORDER BY ${order}), products.rowid FROM products JOIN manufacturers ON manufacturers.id = products.manufacturer_id`,
        ),
      ]),
    ),
  );
  return {
    categories: await differing(
      "SELECT category, product_id FROM product_categories",
      "SELECT DISTINCT j.value, p.id FROM products p, json_each(p.categories) j",
    ),
    manufacturerCounts: await differing(
      "SELECT manufacturer_id, product_count FROM catalog_manufacturer_counts WHERE product_count > 0",
      "SELECT manufacturer_id, count(*) FROM products GROUP BY manufacturer_id",
    ),
    categoryCounts: await differing(
      "SELECT category, product_count FROM catalog_category_counts WHERE product_count > 0",
      "SELECT category, count(*) FROM product_categories GROUP BY category",
    ),
    fullTextDocuments: (await count("SELECT count(*) AS n FROM products_fts")) - (await count("SELECT count(*) AS n FROM products")),
    positions,
    positionsBuiltForThisVersion:
      (await count("SELECT count(*) AS n FROM catalog_positions_built b JOIN catalog_version v ON v.version = b.catalog_version")) -
      Object.keys(POSITIONED_ORDERS).length,
    leftoverTables: await count(LEFTOVER_TABLES),
  };
}

const CONSISTENT = {
  categories: 0,
  manufacturerCounts: 0,
  categoryCounts: 0,
  fullTextDocuments: 0,
  positions: { PartNumber: 0, Description: 0, Manufacturer: 0 },
  positionsBuiltForThisVersion: 0,
  leftoverTables: 0,
};

/** The schema as the migrations define it: names unquoted, without comments, an index under either of its two names. */
const schemaShape = async (db: D1Database = env.CATALOG) =>
  (
    await db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE '_cf_%' ORDER BY type, name").all<{
      type: string;
      name: string;
      tbl_name: string;
      sql: string | null;
    }>()
  ).results
    .map((o) =>
      `${o.type} ${o.name} ${o.tbl_name} ${o.sql ?? ""}`
        .replace(/--[^\n]*/g, "")
        .replace(/["']?(\w+)["']?/g, "$1")
        .replace(/\s+/g, " ")
        .replaceAll("__next", ""),
    )
    .sort();

/** The main database's copy of the scan codes, and what the catalog holds: every product's part number and device identifier. */
async function scanCodes() {
  const rows = async (db: D1Database, sql: string) => (await db.prepare(sql).raw<string[]>()).map((row) => row.join(" ")).sort();
  return {
    copy: await rows(env.DB, "SELECT agency, code, product_id FROM product_codes"),
    catalog: await rows(
      env.CATALOG,
      "SELECT '', normalized_part_number, id FROM products UNION ALL SELECT agency, device_id, product_id FROM device_identifiers",
    ),
    leftovers: (await env.DB.prepare(LEFTOVER_TABLES).first<{ n: number }>())!.n,
  };
}

/**
 * `db` whose every fifth batch commits and then fails (the reply lost, the isolate gone) and every seventh fails before
 * it runs; each failure is recorded under the phase `phaseOf` reads when it happens.
 */
function flakyBatches(db: D1Database, phaseOf: () => Promise<string>) {
  let batches = 0;
  const failedAfterCommit = new Set<string>();
  const failedBefore = new Set<string>();
  const crashing = afterBatchCommits(db, async () => {
    batches++;
    if (batches % 5 === 0) {
      failedAfterCommit.add(await phaseOf());
      throw new Error("D1_ERROR: Network connection lost.");
    }
  });
  const failing = new Proxy(crashing, {
    get(target, prop, receiver) {
      if (prop === "batch" && batches % 7 === 3) {
        return async () => {
          batches++;
          failedBefore.add(await phaseOf());
          throw new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued.");
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: failing, failedAfterCommit, failedBefore };
}

const ids = async (sql: string, ...binds: unknown[]) =>
  (
    await env.CATALOG.prepare(sql)
      .bind(...binds)
      .all<{ id: string }>()
  ).results.map((r) => r.id);

/** Small chunks, so that every phase has many; the index phase merges whenever it has 3 segments (a 4M catalog's 1,000). */
const SMALL_CHUNKS = { copyRows: 50, indexRows: 40, positionRows: 100, mergePages: 5, maxSegments: 3, segmentCheckChunks: 4 };

describe("catalog import: the bulk path", () => {
  it("a file that changes a large share builds the next version beside the live one and switches to it", async () => {
    const small = await runImport({ format: "ndjson" }, { "small.ndjson": ndjson([1, 2, 3].map((n) => product(n))) });
    expect(small.state).toBe("succeeded");
    expect((await jobRow(small.id)).apply_path).toBe("rows");
    const schemaBefore = await schemaShape();
    const mainSchemaBefore = await schemaShape(env.DB);
    const versionBefore = await catalogVersion();
    const lastRowid = await count("SELECT max(rowid) AS n FROM products");
    const rowidOf = (id: string) => count("SELECT rowid AS n FROM products WHERE id = ?", id);
    const rowidOf1 = await rowidOf("BLK-1");
    const live = await count("SELECT count(*) AS n FROM products");

    const created = Array.from({ length: 300 }, (_, i) => product(100 + i));
    const [gtinA, gtinB] = [gtin14Of("0088888300001"), gtin14Of("0088888300002")];
    const file = ndjson([
      product(1, { title: "Renamed bulk valve", deviceIdentifiers: [{ deviceId: gtinA }] }),
      product(2),
      ...created.slice(0, 150),
      product(400, { deviceIdentifiers: [{ deviceId: gtinB }], manufacturer: "Brandnew Instruments" }),
      ...created.slice(150),
    ]);
    expect(301 + 1).toBeGreaterThanOrEqual(BULK_SHARE * (live + 301));
    const job = await runImport({ format: "ndjson" }, { "bulk.ndjson": file });
    expect(job.state).toBe("succeeded");
    expect(job.counts).toMatchObject({ read: 303, created: 301, updated: 1, unchanged: 1, rejected: 0 });
    expect(job.progress).toMatchObject({ phase: "done", fraction: 1, rowsApplied: 302 });
    expect(await jobRow(job.id)).toEqual({ apply_path: "bulk", build_phase: "done" });

    // The switch: a new catalog version, the old version's tables gone, the schema as the migrations made it.
    expect(await catalogVersion()).not.toBe(versionBefore);
    expect(await inconsistencies()).toEqual(CONSISTENT);
    expect(await schemaShape()).toEqual(schemaBefore);
    expect(await fullTextSegments(env.CATALOG)).toBe(1);

    // Rank (rowid): the products there keep theirs; the new ones follow in the file's order.
    expect(await count("SELECT count(*) AS n FROM products")).toBe(live + 301);
    expect(await rowidOf("BLK-1")).toBe(rowidOf1);
    expect(await ids("SELECT id FROM products WHERE rowid > ? ORDER BY rowid", lastRowid)).toEqual([
      ...created.slice(0, 150).map((p) => p.id),
      "BLK-400",
      ...created.slice(150).map((p) => p.id),
    ]);
    expect(await productRow("BLK-1")).toMatchObject({ title: "Renamed bulk valve", status: "active" });
    expect(await productRow("BLK-400")).toMatchObject({ manufacturer: "Brandnew Instruments" });
    expect(
      (
        await env.CATALOG.prepare("SELECT device_id, product_id FROM device_identifiers WHERE device_id IN (?, ?) ORDER BY device_id")
          .bind(gtinA, gtinB)
          .all()
      ).results,
    ).toEqual([
      { device_id: gtinA, product_id: "BLK-1" },
      { device_id: gtinB, product_id: "BLK-400" },
    ]);
    // The main database's copy of the codes follows (scan to order): built anew and switched to, its index renamed.
    expect(await env.DB.prepare("SELECT product_id FROM product_codes WHERE code = ?").bind(gtinB).first()).toEqual({
      product_id: "BLK-400",
    });
    const codes = await scanCodes();
    expect(codes.copy).toEqual(codes.catalog);
    expect(codes.leftovers).toBe(0);
    expect(await schemaShape(env.DB)).toEqual(mainSchemaBefore);

    // Search reads the new version: words, part numbers, facets.
    expect((await search({ filters: { query: "renamed bulk valve" } })).items.map((i) => i.id)).toContain("BLK-1");
    expect((await search({ filters: { query: "BLK25000Z" } })).items[0]?.id).toBe("BLK-250");
    const byManufacturer = await search({
      filters: { query: "valve", facets: [{ field: "manufacturer", values: ["Brandnew Instruments"] }] },
    });
    expect(byManufacturer.items.map((i) => i.id)).toEqual(["BLK-400"]);

    // The live tables' triggers are back: a later write keeps the catalog as consistent as before.
    await env.CATALOG.prepare("UPDATE products SET title = 'Trigger kept valve', categories = '[\"Gaskets\"]' WHERE id = 'BLK-300'").run();
    expect((await search({ filters: { query: "trigger kept valve" } })).items.map((i) => i.id)).toEqual(["BLK-300"]);
    expect({ ...(await inconsistencies()), positions: CONSISTENT.positions, positionsBuiltForThisVersion: 0 }).toEqual(CONSISTENT);
  });

  it("the scan codes are read from the catalog in key order, each chunk a walk of an index from its key", async () => {
    for (const [sql, index] of [
      [SCAN_CODE_READS.parts, "products_normalized_part_number"],
      [SCAN_CODE_READS.devices, "PRIMARY KEY"],
    ] as const) {
      const steps = (await env.CATALOG.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind("", 0, 10).all<{ detail: string }>()).results;
      expect(steps.map((step) => step.detail)).toEqual([expect.stringMatching(new RegExp(`^SEARCH \\w+ USING .*${index}(__next)? \\(`))]);
    }
  });

  it("the scan codes' switch starts a step of its own: one that fails after the switch committed runs again and ends the copy", async () => {
    const sizes = { codes: 10, removeRows: 20, stepBudgetMs: 0 };
    let cursor: ScanCodesCursor | null = SCAN_CODES_START;
    while (cursor && cursor.phase !== "devices") cursor = await scanCodesStep(env, cursor, sizes);
    // From the device identifiers on, steps as long as the Workflow's; the batch that switches commits, then fails.
    let failedAfterSwitch = false;
    const failing = afterBatchCommits(env.DB, async () => {
      const switched = await env.DB.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'old_product_codes'").first<{
        n: number;
      }>();
      if (!failedAfterSwitch && switched!.n > 0) {
        failedAfterSwitch = true;
        throw new Error("D1_ERROR: Network connection lost.");
      }
    });
    const starts: string[] = [];
    for (let attempt = 0; attempt < 20 && cursor; attempt++) {
      const from: ScanCodesCursor = cursor;
      starts.push(from.phase);
      try {
        cursor = await scanCodesStep({ CATALOG: env.CATALOG, DB: failing }, from, { ...sizes, stepBudgetMs: 60_000 });
      } catch (err) {
        expect(String(err)).toMatch(/D1_ERROR/); // the Workflow runs the step again from where it started
      }
    }
    expect(cursor).toBeNull();
    expect(failedAfterSwitch).toBe(true);
    expect(starts).toEqual(["devices", "switch", "switch"]);
    const codes = await scanCodes();
    expect(codes.copy).toEqual(codes.catalog);
    expect(codes.leftovers).toBe(0);
  });

  it("replace: the products the file lacks are withdrawn at the switch and never quoted from then on", async () => {
    const lacking = (await ids("SELECT id FROM products WHERE status != 'withdrawn' ORDER BY rowid LIMIT 1"))[0]!;
    const kept = await ids("SELECT id FROM products WHERE status != 'withdrawn' AND id != ? ORDER BY rowid", lacking);
    // Every kept product gets a new title (a large share changes): the bulk path, withdrawing one.
    const file = ndjson(kept.map((id, i) => product(1000 + i, { id, partNumber: `RPL${i}`, title: `Replaced title ${i}` })));
    const options = async () => {
      const res = await detailRaw({ productId: lacking });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { product: { status: string }; options: unknown[] } }).data;
    };
    expect((await options()).options.length).toBeGreaterThan(0);
    const job = await runImport({ format: "ndjson", mode: "replace", maxWithdrawPercent: 10 }, { "all.ndjson": file });
    expect(job.state).toBe("succeeded");
    expect(job.counts).toMatchObject({ withdrawn: 1, updated: kept.length });
    expect((await jobRow(job.id)).apply_path).toBe("bulk");
    expect(await productRow(lacking)).toMatchObject({ status: "withdrawn", content_hash: null });
    expect(await options()).toMatchObject({ product: { status: "withdrawn" }, options: [] });
    expect(await inconsistencies()).toEqual(CONSISTENT);
  });

  it("a second catalog import cannot start while one is under way (a switch would lose its writes)", async () => {
    const first = await createImport({ format: "ndjson" }, { "a.ndjson": ndjson([product(2000)]) });
    const second = await createImport({ format: "ndjson" }, { "b.ndjson": ndjson([product(2001)]) });
    const operator = await operatorTokenFor();
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, first.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
    });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', started_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), first.id)
      .run();
    const refused = await call(operator, `${IMPORTS}/${second.id}/start`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain("Another catalog import is under way");
    expect((await getJob(second.id)).state).toBe("awaiting_upload");
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(first.id).run();
  });

  it("a build whose batches fail, before or after they commit, resumes and ends as consistent as a clean one", async () => {
    const file = ndjson(
      Array.from({ length: 700 }, (_, i) =>
        product(3000 + i, {
          title: `Crash tested valve ${i}`,
          ...(i % 7 === 0 ? { deviceIdentifiers: [{ deviceId: gtin14Of(`0088877${String(i).padStart(6, "0")}`) }] } : {}),
        }),
      ),
    );
    const job = await createImport({ format: "ndjson" }, { "crash.ndjson": file });
    // The Workflow validates and chooses the path; its build and its staging clean-up are left to this test.
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepResult({ name: "build 0" }, true);
      await m.mockStepResult({ name: "after the switch 0" }, null);
      await m.mockStepResult({ name: "clean up 0" }, true);
    });
    const operator = await operatorTokenFor();
    expect((await call(operator, `${IMPORTS}/${job.id}/start`, { method: "POST" })).status).toBe(202);
    await instance.waitForStatus("complete");
    expect(await jobRow(job.id)).toEqual({ apply_path: "bulk", build_phase: "prepare" });
    const versionBefore = await catalogVersion();

    // Batches fail after and before they commit; small chunks, so that every phase has many.
    const { db: failing, failedAfterCommit, failedBefore } = flakyBatches(env.CATALOG, async () => (await jobRow(job.id)).build_phase);
    // Which statements the build prepares, in order: the index phase's own merges come before the first sort position.
    const prepared: string[] = [];
    const recording = new Proxy(failing, {
      get(target, prop, receiver) {
        if (prop === "prepare") {
          return (sql: string) => {
            prepared.push(sql);
            return target.prepare(sql);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    let done = false;
    for (let attempt = 0; attempt < 5000 && !done; attempt++) {
      try {
        done = await buildStep(recording, job.id, SMALL_CHUNKS);
      } catch (err) {
        expect(String(err)).toMatch(/D1_ERROR/);
      }
    }
    expect(done).toBe(true);
    // After a commit: the phase it moved to (the switch's commit moves to cleanup).
    const firstPosition = prepared.findIndex((sql) => sql.includes("INTO next_catalog_positions "));
    const firstFullText = prepared.findIndex((sql) => sql.startsWith("INSERT INTO next_products_fts (rowid"));
    const mergesWhileIndexing = prepared.slice(firstFullText, firstPosition).filter((sql) => sql.includes("'merge'")).length;
    expect(firstFullText).toBeGreaterThan(0);
    expect(mergesWhileIndexing).toBeGreaterThan(0);
    const everyPhase = ["copy", "create", "indexes", "index", "positions", "merge", "cleanup"];
    expect([...failedAfterCommit]).toEqual(expect.arrayContaining(everyPhase));
    expect([...failedBefore]).toEqual(expect.arrayContaining(everyPhase));
    expect(await catalogVersion()).not.toBe(versionBefore);
    expect(await inconsistencies()).toEqual(CONSISTENT);
    expect(await count("SELECT count(*) AS n FROM products WHERE id LIKE 'BLK-3%' AND title LIKE 'Crash tested valve %'")).toBe(700);
    expect((await search({ filters: { query: "crash tested valve 699" } })).items[0]?.id).toBe("BLK-3699");

    // Then the main database's copy of the scan codes, with batches failing the same ways, over a copy that an earlier
    // job left half built: one chunk per step, so that every phase has many.
    expect((await scanCodes()).copy).not.toEqual((await scanCodes()).catalog);
    const mainSchema = await schemaShape(env.DB);
    await env.DB.batch([
      env.DB.prepare("CREATE TABLE next_product_codes AS SELECT * FROM product_codes WHERE false"),
      env.DB.prepare(
        "INSERT INTO next_product_codes WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 130) SELECT 'GS1', 'LEFT' || i, 'BLK-1' FROM n",
      ),
    ]);
    let cursor: ScanCodesCursor | null = SCAN_CODES_START;
    const flaky = flakyBatches(env.DB, async () => cursor?.phase ?? "done");
    for (let attempt = 0; attempt < 5000 && cursor; attempt++) {
      try {
        cursor = await scanCodesStep({ CATALOG: env.CATALOG, DB: flaky.db }, cursor, { codes: 10, removeRows: 20, stepBudgetMs: 0 });
      } catch (err) {
        expect(String(err)).toMatch(/D1_ERROR/);
      }
    }
    expect(cursor).toBeNull();
    const scanPhases = ["prepare", "parts", "devices", "cleanup"];
    expect([...flaky.failedAfterCommit]).toEqual(expect.arrayContaining(scanPhases));
    expect([...flaky.failedBefore]).toEqual(expect.arrayContaining(scanPhases));
    const codes = await scanCodes();
    expect(codes.copy).toEqual(codes.catalog);
    expect(codes.leftovers).toBe(0);
    expect(await schemaShape(env.DB)).toEqual(mainSchema);
  });
});
