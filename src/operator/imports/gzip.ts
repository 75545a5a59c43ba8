import { errorMessage } from "../../platform/errors";
import type { ImportFile } from "./staging";

/** The largest decompressed file an import reads (a million-product NDJSON file is about 300 MB). */
export const MAX_DECOMPRESSED_BYTES = 4 * 1024 ** 3;
/** R2 multipart parts: all but the last of one size, at least 5 MiB. */
const PART_BYTES = 16 * 1024 * 1024;

export const GZIP_MAGIC = [0x1f, 0x8b];

export type DecompressedFile = ImportFile | { fault: { code: string; message: string } };

/**
 * A gzip upload, decompressed once into its own R2 object (validation reads files in byte ranges, which a gzip stream
 * cannot seek to). Streamed: at most one part is held in memory, whatever the file's size. Running it again writes
 * the same object again.
 */
export async function decompressedFile(bucket: R2Bucket, file: ImportFile): Promise<DecompressedFile> {
  const source = await bucket.get(file.objectKey);
  if (!source) return { fault: { code: "file_missing", message: `The uploaded file ${file.name} is gone.` } };
  const objectKey = `${file.objectKey}.decompressed`;
  const upload = await bucket.createMultipartUpload(objectKey);
  const parts: R2UploadedPart[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let size = 0;
  const flush = async () => {
    const part = new Uint8Array(pendingBytes);
    let at = 0;
    for (const piece of pending) {
      part.set(piece, at);
      at += piece.length;
    }
    parts.push(await upload.uploadPart(parts.length + 1, part));
    pending = [];
    pendingBytes = 0;
  };
  try {
    const reader = source.body.pipeThrough(new DecompressionStream("gzip")).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_DECOMPRESSED_BYTES) {
        await reader.cancel();
        await upload.abort();
        return { fault: { code: "too_large", message: `${file.name} decompresses to more than ${MAX_DECOMPRESSED_BYTES} bytes.` } };
      }
      let piece = value;
      while (pendingBytes + piece.length >= PART_BYTES) {
        const take = PART_BYTES - pendingBytes;
        pending.push(piece.subarray(0, take));
        pendingBytes += take;
        piece = piece.subarray(take);
        await flush();
      }
      if (piece.length > 0) {
        pending.push(piece);
        pendingBytes += piece.length;
      }
    }
  } catch (err) {
    await upload.abort();
    const reason = errorMessage(err);
    return { fault: { code: "not_gzip", message: `${file.name} is not a single gzip stream (${reason}).` } };
  }
  if (pendingBytes > 0 || parts.length === 0) await flush();
  await upload.complete(parts);
  return { name: file.name, objectKey, size };
}
