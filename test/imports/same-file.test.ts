import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readJob } from "../../src/operator/imports/jobs";
import { filesFingerprint, takeSameFileResult } from "../../src/operator/imports/same-file";
import { largeReads, PART_SIZE, SegmentDigests, uploadWhole } from "../../src/operator/imports/uploads";
import { ValidationError } from "../../src/platform/errors";
import { hexOf } from "../../src/platform/sha256";
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
  importRecord,
  type Job,
  ndjson,
  productRow,
  runImport,
  startAndWait,
} from "../helpers/imports";

const product = (n: number, extra: Record<string, unknown> = {}) => importRecord("SAME", n, extra);
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
    const changed = await runImport(skip, { "a.ndjson": file.replace("Imported pump part 11", "Imported pump part 11b") });
    expect(changed.sameFilesAs).toBeNull();
    expect(changed.counts).toMatchObject({ updated: 1, unchanged: 1 });
    // The first file again: the catalog changed since the first job.
    const back = await runImport(skip, { "a.ndjson": file });
    expect(back.sameFilesAs).toBeNull();
    expect(back.counts).toMatchObject({ updated: 1, unchanged: 1 });
    expect((await productRow("SAME-11"))!.title).toBe("Imported pump part 11");

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
    // same part number makes the match ambiguous on the second read. The row found its product unchanged the first
    // time, so that product does not hold its source hash: only its content tells (the tie-break of keys.ts).
    const { id: _id, ...idless } = product(24);
    await runImport(skip, { "z.ndjson": ndjson([product(24)]) });
    const matched = ndjson([idless, product(25, { partNumber: idless.partNumber })]);
    const firstMatch = await runImport(skip, { "i.ndjson": matched });
    expect(firstMatch.counts).toMatchObject({ created: 1, unchanged: 1 });
    const secondMatch = await runImport(skip, { "i.ndjson": matched });
    expect(secondMatch.sameFilesAs).toBeNull();
    expect(secondMatch.counts).toMatchObject({ created: 0, unchanged: 2 });
    expect(await productRow(`MPN-IMPORTWERKMEDICAL-${idless.partNumber}`)).toBeNull();
  });

  it("reads the rows again after a job with a row unchanged in content but sent in other words (its source hash is not stored)", async () => {
    await runImport(skip, { "w.ndjson": fileOf(26) });
    const spaced = ndjson([product(26, { title: "Imported  pump   part 26" })]);
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
      await m.mockStepError({ name: "the same files as before" }, new Error("D1 went away"), 2);
    });
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/start`, { method: "POST" });
    await instance.waitForStatus("complete");
    const ended = await getJob(job.id);
    expect([ended.sameFilesAs, ended.state]).toEqual([first.id, "succeeded"]);
    expect(ended.counts).toMatchObject({ read: 2, unchanged: 2 });

    // The step's statement after it committed (its answer lost): the same job row.
    const again = await createImport(skip, { "a.ndjson": file });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating' WHERE id = ?").bind(again.id).run();
    const fingerprint = (await readJob(env.CATALOG, first.id))!.files_fingerprint;
    expect(await takeSameFileResult(env.CATALOG, again.id, fingerprint)).toBe(ended.id);
    const once = await readJob(env.CATALOG, again.id);
    expect(await takeSameFileResult(env.CATALOG, again.id, fingerprint)).toBe(ended.id);
    expect({ ...(await readJob(env.CATALOG, again.id)), progressed_at: null }).toEqual({ ...once, progressed_at: null });
    expect(once).toMatchObject({ same_as: ended.id, rows_read: 2, unchanged: 2, rejected: 0, state: "validating" });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(again.id).run();
  });
});

describe("catalog import: the files' digests and fingerprint", () => {
  const sha256 = async (bytes: Uint8Array | string) =>
    hexOf(await crypto.subtle.digest("SHA-256", typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes));
  const digestOf = async (jobId: string) =>
    (await env.CATALOG.prepare("SELECT digest FROM catalog_import_files WHERE job_id = ?").bind(jobId).first<{ digest: string | null }>())!
      .digest;

  it("a file's digest is computed as it is uploaded, the same whole or in parts, and differs when one byte does", async () => {
    const token = await operatorTokenFor();
    const line = `${JSON.stringify(product(80, { description: "p".repeat(1000) }))}\n`;
    const body = new TextEncoder().encode(line.repeat(Math.ceil((PART_SIZE * 1.5) / line.length)));
    // The oracle: SHA-256 over the SHA-256 of each 16 MiB segment (WebCrypto, not the code under test).
    const expected = await sha256([await sha256(body.subarray(0, PART_SIZE)), await sha256(body.subarray(PART_SIZE))].join(" "));

    const whole = await createImport(skip, { "big.ndjson": body });
    expect(await digestOf(whole.id)).toBe(expected);

    const parted = await createImport(skip, {});
    const base = `${IMPORTS}/${parted.id}/files/big.ndjson`;
    await call(token, `${base}/uploads`, { method: "POST" });
    const put = (n: number, bytes: Uint8Array) => call(token, `${base}/parts/${n}`, { method: "PUT", body: bytes });
    expect((await put(2, body.subarray(PART_SIZE))).status).toBe(200);
    expect((await put(1, new Uint8Array(PART_SIZE))).status).toBe(200); // a wrong part 1, sent again below
    expect((await put(1, body.subarray(0, PART_SIZE))).status).toBe(200);
    expect((await call(token, `${base}/complete`, { method: "POST" })).status).toBe(200);
    expect(await digestOf(parted.id)).toBe(expected);

    const flipped = body.slice();
    flipped[PART_SIZE + 5] = 0x20;
    const other = await createImport(skip, { "big.ndjson": flipped });
    expect(await digestOf(other.id)).not.toBe(expected);
    for (const job of [whole, parted, other]) {
      await call(token, `${IMPORTS}/${job.id}/cancel`, { method: "POST" });
    }
  });

  it("segments are cut at 16 MiB whatever the chunks the body arrives in", async () => {
    const bytes = new Uint8Array(2 * PART_SIZE + 5);
    for (let i = 0; i < bytes.length; i += 997) bytes[i] = i % 251;
    const expected = [
      await sha256(bytes.subarray(0, PART_SIZE)),
      await sha256(bytes.subarray(PART_SIZE, 2 * PART_SIZE)),
      await sha256(bytes.subarray(2 * PART_SIZE)),
    ];
    for (const sizes of [[1, 7, PART_SIZE - 1, PART_SIZE + 3], [PART_SIZE], [3, 0, PART_SIZE * 2]]) {
      const segments = new SegmentDigests();
      let at = 0;
      for (let i = 0; at < bytes.length; i++) {
        const size = sizes[i % sizes.length]!;
        segments.update(bytes.subarray(at, at + size));
        at += size;
      }
      expect(segments.finish(), sizes.join(",")).toEqual(expected);
    }
  });

  it("a request's body is read 1 MiB at a time (not in its 4 KiB chunks), the last read short; another stream as it comes", async () => {
    const readAll = async (body: ReadableStream<Uint8Array>) => {
      const reader = largeReads(body);
      const sizes: number[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) sizes.push(read.value.length);
      return sizes;
    };
    const MiB = 1024 * 1024;
    const request = new Request("https://medparts.test/upload", { method: "PUT", body: new Uint8Array(2.5 * MiB + 3) });
    expect(await readAll(request.body!)).toEqual([MiB, MiB, MiB / 2 + 3]);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const size of [10, 20]) controller.enqueue(new Uint8Array(size));
        controller.close();
      },
    });
    expect(await readAll(chunked)).toEqual([10, 20]);
  });

  it("a body that ends before Content-Length is a 400; a failure of R2 itself is not (the client retries it)", async () => {
    const job = await createImport(skip, {});
    const row = (await readJob(env.CATALOG, job.id))!;
    const request = (chunks: Uint8Array[], declared: number) =>
      new Request("https://medparts.test/upload", {
        method: "PUT",
        headers: { "Content-Length": String(declared) },
        body: new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
      });
    const short = uploadWhole(env.CATALOG, env.IMPORTS, row, "a.ndjson", request([new Uint8Array(50)], 100));
    await expect(short).rejects.toBeInstanceOf(ValidationError);
    const long = uploadWhole(env.CATALOG, env.IMPORTS, row, "a.ndjson", request([new Uint8Array(60), new Uint8Array(90)], 100));
    await expect(long).rejects.toBeInstanceOf(ValidationError);
    const failing = {
      put: async (_key: string, stream: ReadableStream) => {
        await stream.getReader().read();
        throw new Error("R2 went away");
      },
    } as unknown as R2Bucket;
    const r2Failure = uploadWhole(env.CATALOG, failing, row, "a.ndjson", request([new Uint8Array(60), new Uint8Array(40)], 100));
    await expect(r2Failure).rejects.toThrow("R2 went away");
    // A large body R2 stops reading after its first chunk: most of it is never pulled, and that is not the client's fault.
    let pulled = 0;
    const large = new Request("https://medparts.test/upload", {
      method: "PUT",
      headers: { "Content-Length": String(1000 * 1024) },
      body: new ReadableStream(
        {
          pull(controller) {
            controller.enqueue(new Uint8Array(1024));
            if (++pulled === 1000) controller.close();
          },
        },
        { highWaterMark: 0 },
      ),
    });
    await expect(uploadWhole(env.CATALOG, failing, row, "a.ndjson", large)).rejects.toThrow("R2 went away");
    expect(pulled).toBeLessThan(1000);
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/cancel`, { method: "POST" });
  });

  it("the same through a byte stream read 1 MiB at a time: a short body is a 400; R2 failing and cancelling mid-read is R2's", async () => {
    const job = await createImport(skip, {});
    const row = (await readJob(env.CATALOG, job.id))!;
    /** A request whose body is a byte stream (as a request's own is): `bytes` written, then closed or left open. */
    const byteRequest = (bytes: number, declared: number, close: boolean) => {
      const { readable, writable } = new IdentityTransformStream();
      const writer = writable.getWriter();
      // Once R2 cancels the body, the write fails with R2's reason: that is the test's point, not a failure of it.
      writer
        .write(new Uint8Array(bytes))
        .then(() => (close ? writer.close() : undefined))
        .catch(() => undefined);
      return new Request("https://medparts.test/upload", {
        method: "PUT",
        headers: { "Content-Length": String(declared) },
        body: readable,
      });
    };
    const short = uploadWhole(env.CATALOG, env.IMPORTS, row, "a.ndjson", byteRequest(50, 100, true));
    await expect(short).rejects.toBeInstanceOf(ValidationError);
    // R2 reads a chunk, cancels its stream and fails while the next read of the body (not yet ended) is pending.
    const cancelling = {
      put: async (_key: string, stream: ReadableStream) => {
        const reader = stream.getReader();
        await reader.read();
        await reader.cancel(new Error("R2 went away"));
        throw new Error("R2 went away");
      },
    } as unknown as R2Bucket;
    const r2Failure = uploadWhole(env.CATALOG, cancelling, row, "a.ndjson", byteRequest(2 * 1024 * 1024, 4 * 1024 * 1024, false));
    await expect(r2Failure).rejects.toThrow("R2 went away");
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/cancel`, { method: "POST" });
  });

  it("the fingerprint: format, sizes and digests, names for GUDID only; none when a file has no digest", () => {
    const file = { name: "a.ndjson", size: 10, digest: "d1" };
    const fingerprint = filesFingerprint("ndjson", [file])!;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(filesFingerprint("ndjson", [{ ...file, name: "b.ndjson" }])).toBe(fingerprint);
    expect(filesFingerprint("csv", [file])).not.toBe(fingerprint);
    expect(filesFingerprint("ndjson", [{ ...file, digest: "d2" }])).not.toBe(fingerprint);
    expect(filesFingerprint("ndjson", [{ ...file, size: 11 }])).not.toBe(fingerprint);
    const gudid = [
      { name: "identifiers.txt", size: 10, digest: "d1" },
      { name: "device.txt", size: 10, digest: "d2" },
    ];
    expect(filesFingerprint("gudid", gudid)).not.toBe(filesFingerprint("gudid", [gudid[0]!, { ...gudid[1]!, name: "gmdnTerms.txt" }]));
    expect(filesFingerprint("ndjson", [{ ...file, digest: null }])).toBeNull();
    expect(filesFingerprint("ndjson", [])).toBeNull();
  });

  it("a digest counts only for the object version it was computed on: other bytes stored since are read", async () => {
    const file = fileOf(64, 65);
    const first = await runImport(skip, { "a.ndjson": file });
    const job = await createImport(skip, { "a.ndjson": file });
    // The same key written again behind the job's back (a failed re-upload, two uploads at once): a new version.
    await env.IMPORTS.put(`imports/${job.id}/a.ndjson`, file);
    const ended = await startAndWait(job.id);
    expect(ended.sameFilesAs).toBeNull();
    expect(ended.counts).toMatchObject({ read: 2, unchanged: 2 });
    const again = await runImport(skip, { "a.ndjson": file });
    expect(again.sameFilesAs).toBe(first.id); // the job that read its rows had no fingerprint to match
  });

  it("a multipart file with a part uploaded before digests existed has none", async () => {
    const token = await operatorTokenFor();
    const job = await createImport(skip, {});
    const base = `${IMPORTS}/${job.id}/files/p.ndjson`;
    await call(token, `${base}/uploads`, { method: "POST" });
    expect((await call(token, `${base}/parts/1`, { method: "PUT", body: new TextEncoder().encode(fileOf(66)) })).status).toBe(200);
    await env.CATALOG.prepare("UPDATE catalog_import_parts SET digest = NULL WHERE job_id = ?").bind(job.id).run();
    expect((await call(token, `${base}/complete`, { method: "POST" })).status).toBe(200);
    expect(await digestOf(job.id)).toBeNull();
    await call(token, `${IMPORTS}/${job.id}/cancel`, { method: "POST" });
  });

  it("a file uploaded before digests existed: the job reads its rows", async () => {
    const file = fileOf(62, 63);
    await runImport(skip, { "a.ndjson": file });
    const job = await createImport(skip, { "a.ndjson": file });
    await env.CATALOG.prepare("UPDATE catalog_import_files SET digest = NULL WHERE job_id = ?").bind(job.id).run();
    const ended = await startAndWait(job.id);
    expect(ended.sameFilesAs).toBeNull();
    expect(ended.counts).toMatchObject({ read: 2, unchanged: 2 });
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
    expect(await takeSameFileResult(env.CATALOG, job.id, fingerprint)).toBeNull();
    expect(await readJob(env.CATALOG, job.id)).toMatchObject({ same_as: null, unchanged: 0, rows_read: 0 });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(job.id).run();
  });
});
