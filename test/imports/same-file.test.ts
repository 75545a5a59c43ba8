import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readJob } from "../../src/operator/imports/jobs";
import { fingerprintStart, fingerprintStep, takeSameFileResult } from "../../src/operator/imports/same-file";
import { gtin14Of } from "../../src/shared/catalog/gtin";
import { call, operatorTokenFor } from "../helpers/api";
import {
  catalogCount,
  catalogVersion,
  createImport,
  getJob,
  IMPORTS,
  type ImportOptions,
  importErrors,
  type Job,
  ndjson,
  productRow,
  runImport,
} from "../helpers/imports";

const product = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `SAME-${n}`,
  partNumber: `SAME${n}00A`,
  title: `Same file part ${n}`,
  description: `Part ${n} of the same-file tests`,
  manufacturer: "Samefile Medical",
  categories: ["Infusion Pumps"],
  ...extra,
});
const fileOf = (...numbers: number[]) => ndjson(numbers.map((n) => product(n)));
/** The same products, one row the schema refuses, and a second line of the first product. */
const withRejections = (...numbers: number[]) =>
  ndjson([...numbers.map((n) => product(n)), { ...product(numbers[0]!), partNumber: 17 }, product(numbers[0]!, { title: "again" })]);
const skip: ImportOptions = { format: "ndjson", onError: "skipFailedRows" };

/** What a job's result is, as the API shows it: its state, counts and rejected rows. */
const resultOf = async (job: Job) => ({
  state: job.state,
  failure: job.failure,
  counts: job.counts,
  errors: (await importErrors(job.id)).map(({ line, file, productKey, field, code, message }) => ({
    line,
    file,
    productKey,
    field,
    code,
    message,
  })),
});

/** The products' hashes and the catalog version: what "nothing written" compares. */
const catalogState = async () => ({
  version: await catalogVersion(),
  rows: (await env.CATALOG.prepare("SELECT id, content_hash, source_hash, status FROM products WHERE id LIKE 'SAME-%' ORDER BY id").all())
    .results,
});

