import type { MiddlewareHandler } from "hono";
import { type AppEnv, appConfig } from "../env";
import { ProblemError } from "./errors";

const payloadTooLarge = (maxBytes: number) =>
  new ProblemError(413, "payload-too-large", "Payload Too Large", `The request body exceeds the limit of ${maxBytes} bytes.`);

/**
 * Rejects request bodies over MAX_BODY_BYTES with 413. Content-Length is only a first, cheap check: the
 * body itself is counted while it is read (chunked bodies have no Content-Length, and a declared length
 * may lie), and the request is rebuilt from the bytes read, so no later reader can see more than the limit.
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

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  c.req.raw = new Request(c.req.raw, { body: size > 0 ? bytes : null });
  await next();
};
