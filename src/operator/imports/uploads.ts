import { createHash } from "node:crypto";
import { ProblemError, ValidationError } from "../../platform/errors";
import { GZIP_MAGIC } from "./gzip";
import { type FileRow, fileNameProblem, type JobRow, objectKeyOf } from "./jobs";

/**
 * Uploads of an import's files to R2 (docs/api.md, "Catalog import"): one request up to MAX_SINGLE_UPLOAD_BYTES, or
 * multipart parts of PART_SIZE bytes (the last may be shorter) for larger files, each part its own request, resumable:
 * the parts received are rows in D1 (R2 cannot list them), so a client that lost its connection asks which it lacks.
 */
export const MAX_SINGLE_UPLOAD_BYTES = 95 * 1024 * 1024;
export const PART_SIZE = 16 * 1024 * 1024;
export const MAX_PARTS = 10_000;

const conflict = (detail: string) => new ProblemError(409, "conflict", "Conflict", detail);

/** The request's body with its declared length: R2 stores a stream only when its length is known. */
export function sizedBody(request: Request, max: number): { body: ReadableStream; length: number } {
  const length = Number(request.headers.get("Content-Length"));
  if (!request.body || !request.headers.has("Content-Length") || !Number.isSafeInteger(length)) {
    throw new ProblemError(411, "length-required", "Length Required", "Send the file's bytes with a Content-Length header.");
  }
  if (length > max) {
    throw new ProblemError(
      413,
      "payload-too-large",
      "Payload Too Large",
      `At most ${max} bytes per request; send larger files in multipart parts.`,
    );
  }
  if (length === 0) throw new ValidationError({ body: ["The file is empty."] });
  return { body: request.body, length };
}

/**
 * A file of a job that still takes uploads; 409 once the job has started, 400 (a validation problem naming `name`, as the
 * path parameter's own check does) for a name the format does not take.
 */
export async function fileForUpload(catalog: D1Database, job: JobRow, name: string): Promise<FileRow | null> {
  if (job.state !== "awaiting_upload") throw conflict(`The job is ${job.state}: files can be uploaded only before it starts.`);
  const { results } = await catalog.prepare("SELECT * FROM catalog_import_files WHERE job_id = ?").bind(job.id).all<FileRow>();
  const problem = fileNameProblem(
    job.format,
    name,
    results.map((file) => file.name),
  );
  if (problem) throw new ValidationError({ name: [problem] });
  return results.find((file) => file.name === name) ?? null;
}

/**
 * The SHA-256 of each PART_SIZE segment of the bytes that pass, as they pass (a part is one segment), so that a file's
 * digest (`fileDigestOf`) is the same whether it came whole or in parts, and costs no second read
 * (src/operator/imports/same-file.ts).
 */
export class SegmentDigests {
  readonly digests: string[] = [];
  private hash = createHash("sha256");
  private filled = 0;
  bytes = 0;

  update(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(PART_SIZE - this.filled, chunk.length - at);
      this.hash.update(chunk.subarray(at, at + take));
      this.filled += take;
      at += take;
      if (this.filled === PART_SIZE) this.close();
    }
  }

  finish(): string[] {
    if (this.filled > 0) this.close();
    return this.digests;
  }

  private close() {
    this.digests.push(this.hash.digest("hex"));
    this.hash = createHash("sha256");
    this.filled = 0;
  }
}

/** A file's digest from its segments' digests, in order. */
export const fileDigestOf = (segments: readonly string[]) => createHash("sha256").update(segments.join(" ")).digest("hex");

/**
 * Bytes read from a request's body at a time: each read costs JavaScript, so few and large (1 read a MiB). An upload
 * holds about two such buffers while it runs (the read under way and the chunk R2 takes).
 */
const READ_SIZE = 1024 * 1024;

/**
 * A reader of `body` in reads of READ_SIZE bytes: a request's body is a byte stream, read into buffers of that size (its
 * default reader gives 4 KiB chunks, 256 times the reads, which halved the upload rate); any other stream as it comes.
 */
