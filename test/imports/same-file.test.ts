import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readJob } from "../../src/operator/imports/jobs";
import { fingerprintStart, fingerprintStep, takeSameFileResult } from "../../src/operator/imports/same-file";
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

/** A file with three products, a row the schema refuses and a second line of the first product (rejected). */
const product = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `SAME-${n}`,
  partNumber: `SAME${n}00A`,
  title: `Same file part ${n}`,
  description: `Part ${n} of the same-file tests`,
  manufacturer: "Samefile Medical",
  categories: ["Infusion Pumps"],
  ...extra,
});
const fileOf = (...numbers: number[]) =>
  ndjson([...numbers.map((n) => product(n)), { ...product(numbers[0]!), partNumber: 17 }, product(numbers[0]!, { title: "again" })]);
const skip: ImportOptions = { format: "ndjson", onError: "skipFailedRows" };

/** What a job's result is, as the API shows it: its counts and its rejected rows. */
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
  it("a file byte for byte the last applied one's takes its result: no row read, nothing written, the same rejections", async () => {
    const file = fileOf(1, 2, 3);
    const first = await runImport(skip, { "a.ndjson": file });
    expect(first.counts).toMatchObject({ read: 5, created: 3, rejected: 2 });
    expect(first.sameFilesAs).toBeNull();
    const before = await catalogState();

    const again = await runImport(skip, { "renamed.ndjson": file });
    expect(again.sameFilesAs).toBe(first.id);
    expect(again.counts).toEqual({ read: 5, created: 0, updated: 0, unchanged: 3, withdrawn: 0, rejected: 2 });
    expect(again.progress).toMatchObject({ phase: "done", fraction: 1, bytesDone: file.length, bytesTotal: file.length });
    expect(await catalogState()).toEqual(before);
    expect(await catalogCount("SELECT count(*) AS n FROM catalog_import_rows WHERE job_id = ?", again.id)).toBe(0);

    // The row path, on the same rows in other bytes (a blank line more), reaches the same result.
    const rowPath = await runImport(skip, { "renamed.ndjson": `${file}\n` });
    expect(rowPath.sameFilesAs).toBeNull();
    const { errors, ...rest } = await resultOf(again);
    expect(await resultOf(rowPath)).toEqual({ ...rest, errors });
    expect(errors.map((error) => [error.line, error.file, error.code])).toEqual([
      [4, "renamed.ndjson", "wrong_type"],
      [5, "renamed.ndjson", "duplicate_key"],
    ]);
    expect(await catalogState()).toEqual(before);

    // A job that took a result is itself the last applied one: the same file a third time takes its result.
    const third = await runImport(skip, { "c.ndjson": `${file}\n` });
    expect(third.sameFilesAs).toBe(rowPath.id);
  });

  it("reads the rows when a byte differs, or when the catalog changed since (another import)", async () => {
    const file = fileOf(10, 11);
    await runImport(skip, { "a.ndjson": file });
    const changed = await runImport(skip, { "a.ndjson": file.replace("Same file part 11", "Same file part 11b") });
    expect(changed.sameFilesAs).toBeNull();
    expect(changed.counts).toMatchObject({ updated: 1, unchanged: 1 });
    // The first file again: the last applied job had other bytes, and the catalog changed since the first job.
    const back = await runImport(skip, { "a.ndjson": file });
    expect(back.sameFilesAs).toBeNull();
    expect(back.counts).toMatchObject({ updated: 1, unchanged: 1 });
    expect((await productRow("SAME-11"))!.title).toBe("Same file part 11");

    // A change to the catalog made otherwise (here a product written directly) changes its version: the rows are read.
    await env.CATALOG.prepare("UPDATE products SET title = 'Edited' WHERE id = 'SAME-10'").run();
    const afterEdit = await runImport(skip, { "a.ndjson": file });
    expect(afterEdit.sameFilesAs).toBeNull();
    expect(afterEdit.counts).toMatchObject({ unchanged: 2 }); // its source hash still matches: the row path's own rule
  });

  it("mode, dry run and error policy: a replace takes a replace's result only; a dry run's result is never taken; the job's own policy decides", async () => {
    const file = fileOf(20, 21);
    const dry = await runImport({ ...skip, dryRun: true }, { "a.ndjson": file });
    expect(dry.counts).toMatchObject({ created: 2 });
    const upsert = await runImport(skip, { "a.ndjson": file });
    expect(upsert.sameFilesAs).toBeNull(); // the dry run wrote nothing
    expect(upsert.counts).toMatchObject({ created: 2 });

    // A replace after an upsert may have products to withdraw: it reads the rows (the guard then refuses).
    const replace = await runImport({ ...skip, mode: "replace", maxWithdrawPercent: 100 }, { "a.ndjson": file });
    expect(replace.sameFilesAs).toBeNull();
    expect(replace.counts.withdrawn).toBeGreaterThan(0);
    const replaceAgain = await runImport({ ...skip, mode: "replace" }, { "a.ndjson": file });
    expect(replaceAgain.sameFilesAs).toBe(replace.id);
    expect(replaceAgain.counts).toMatchObject({ unchanged: 2, withdrawn: 0, rejected: 2 });
    const upsertAfterReplace = await runImport(skip, { "a.ndjson": file });
    expect(upsertAfterReplace.sameFilesAs).toBe(replaceAgain.id);

    // A dry run takes the result and writes nothing, as ever; the next job compares with the last job that wrote.
    const dryAgain = await runImport({ ...skip, dryRun: true }, { "a.ndjson": file });
    expect(dryAgain.sameFilesAs).toBe(upsertAfterReplace.id);
    expect(dryAgain.counts).toMatchObject({ unchanged: 2, rejected: 2 });
    expect((await readJob(env.CATALOG, dryAgain.id))!.catalog_version_after).toBeNull();

    // rejectAll: the same rejected rows fail the job, as reading them would.
    const strict = await runImport({ format: "ndjson" }, { "a.ndjson": file });
    expect(strict.sameFilesAs).toBe(upsertAfterReplace.id);
    expect([strict.state, strict.failure?.code, strict.counts.rejected]).toEqual(["failed", "rows_rejected", 2]);
    expect((await importErrors(strict.id)).length).toBe(2);
    // More rejected rows than this job allows: validation stops at maxErrors, so the rows are read.
    const capped = await runImport({ ...skip, maxErrors: 1 }, { "a.ndjson": file });
    expect(capped.sameFilesAs).toBeNull();
    expect([capped.state, capped.failure?.code]).toEqual(["failed", "too_many_errors"]);
  });

  it("gzip files are compared as uploaded, before they are decompressed; csv and ndjson of the same bytes never match", async () => {
    const file = ndjson([product(30), product(31)]);
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

  it("a step that fails is retried: the result is taken once (mockStepError)", async () => {
    const file = fileOf(40, 41);
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
    expect(ended.counts).toMatchObject({ unchanged: 2, rejected: 2 });
    expect((await importErrors(job.id)).length).toBe(2);
  });
});

