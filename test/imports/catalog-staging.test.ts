import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readWindowContext, stageCatalogWindow } from "../../src/operator/imports/catalog-staging";
import { readNdjsonWindow } from "../../src/operator/imports/formats/ndjson";
import { readJob } from "../../src/operator/imports/jobs";
import { recordOf, sourceHash } from "../../src/operator/imports/records";
import { gtin14Of } from "../../src/shared/catalog/gtin";
import { ndjson } from "../helpers/imports";

/** The catalog window's reads and writes (src/operator/imports/catalog-staging.ts) against the migrated, seeded catalog database. */

const valid = (line: number, value: Record<string, unknown>) => ({
  line,
  record: recordOf(value),
  sourceHash: sourceHash(JSON.stringify(value)),
});

async function newJob(id: string, cancelRequested = 0) {
  await env.CATALOG.prepare(
    "INSERT INTO catalog_imports (id, kind, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, client_id, created_at, cancel_requested) " +
      "VALUES (?, 'catalog', 'ndjson', 'upsert', 0, 'skipFailedRows', 10, 10, 'validating', 'test', ?, ?)",
  )
    .bind(id, new Date().toISOString(), cancelRequested)
    .run();
  return (await readJob(env.CATALOG, id))!;
}

describe("readWindowContext", () => {
  it("reads the products holding the records' device identifiers and part numbers, the job's staged identifiers, the catalog's category spelling", async () => {
    const seeded = (await env.CATALOG.prepare(
      "SELECT p.id, p.part_number, p.normalized_part_number AS part, m.name AS manufacturer, p.content_hash, d.agency, d.device_id FROM products p " +
        "JOIN manufacturers m ON m.id = p.manufacturer_id JOIN device_identifiers d ON d.product_id = p.id ORDER BY p.rowid LIMIT 1",
    ).first<{
      id: string;
      part_number: string;
      part: string;
      manufacturer: string;
      content_hash: string | null;
      agency: string;
      device_id: string;
    }>())!;
    const category = (await env.CATALOG.prepare("SELECT category FROM catalog_category_counts LIMIT 1").first<{ category: string }>())!
      .category;
    const stagedGtin = gtin14Of("0077777300002");
    await env.CATALOG.prepare("INSERT INTO catalog_import_device_ids (job_id, agency, device_id, line) VALUES ('imp_context', 'GS1', ?, 3)")
      .bind(stagedGtin)
      .run();
    const base = { title: "t", manufacturer: "Anyone" };
    const context = await readWindowContext(env.CATALOG, "imp_context", [
      valid(1, {
        ...base,
        id: "C-1",
        partNumber: "C1",
        categories: [category.toUpperCase()],
        deviceIdentifiers: [{ deviceId: seeded.device_id }],
      }),
      valid(2, { ...base, partNumber: seeded.part_number, manufacturer: seeded.manufacturer }),
      valid(4, { ...base, id: "C-4", partNumber: "C4", deviceIdentifiers: [{ deviceId: stagedGtin }] }),
    ]);
    expect(context.matches.byDeviceId).toEqual(new Map([[`${seeded.agency} ${seeded.device_id}`, seeded.id]]));
    expect(context.matches.byPartNumber.get(seeded.part)).toContainEqual({
      id: seeded.id,
      part: seeded.part,
      manufacturer: seeded.manufacturer,
      source: null, // the seed stores no source hash
      content: seeded.content_hash,
    });
    expect(context.stagedDeviceLines).toEqual(new Map([[`GS1 ${stagedGtin}`, 3]]));
    expect(context.canonicalCategory).toEqual(new Map([[category.toLowerCase(), category]]));
  });

  it("reads nothing for a window without valid records", async () => {
    const context = await readWindowContext(env.CATALOG, "imp_context", []);
    expect([
      context.matches.byDeviceId.size,
      context.matches.byPartNumber.size,
      context.stagedDeviceLines.size,
      context.canonicalCategory.size,
    ]).toEqual([0, 0, 0, 0]);
  });
});

describe("stageCatalogWindow", () => {
  const file = (content: string) => ({ name: "w.ndjson", objectKey: "imports/none/w.ndjson", size: content.length });
  const cursor = { offset: 0, line: 0, rows: 0, bytesBefore: 0 };
  const windowOf = (content: string) => readNdjsonWindow(new TextEncoder().encode(content), true, cursor);
  const staged = async (jobId: string) =>
    (await env.CATALOG.prepare("SELECT line, product_id, action FROM catalog_import_rows WHERE job_id = ? ORDER BY line").bind(jobId).all())
      .results;
  const progress = (jobId: string) =>
    env.CATALOG.prepare("SELECT rows_read, rejected, bytes_done FROM catalog_imports WHERE id = ?").bind(jobId).first();

  it("stages the window's rows with its rejections and progress in one batch; a step run again stages the same", async () => {
    const content = ndjson([
      { id: "ST-1", partNumber: "ST1", title: "Staged one", manufacturer: "Stagewerk" },
      { id: "ST-1", partNumber: "ST1", title: "Again", manufacturer: "Stagewerk" },
      { id: "ST-3", partNumber: "ST3", title: "\u0007", manufacturer: "Stagewerk" },
    ]);
    const job = await newJob("imp_staging_twice");
    const step = await stageCatalogWindow(env, job, file(content), cursor, windowOf(content));
    expect(step).toEqual({ outcome: "next", cursor: { offset: content.length, line: 3, rows: 3, bytesBefore: 0 }, done: true });
    const first = await staged(job.id);
    expect(first).toEqual([{ line: 1, product_id: "ST-1", action: "create" }]);
    expect(await progress(job.id)).toEqual({ rows_read: 3, rejected: 2, bytes_done: content.length });

    expect(await stageCatalogWindow(env, job, file(content), cursor, windowOf(content))).toEqual(step);
    expect(await staged(job.id)).toEqual(first);
    expect(await progress(job.id)).toEqual({ rows_read: 3, rejected: 2, bytes_done: content.length });
  });

  it("a job whose cancel was asked stages nothing", async () => {
    const content = ndjson([{ id: "ST-9", partNumber: "ST9", title: "Never", manufacturer: "Stagewerk" }]);
    const job = await newJob("imp_staging_cancelled", 1);
    expect(await stageCatalogWindow(env, job, file(content), cursor, windowOf(content))).toEqual({ outcome: "cancelled" });
    expect(await staged(job.id)).toEqual([]);
  });
});