export function largeReads(body: ReadableStream<Uint8Array>): {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason: unknown): Promise<void>;
} {
  try {
    const reader = body.getReader({ mode: "byob" });
    return { read: () => reader.readAtLeast(READ_SIZE, new Uint8Array(READ_SIZE)), cancel: (reason) => reader.cancel(reason) };
  } catch {
    const reader = body.getReader();
    return { read: () => reader.read(), cancel: (reason) => reader.cancel(reason) };
  }
}

/**
 * Stores `body` (`length` bytes) with `store`, digesting its segments on the way, read by read as the store pulls (no
 * buffering ahead of R2). A body that fails, or ends before (or runs past) Content-Length bytes, is a 400; a failure of
 * the store itself (R2) is thrown as it is, so that the client retries it as any 5xx.
 */
async function storeDigested<T>(body: ReadableStream<Uint8Array>, length: number, store: (stream: ReadableStream) => Promise<T>) {
  const segments = new SegmentDigests();
  const reader = largeReads(body);
  let bodyFault = false;
  // A read that fails or ends because R2 cancelled the stream is not the body's fault.
  let cancelled = false;
  const digesting = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (!cancelled) bodyFault = true;
          throw err;
        }
        if (chunk.done) {
          if (segments.bytes !== length && !cancelled) bodyFault = true;
          controller.close();
          return;
        }
        segments.update(chunk.value);
        if (segments.bytes > length) bodyFault = true;
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => {
        cancelled = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  try {
    const stored = await store(digesting.pipeThrough(new FixedLengthStream(length)));
    return { stored, segments: segments.finish() };
  } catch (err) {
    if (bodyFault) throw bodyFaultError();
    throw err;
  }
}

const bodyFaultError = () => new ValidationError({ body: ["The body ended before Content-Length bytes, or ran past them."] });

