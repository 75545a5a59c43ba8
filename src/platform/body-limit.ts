import type { Context, MiddlewareHandler } from "hono";
import { type AppEnv, appConfig } from "../env";
import { ProblemError } from "./errors";

const payloadTooLarge = (maxBytes: number) =>
  new ProblemError(413, "payload-too-large", "Payload Too Large", `The request body exceeds the limit of ${maxBytes} bytes.`);

/**
 * Rejects request bodies over MAX_BODY_BYTES with 413. Content-Length is only a first, cheap check: the
 * body itself is counted while it is read (chunked bodies have no Content-Length, and a declared length
 * may lie). The bytes read are what every later reader gets, through hono's body cache (c.req.json(), text(),
 * arrayBuffer(), parseBody()), so no reader can see more than the limit; no Request is rebuilt around them.
 */
export const bodyLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = c.req.raw.body;
  if (!body) return next();
  // A body on GET or HEAD means nothing (RFC 9110 9.3.1) and no route reads one: it is ignored, never rebuilt into a
  // Request (which throws for these methods and made any such request a 500).
  if (c.req.method === "GET" || c.req.method === "HEAD") return next();
  const maxBytes = appConfig(c.env).MAX_BODY_BYTES;
  const declared = Number(c.req.header("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);

  const bytes = await readAtMost(body, maxBytes);
  if (bytes === null) throw payloadTooLarge(maxBytes);
  // The bytes; the JSON check (src/platform/content-type.ts) puts its strictly decoded text beside them, and other
  // readers (the token endpoint's form) get text decoded from them by hono. test/platform/requests.test.ts covers
  // every reader.
  cachedBody(c).arrayBuffer = Promise.resolve(bytes.buffer);
  await next();
};

/**
 * A body's bytes, counted as they are read: null as soon as they pass `maxBytes` (the rest is not read). A declared
 * Content-Length is only a first check for the caller: chunked bodies have none, and a declared length may lie.
 */
export async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** hono's body cache, which keeps promises (its type says values). */
export const cachedBody = (c: Context<AppEnv>) =>
  c.req.bodyCache as unknown as Partial<Record<"arrayBuffer" | "text" | "json", Promise<unknown>>>;
