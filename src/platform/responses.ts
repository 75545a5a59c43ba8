import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { AppEnv } from "../env";
import { type FieldErrors, problemErrors } from "./errors";
import { type ProblemSlug, problemTypeUri } from "./problem-types";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

const now = () => new Date().toISOString();

/** Success envelope `{ success, data, correlationId, timestamp }` (spec section 1). */
export function envelope<T>(c: Context<AppEnv>, data: T) {
  return { success: true as const, data, correlationId: c.get("correlationId"), timestamp: now() };
}

/** JSON text of a `T`, typed with what it holds (made by `jsonText`, or read back from where such text was kept). */
export type JsonText<T> = string & { readonly __holds?: T };
export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value);

/**
 * The success envelope around data that is already JSON text (e.g. a cached answer), as a 200 response typed like
 * `c.json(envelope(c, data), 200)`: the text is neither parsed nor serialized again.
 */
export function envelopeResponse<T>(
  c: Context<AppEnv>,
  data: JsonText<T>,
): Response & TypedResponse<JSONParsed<ReturnType<typeof envelope<T>>>, 200, "json"> {
  // The envelope's own fields, from `envelope` itself; `data` (the first null, right after `success`) is the text.
  const text = JSON.stringify(envelope(c, null)).replace('"data":null', () => `"data":${data}`);
  // c.body, not a new Response: headers the handler set with c.header() go out as with c.json.
  return c.body(text, 200, { "Content-Type": "application/json" }) as unknown as Response &
    TypedResponse<JSONParsed<ReturnType<typeof envelope<T>>>, 200, "json">;
}

export interface ProblemInit {
  status: number;
  slug: ProblemSlug;
  title: string;
  detail: string;
  errors?: string[] | FieldErrors;
  headers?: Record<string, string>;
}

/**
 * RFC 9457 problem details, the one error form (docs/errors.md; clients pinned before 2026-12-07 get the spec's forms
 * of section 7.2, src/versions/changes/2026-12-07-one-error-form.ts); on the token endpoint, RFC 6749 5.2 errors instead.
 */
export function problemResponse(c: Context<AppEnv>, init: ProblemInit): Response {
  if (c.get("errorForm") === "oauth") return oauthErrorResponse(init);
  // The request log names the problem type whatever form the client's version then gives the answer.
  c.set("problemSlug", init.slug);
  const body = {
    type: problemTypeUri(c.req.url, init.slug),
    title: init.title,
    status: init.status,
    detail: init.detail,
    instance: new URL(c.req.url).pathname,
    correlationId: c.get("correlationId"),
    timestamp: now(),
    service: c.env.SERVICE_NAME,
    errors: problemErrors(init.errors),
  };
  return new Response(JSON.stringify(body), {
    status: init.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...init.headers },
  });
}

/**
 * The RFC 6749 5.2 code of an error the platform answers on the token endpoint. A 429 is `temporarily_unavailable`
 * ("try later", RFC 6749 4.1.2.1), not `slow_down`: that one means a pending device authorization whose polling
 * interval grows by 5 s (RFC 8628 3.5), and openid-client gives it that meaning.
 */
function oauthErrorCode(status: number): "invalid_request" | "temporarily_unavailable" | "server_error" {
  if (status === 429 || status === 503 || status === 504) return "temporarily_unavailable";
  return status >= 500 ? "server_error" : "invalid_request";
}

/** `application/json` exactly: OAuth clients (openid-client) compare the media type as is and reject any other. */
function oauthErrorResponse(init: ProblemInit): Response {
  return new Response(JSON.stringify({ error: oauthErrorCode(init.status), error_description: init.detail }), {
    status: init.status,
    headers: { "Content-Type": "application/json", ...init.headers },
  });
}

export function validationResponse(c: Context<AppEnv>, errors: FieldErrors, detail: string): Response {
  return problemResponse(c, { status: 400, slug: "validation", title: "Validation failed", detail, errors });
}

/** A business-rule violation: a 422 problem with one entry in `errors` per offending line. */
export function businessRuleResponse(c: Context<AppEnv>, errors: string[]): Response {
  return problemResponse(c, {
    status: 422,
    slug: "business-rule",
    title: "Business rule violated",
    detail: "A line of the request breaks a rule of its price option; `errors` names each.",
    errors,
  });
}

/** A 409 for an `Idempotency-Key` in use: another body, or the first request still processing. */
export function idempotencyConflictResponse(c: Context<AppEnv>, message: string): Response {
  return problemResponse(c, { status: 409, slug: "idempotency-conflict", title: "Idempotency conflict", detail: message });
}

/**
 * `response` with `headers` set: in place when its headers are mutable (a response the Worker built), otherwise on
 * one copy (a response from `fetch` or the Cache API has immutable headers).
 */
export function responseWithHeaders(response: Response, headers: Record<string, string>): Response {
  const apply = (target: Headers) => {
    for (const [name, value] of Object.entries(headers)) target.set(name, value);
  };
  try {
    apply(response.headers);
    return response;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const copy = new Response(response.body, response);
    apply(copy.headers);
    return copy;
  }
}

/**
 * Sets headers on the response a handler already produced. hono's `c.header` copies the whole Response on every
 * call once it is final; this sets them in place (responseWithHeaders).
 */
export function setResponseHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  const response = responseWithHeaders(c.res, headers);
  if (response !== c.res) c.res = response;
}
