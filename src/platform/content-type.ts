import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";
import { cachedBody } from "./body-limit";
import { malformedJson, ProblemError, ValidationError } from "./errors";
import { requireShallowJson } from "./json-depth";
import { requireWellFormedText } from "./well-formed-text";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/** Fatal: a body that is not UTF-8 is refused, never stored with U+FFFD in place of its bytes. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The APIs' request bodies are JSON in UTF-8 of well-formed Unicode text: a body of another (or no) media type is
 * 415, bytes that are not UTF-8 or a lone surrogate anywhere in it are 400. An empty body (`Content-Length: 0`, as
 * Node's fetch sends a body-less POST) is no body, whatever its Content-Type: the route reads `{}`, and validation
 * says what is missing. Runs
 * only when a route matches, so a wrong method or path still gets 405 or 404. Requests without a body pass through
 * too.
 */
export const requireJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.raw.body && matchedRoutes(c).some((route) => route.method !== "ALL")) {
    const bytes = new Uint8Array((await c.req.arrayBuffer()) as ArrayBuffer);
    if (bytes.byteLength === 0) {
      // Goes on as the request without a body it is, so no reader (nor @hono/zod-openapi's media type gate) sees one.
      const headers = new Headers(c.req.raw.headers);
      headers.delete("Content-Type");
      headers.delete("Content-Length");
      c.req.raw = new Request(c.req.raw, { body: null, headers });
      return next();
    }
    const mediaType = c.req.header("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ProblemError(
        415,
        "unsupported-media-type",
        "Unsupported Media Type",
        `Request bodies must be JSON: send Content-Type: application/json${mediaType ? `, not ${mediaType}` : ""}.`,
        { headers: { "Accept-Post": "application/json" } },
      );
    }
    cachedBody(c).text = Promise.resolve(utf8Text(bytes));
    await requireWellFormedText(c);
  }
  await next();
};

function utf8Text(bytes: Uint8Array): string {
  // A byte order mark is no part of a JSON text (RFC 8259 8.1: senders must not add one); ignored, it made "\uFEFF{}"
  // an empty object, a valid request where every field is optional.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new ValidationError(
      { body: ["Must not start with a byte order mark (RFC 8259 8.1): send the JSON text alone."] },
      "The request body is not valid JSON.",
    );
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ValidationError(
      { body: ["Must be UTF-8 encoded text (RFC 8259 8.1): it has bytes that are not UTF-8."] },
      "The request body is not UTF-8.",
    );
  }
}

/**
 * The request's JSON body, for a route that validates it itself (a batch validated row by row): malformed JSON is the
 * 400 of spec 7.2, and no body reads as {}, as an empty one does. hono keeps the body's text (read once), not its
 * parse: a later `c.req.json()` parses it again.
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  let body: unknown;
  try {
    body = c.req.raw.body === null ? {} : await c.req.json();
  } catch {
    throw malformedJson();
  }
  requireShallowJson(body);
  return body;
}