describe("catalog import: the same files again", () => {
  it("a file byte for byte an earlier job's takes its result: no row read, nothing written; reading it gives the same", async () => {
    const file = fileOf(1, 2, 3);
    const first = await runImport(skip, { "a.ndjson": file });
    expect(first.counts).toMatchObject({ read: 3, created: 3, rejected: 0 });
    expect(first.sameFilesAs).toBeNull();
    const before = await catalogState();

    const again = await runImport(skip, { "renamed.ndjson": file });
    expect(again.sameFilesAs).toBe(first.id);
    expect(again.counts).toEqual({ read: 3, created: 0, updated: 0, unchanged: 3, withdrawn: 0, rejected: 0 });
    expect(again.progress).toMatchObject({ phase: "done", fraction: 1, bytesDone: file.length, bytesTotal: file.length });
    expect(await catalogState()).toEqual(before);
    expect(await catalogCount("SELECT count(*) AS n FROM catalog_import_rows WHERE job_id = ?", again.id)).toBe(0);

    // The row path, on the same rows in other bytes (a blank line more), reaches the same result.
    const rowPath = await runImport(skip, { "renamed.ndjson": `${file}\n` });
    expect(rowPath.sameFilesAs).toBeNull();
    expect(await resultOf(rowPath)).toEqual(await resultOf(again));
    expect(await catalogState()).toEqual(before);

    // A job whose result was taken can be taken in turn, as can one that read its rows and found them unchanged.
    const third = await runImport(skip, { "c.ndjson": file });
    expect(third.sameFilesAs).toBe(again.id);
    const fourth = await runImport(skip, { "c.ndjson": `${file}\n` });
    expect(fourth.sameFilesAs).toBe(rowPath.id);
  });

  it("reads the rows when a byte differs, or when the catalog changed since (another import, a direct write)", async () => {
    const file = fileOf(10, 11);
    await runImport(skip, { "a.ndjson": file });
    const changed = await runImport(skip, { "a.ndjson": file.replace("Same file part 11", "Same file part 11b") });
    expect(changed.sameFilesAs).toBeNull();
    expect(changed.counts).toMatchObject({ updated: 1, unchanged: 1 });
    // The first file again: the catalog changed since the first job.
    const back = await runImport(skip, { "a.ndjson": file });
    expect(back.sameFilesAs).toBeNull();
    expect(back.counts).toMatchObject({ updated: 1, unchanged: 1 });
    expect((await productRow("SAME-11"))!.title).toBe("Same file part 11");

    // A write to the catalog made otherwise (here a product written directly) changes its version.
    await env.CATALOG.prepare("UPDATE products SET title = 'Edited' WHERE id = 'SAME-10'").run();
    const afterEdit = await runImport(skip, { "a.ndjson": file });
    expect(afterEdit.sameFilesAs).toBeNull();
    expect(afterEdit.counts).toMatchObject({ unchanged: 2 }); // its source hash still matches: the row path's own rule
  });

  it("reads the rows again after a job that rejected rows: a deploy may change what is rejected, the job may have freed what was taken", async () => {
    // Rejected rows are validated on every read (a deploy may change what is rejected).
    const rejecting = withRejections(20, 21);
    const first = await runImport(skip, { "r.ndjson": rejecting });
    expect(first.counts).toMatchObject({ created: 2, rejected: 2 });
    const again = await runImport(skip, { "r.ndjson": rejecting });
    expect(again.sameFilesAs).toBeNull();
    expect(await resultOf(again)).toMatchObject({ counts: { unchanged: 2, rejected: 2 } });

    // A device identifier moving to another product: the first read refuses it (X still holds it) while it frees it
    // from X; the second read gives it to Y.
    const unit = gtin14Of("0077788800001");
    await runImport(skip, { "x.ndjson": ndjson([product(22, { deviceIdentifiers: [{ deviceId: unit }] })]) });
    const move = ndjson([product(22), product(23, { deviceIdentifiers: [{ deviceId: unit }] })]);
    const moving = await runImport(skip, { "m.ndjson": move });
    expect((await importErrors(moving.id)).map((e) => e.code)).toEqual(["device_identifier_taken"]);
    const moved = await runImport(skip, { "m.ndjson": move });
    expect(moved.sameFilesAs).toBeNull();
    expect(moved.counts).toMatchObject({ created: 1, unchanged: 1, rejected: 0 });
  });

  it("reads the rows again after a job with a row without id: the job itself changed what it is matched with", async () => {
    // A row without id is matched through the catalog, which the job itself changes: here a second product with the
    // same part number makes the match ambiguous on the second read, which creates a product of its own.
    const { id: _id, ...idless } = product(24);
    await runImport(skip, { "z.ndjson": ndjson([product(24)]) });
    const matched = ndjson([{ ...idless, title: "matched" }, product(25, { partNumber: idless.partNumber })]);
    const firstMatch = await runImport(skip, { "i.ndjson": matched });
    expect(firstMatch.counts).toMatchObject({ created: 1, updated: 1 });
    const secondMatch = await runImport(skip, { "i.ndjson": matched });
    expect(secondMatch.sameFilesAs).toBeNull();
    expect(secondMatch.counts).toMatchObject({ created: 1, unchanged: 1 });
  });

  it("reads the rows again after a job with a row unchanged in content but sent in other words (its source hash is not stored)", async () => {
    await runImport(skip, { "w.ndjson": fileOf(26) });
    const spaced = ndjson([product(26, { title: "Same  file   part 26" })]);
    const sameContent = await runImport(skip, { "w.ndjson": spaced });
    expect(sameContent.counts).toMatchObject({ unchanged: 1 });
    const spacedAgain = await runImport(skip, { "w.ndjson": spaced });
    expect(spacedAgain.sameFilesAs).toBeNull();
    expect(spacedAgain.counts).toMatchObject({ unchanged: 1 });
  });

  it("mode and dry run: a replace takes a replace's result only; a dry run's result is never taken; the job's own dry run and policy decide", async () => {
    const file = fileOf(30, 31);
    const dry = await runImport({ ...skip, dryRun: true }, { "a.ndjson": file });
    expect(dry.counts).toMatchObject({ created: 2 });
    const upsert = await runImport(skip, { "a.ndjson": file });
    expect(upsert.sameFilesAs).toBeNull(); // the dry run wrote nothing
    expect(upsert.counts).toMatchObject({ created: 2 });

    // A replace after an upsert may have products to withdraw: it reads the rows.
    const replace = await runImport({ ...skip, mode: "replace", maxWithdrawPercent: 100 }, { "a.ndjson": file });
    expect(replace.sameFilesAs).toBeNull();
    expect(replace.counts.withdrawn).toBeGreaterThan(0);
    const replaceAgain = await runImport({ ...skip, mode: "replace" }, { "a.ndjson": file });
    expect(replaceAgain.sameFilesAs).toBe(replace.id);
    expect(replaceAgain.counts).toMatchObject({ unchanged: 2, withdrawn: 0, rejected: 0 });
    const upsertAfterReplace = await runImport(skip, { "a.ndjson": file });
    expect(upsertAfterReplace.sameFilesAs).toBe(replaceAgain.id);

    // A dry run takes the result and writes nothing, as ever; the next job compares with the last job that wrote.
    const dryAgain = await runImport({ ...skip, dryRun: true }, { "a.ndjson": file });
    expect(dryAgain.sameFilesAs).toBe(upsertAfterReplace.id);
    expect(dryAgain.counts).toMatchObject({ unchanged: 2 });
    expect((await readJob(env.CATALOG, dryAgain.id))!.catalog_version_after).toBeNull();
    const strict = await runImport({ format: "ndjson" }, { "a.ndjson": file });
    expect([strict.sameFilesAs, strict.state]).toEqual([upsertAfterReplace.id, "succeeded"]);
  });

  it("gzip files are compared as uploaded, before they are decompressed; csv and ndjson of the same bytes never match", async () => {
    const file = fileOf(40, 41);
    const gzipped = new Uint8Array(await new Response(new Blob([file]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const first = await runImport(skip, { "g.ndjson.gz": gzipped });
    expect(first.counts).toMatchObject({ created: 2 });
    const again = await runImport(skip, { "g.ndjson.gz": gzipped });
    expect(again.sameFilesAs).toBe(first.id);
    expect(again.counts).toMatchObject({ read: 2, unchanged: 2 });
    expect(again.progress).toMatchObject({ bytesTotal: file.length, bytesDone: file.length });
    expect(await env.IMPORTS.head(`imports/${again.id}/g.ndjson.gz.decompressed`)).toBeNull();

    const csv = await runImport({ format: "csv", onError: "skipFailedRows" }, { "g.ndjson.gz": gzipped });
    expect(csv.sameFilesAs).toBeNull();
  });

  it("a step that fails is retried, and taking the result twice takes it once (mockStepError; the step run again)", async () => {
    const file = fileOf(50, 51);
    const first = await runImport(skip, { "a.ndjson": file });
    const job = await createImport(skip, { "a.ndjson": file });
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "fingerprint 0" }, new Error("R2 went away"), 1);
      await m.mockStepError({ name: "the same files as before" }, new Error("D1 went away"), 2);
    });
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/start`, { method: "POST" });
    await instance.waitForStatus("complete");
    const ended = await getJob(job.id);
    expect([ended.sameFilesAs, ended.state]).toEqual([first.id, "succeeded"]);
    expect(ended.counts).toMatchObject({ read: 2, unchanged: 2 });

    // The step's statement after it committed (its answer lost): the same job row.
    const again = await createImport(skip, { "a.ndjson": file });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', files_fingerprint = ? WHERE id = ?")
      .bind((await readJob(env.CATALOG, first.id))!.files_fingerprint, again.id)
      .run();
    expect(await takeSameFileResult(env.CATALOG, again.id)).toBe(ended.id);
    const once = await readJob(env.CATALOG, again.id);
    expect(await takeSameFileResult(env.CATALOG, again.id)).toBe(ended.id);
    expect({ ...(await readJob(env.CATALOG, again.id)), progressed_at: null }).toEqual({ ...once, progressed_at: null });
    expect(once).toMatchObject({ same_as: ended.id, rows_read: 2, unchanged: 2, rejected: 0, state: "validating" });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(again.id).run();
  });
});

describe("catalog import: the files' fingerprint", () => {
  const put = async (key: string, bytes: Uint8Array) => {
    await env.IMPORTS.put(key, bytes);
    return { name: key.split("/").at(-1)!, objectKey: key, size: bytes.length };
  };
  const bytesOf = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
  /** The whole fingerprint, a step at a time, for a job that has begun validating (its own files aside); the steps it took. */
  const fingerprintOf = async (files: Awaited<ReturnType<typeof put>>[], options: { budgetMs?: number; segmentBytes?: number }) => {
    const job = await createImport(skip, { "f.ndjson": fileOf(70) });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating' WHERE id = ?").bind(job.id).run();
    let cursor = fingerprintStart("ndjson");
    for (let steps = 1; ; steps++) {
      const result = await fingerprintStep(env, job.id, "ndjson", files, cursor, options);
      if ("fingerprint" in result) {
        await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(job.id).run();
        return { fingerprint: result.fingerprint, steps };
      }
      cursor = result.cursor;
    }
  };

  it("is the same however many steps it takes, and differs when one byte or the files' split differs", async () => {
    const bytes = bytesOf(300_000, 1);
    const file = await put("fingerprint/one", bytes);
    const stepwise = await fingerprintOf([file], { budgetMs: -1, segmentBytes: 65_536 });
    expect(stepwise.steps).toBe(5);
    expect(await fingerprintOf([file], { segmentBytes: 65_536 })).toEqual({ fingerprint: stepwise.fingerprint, steps: 1 });

    const flipped = bytes.slice();
    flipped[123_456] = flipped[123_456]! ^ 1;
    expect((await fingerprintOf([await put("fingerprint/flipped", flipped)], { segmentBytes: 65_536 })).fingerprint).not.toBe(
      stepwise.fingerprint,
    );
    const split = [await put("fingerprint/a", bytes.subarray(0, 1000)), await put("fingerprint/b", bytes.subarray(1000))];
    expect((await fingerprintOf(split, { segmentBytes: 65_536 })).fingerprint).not.toBe(stepwise.fingerprint);
    expect((await fingerprintOf([{ ...file, objectKey: "fingerprint/missing" }], {})).fingerprint).toBeNull();
  });

  it("a cancelled job takes no result", async () => {
    const file = fileOf(60, 61);
    const first = await runImport(skip, { "a.ndjson": file });
    const job = await createImport(skip, { "a.ndjson": file });
    const fingerprint = (await readJob(env.CATALOG, first.id))!.files_fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', cancel_requested = 1, files_fingerprint = ? WHERE id = ?")
      .bind(fingerprint, job.id)
      .run();
    expect(await takeSameFileResult(env.CATALOG, job.id)).toBeNull();
    expect(await readJob(env.CATALOG, job.id)).toMatchObject({ same_as: null, unchanged: 0, rows_read: 0 });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(job.id).run();
  });
});