/** Whether the stored object starts as a gzip stream does (two bytes read). */
async function isGzip(bucket: R2Bucket, key: string): Promise<boolean> {
  const head = await bucket.get(key, { range: { offset: 0, length: 2 } });
  if (!head) return false;
  const bytes = new Uint8Array(await head.arrayBuffer());
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * Records a file whose object is complete in R2, with its digest (null when a part was uploaded without one) and the
 * version of the object it describes: a later upload that stored other bytes without recording them (a failure in
 * between, two uploads at once) leaves a version the digest does not match (src/operator/imports/workflow.ts).
 */
async function recordUploaded(
  catalog: D1Database,
  bucket: R2Bucket,
  jobId: string,
  name: string,
  size: number,
  digest: { digest: string | null; version: string },
): Promise<void> {
  const key = objectKeyOf(jobId, name);
  const gzip = (await isGzip(bucket, key)) ? 1 : 0;
  await catalog.batch([
    catalog
      .prepare(
        "INSERT INTO catalog_import_files (job_id, name, object_key, size, gzip, upload_id, uploaded_at, digest, object_version) " +
          "VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?7, ?8) ON CONFLICT (job_id, name) DO UPDATE SET size = excluded.size, gzip = excluded.gzip, " +
          "upload_id = NULL, uploaded_at = excluded.uploaded_at, digest = excluded.digest, object_version = excluded.object_version",
      )
      .bind(jobId, name, key, size, gzip, new Date().toISOString(), digest.digest, digest.version),
    catalog.prepare("DELETE FROM catalog_import_parts WHERE job_id = ? AND name = ?").bind(jobId, name),
  ]);
}

export async function uploadWhole(catalog: D1Database, bucket: R2Bucket, job: JobRow, name: string, request: Request): Promise<void> {
  await fileForUpload(catalog, job, name);
  const { body, length } = sizedBody(request, MAX_SINGLE_UPLOAD_BYTES);
  const { stored, segments } = await storeDigested(body, length, (stream) => bucket.put(objectKeyOf(job.id, name), stream));
  // Null only under a put condition, which this put has none of; a short or long body failed the put already (storeDigested).
  if (!stored) throw bodyFaultError();
  await recordUploaded(catalog, bucket, job.id, name, length, { digest: fileDigestOf(segments), version: stored.version });
}

export async function beginMultipart(catalog: D1Database, bucket: R2Bucket, job: JobRow, name: string): Promise<void> {
  const existing = await fileForUpload(catalog, job, name);
  if (existing?.upload_id) return; // one multipart upload per file: asking again resumes it
  const upload = await bucket.createMultipartUpload(objectKeyOf(job.id, name));
  await catalog
    .prepare(
      "INSERT INTO catalog_import_files (job_id, name, object_key, upload_id) VALUES (?1, ?2, ?3, ?4) " +
        "ON CONFLICT (job_id, name) DO UPDATE SET upload_id = excluded.upload_id, uploaded_at = NULL, size = NULL",
    )
    .bind(job.id, name, objectKeyOf(job.id, name), upload.uploadId)
    .run();
}

async function multipartOf(catalog: D1Database, job: JobRow, name: string): Promise<FileRow & { upload_id: string }> {
  const file = await fileForUpload(catalog, job, name);
  if (!file?.upload_id) throw conflict(`No multipart upload of ${name} is under way: POST .../files/${name}/uploads first.`);
  return file as FileRow & { upload_id: string };
}

export async function uploadPart(
  catalog: D1Database,
  bucket: R2Bucket,
  job: JobRow,
  name: string,
  partNumber: number,
  request: Request,
): Promise<{ partNumber: number; size: number }> {
  const file = await multipartOf(catalog, job, name);
  const { body, length } = sizedBody(request, PART_SIZE);
  const upload = bucket.resumeMultipartUpload(file.object_key, file.upload_id);
  const { stored: part, segments } = await storeDigested(body, length, (stream) => upload.uploadPart(partNumber, stream));
  await catalog
    .prepare(
      "INSERT INTO catalog_import_parts (job_id, name, part_number, etag, size, digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6) " +
        "ON CONFLICT (job_id, name, part_number) DO UPDATE SET etag = excluded.etag, size = excluded.size, digest = excluded.digest",
    )
    .bind(job.id, name, partNumber, part.etag, length, segments[0]!)
    .run();
  return { partNumber, size: length };
}

export async function partsOf(catalog: D1Database, jobId: string, name: string) {
  const { results } = await catalog
    .prepare("SELECT part_number, etag, size, digest FROM catalog_import_parts WHERE job_id = ? AND name = ? ORDER BY part_number")
    .bind(jobId, name)
    .all<{ part_number: number; etag: string; size: number; digest: string | null }>();
  return results;
}

/** Completes a multipart upload: parts 1..n, every one but the last exactly PART_SIZE bytes. */
export async function completeMultipart(catalog: D1Database, bucket: R2Bucket, job: JobRow, name: string): Promise<void> {
  const file = await multipartOf(catalog, job, name);
  const parts = await partsOf(catalog, job.id, name);
  if (parts.length === 0) throw conflict("No part has been uploaded.");
  const gap = parts.findIndex((part, i) => part.part_number !== i + 1);
  if (gap >= 0) throw conflict(`Part ${gap + 1} is missing.`);
  const short = parts.findIndex((part, i) => i < parts.length - 1 && part.size !== PART_SIZE);
  if (short >= 0) throw conflict(`Part ${short + 1} has ${parts[short]!.size} bytes; every part but the last has ${PART_SIZE}.`);
  const upload = bucket.resumeMultipartUpload(file.object_key, file.upload_id);
  const object = await upload.complete(parts.map((part) => ({ partNumber: part.part_number, etag: part.etag })));
  const digests = parts.map((part) => part.digest);
  await recordUploaded(
    catalog,
    bucket,
    job.id,
    name,
    parts.reduce((sum, part) => sum + part.size, 0),
    { digest: digests.every((digest) => digest !== null) ? fileDigestOf(digests as string[]) : null, version: object.version },
  );
}