describe("catalog import: the files' fingerprint", () => {
  const put = async (key: string, bytes: Uint8Array) => {
    await env.IMPORTS.put(key, bytes);
    return { name: key.split("/").at(-1)!, objectKey: key, size: bytes.length };
  };
  const bytesOf = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
  /** The whole fingerprint, a step at a time; the steps it took. */
  const fingerprintOf = async (files: Awaited<ReturnType<typeof put>>[], options: { budgetMs?: number; segmentBytes?: number }) => {
    let cursor = fingerprintStart("ndjson");
    for (let steps = 1; ; steps++) {
      const result = await fingerprintStep(env, "no-such-job", "ndjson", files, cursor, options);
      if ("fingerprint" in result) return { fingerprint: result.fingerprint, steps };
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

  it("a cancelled job takes no result: nothing is copied", async () => {
    const file = fileOf(50, 51);
    const first = await runImport(skip, { "a.ndjson": file });
    const job = await createImport(skip, { "a.ndjson": file });
    const fingerprint = (await readJob(env.CATALOG, first.id))!.files_fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', cancel_requested = 1, files_fingerprint = ? WHERE id = ?")
      .bind(fingerprint, job.id)
      .run();
    expect(await takeSameFileResult(env.CATALOG, job.id)).toBeNull();
    expect(await catalogCount("SELECT count(*) AS n FROM catalog_import_errors WHERE job_id = ?", job.id)).toBe(0);
    expect((await readJob(env.CATALOG, job.id))!.same_as).toBeNull();
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(job.id).run();
  });
});
