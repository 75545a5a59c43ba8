import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../../env";
import type { OpenApiDocument } from "../openapi/document";
import { PROBLEM_CONTENT_TYPE, problemResponse, setResponseHeaders } from "../responses";
import { API_VERSIONS, type ApiVersion, isApiVersion, LATEST_VERSION, VERSION_HEADER } from "./calendar";
import type { Exchange, VersionChange } from "./change";

/** `/customer/api/webhook-endpoints/:id` -> `/customer/api/webhook-endpoints/{id}`, as the OpenAPI document writes it. */
const documentPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");

/** The changes an answer at `version` walks back through, newest first. */
export const changesAfter = (changes: readonly VersionChange[], version: ApiVersion) =>
  changes.filter((change) => change.version > version).reverse();

const isDocument = (operation: string) => operation.endsWith("/openapi.json");

/** The OpenAPI document of the latest version as the document of `version`: every change after it undone. */
export function documentAt(changes: readonly VersionChange[], version: ApiVersion, document: OpenApiDocument): OpenApiDocument {
  const rendered = structuredClone(document);
  for (const change of changesAfter(changes, version)) change.document?.(rendered);
  rendered.info.version = version;
  return rendered;
}

/** The version a request is answered in: the one it names, else its client's pin, else the latest. */
export const answerVersion = (c: Context<AppEnv>): ApiVersion => c.get("requestedVersion") ?? c.get("clientVersion") ?? LATEST_VERSION;

/** A stored event as a client or endpoint at `version` gets it (a new object; the stored one is never changed). */
export function renderEvent<E extends object>(changes: readonly VersionChange[], version: ApiVersion, stored: E): E {
  let event = stored;
  for (const change of changes) if (change.storedEvent) event = change.storedEvent(event);
  const transforms = changesAfter(changes, version).flatMap((change) => (change.event ? [change.event] : []));
  if (transforms.length === 0) return event; // nothing to render: no copy on the feed's and the deliveries' usual path
  let rendered = (event === stored ? structuredClone(event) : event) as Record<string, unknown>;
  for (const transform of transforms) rendered = transform(rendered);
  return rendered as E;
}

/** The operation a request is routed to (its handler's, `index` -1 from any middleware) and its path's values. */
function exchangeOf(c: Context<AppEnv>, index?: number): Exchange {
  return {
    operation: `${c.req.method.toLowerCase()} ${documentPath(routePath(c, index))}`,
    params: c.req.param() as Record<string, string>,
    correlationId: c.get("correlationId"),
  };
}

/**
 * A number JSON cannot write (a literal like 1e400 parses to Infinity), marked to be written back; the mark is drawn
 * once per isolate, at first use (Workers give no random values at global scope), so no request can guess it.
 */
let infinityMark: string | undefined;

/**
 * A body as JSON text that parses back to the same value: JSON.stringify would write an infinity (a literal like 1e400
 * in the request) as null, which a nullable field would accept; it is written as 1e400 or -1e400 again.
 */
function jsonTextOf(body: unknown): string {
  let infinite = false;
  infinityMark ??= `inf-${crypto.randomUUID()}`;
  const mark = infinityMark;
  const text = JSON.stringify(body, (_key, value) => {
    if (typeof value !== "number" || Number.isFinite(value) || Number.isNaN(value)) return value;
    infinite = true;
    return `${value > 0 ? "+" : "-"}${mark}`;
  });
  return infinite ? text.replaceAll(`"+${mark}"`, "1e400").replaceAll(`"-${mark}"`, "-1e400") : text;
}

/**
 * The request's JSON body at the latest version, for a request made at an older one (docs/api.md, "Versions"): it
 * walks forward through the changes after that version that touch the operation, oldest first. Run once the version
 * is known, by the bearer check (which learns the client's pin), before any route reads the body: handlers and their
 * validation know only the latest version. A body that is not JSON is left to the route, which answers it.
 */
async function walkRequestForward(c: Context<AppEnv>, changes: readonly VersionChange[]): Promise<void> {
  const version = answerVersion(c);
  if (version === LATEST_VERSION || c.req.raw.body === null) return;
  const exchange = exchangeOf(c, -1);
  const forward = changes.filter((change) => change.version > version && change.request && change.operations.includes(exchange.operation));
  if (forward.length === 0) return;
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return;
  }
  c.set("bodyAsSent", structuredClone(body));
  for (const change of forward) body = change.request!(body, exchange);
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Content-Length");
  c.req.raw = new Request(c.req.raw, { body: jsonTextOf(body), headers });
  c.req.bodyCache = {};
}

/** The answer the handler gave at the latest version, as a client at `version` gets it. */
export async function renderAt(
  changes: readonly VersionChange[],
  version: ApiVersion,
  response: Response,
  exchange: Exchange,
): Promise<Response> {
  if (isDocument(exchange.operation) && response.status === 200) {
    const document = documentAt(changes, version, await response.json<OpenApiDocument>());
    return new Response(JSON.stringify(document), { status: 200, headers: response.headers });
  }
  let rendered = response;
  for (const change of changesAfter(changes, version)) {
    if (change.response && change.operations.includes(exchange.operation)) rendered = await change.response(rendered, exchange);
  }
  return renderProblemAt(changes, version, rendered);
}

/**
 * A problem details answer through the `problem` transforms of the changes after `version`; any other answer as is. A
 * body that is no longer a problem (no `type`: a former form of spec 7.2) is `application/json`.
 */
async function renderProblemAt(changes: readonly VersionChange[], version: ApiVersion, response: Response): Promise<Response> {
  const transforms = changesAfter(changes, version).flatMap((change) => (change.problem ? [change.problem] : []));
  if (transforms.length === 0 || !response.headers.get("Content-Type")?.startsWith(PROBLEM_CONTENT_TYPE)) return response;
  let problem = await response.json<Record<string, unknown>>();
  for (const transform of transforms) problem = transform(problem);
  // The body's length changes: a Content-Length of the original (an answer over a service binding has one) would lie.
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  if (problem.type === undefined) headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(problem), { status: response.status, headers });
}

function unknownVersion(c: Context<AppEnv>, given: string): Response {
  const known = API_VERSIONS.join(", ");
  const response = problemResponse(c, {
    status: 400,
    slug: "validation",
    title: "Validation failed",
    detail: `${VERSION_HEADER} names no version of this API.`,
    errors: { [VERSION_HEADER]: [`Unknown version ${JSON.stringify(given.slice(0, 40))}: one of ${known} (YYYY-MM-DD).`] },
  });
  return response;
}

/**
 * The version of every answer (docs/api.md, "Versions"): `Medparts-Version` if the request names one, else the
 * calling client's pinned version (set by the bearer check), else the latest. Handlers answer at the latest version;
 * an older one is rendered here through the version changes. Every answer says its version, 401 and 429 included.
 */
export const apiVersioning =
  (changes: readonly VersionChange[], pinOf?: (c: Context<AppEnv>) => Promise<ApiVersion | undefined>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const requested = c.req.header(VERSION_HEADER)?.trim();
    if (requested !== undefined && !isApiVersion(requested)) {
      // In the version of the client's pin, as any error the client's own request gets.
      const pinned = (await pinOf?.(c)) ?? LATEST_VERSION;
      const refused = unknownVersion(c, requested);
      const answer = pinned === LATEST_VERSION ? refused : await renderProblemAt(changes, pinned, refused);
      answer.headers.set(VERSION_HEADER, pinned);
      return answer;
    }
    c.set("requestedVersion", requested);
    c.set("walkRequestForward", () => walkRequestForward(c, changes));
    await next();
    // A route may name the version itself (the OpenAPI document's ?version=). An error given before the bearer check
    // learnt the client's pin (a body the platform refused, a 429) is in that pin too, when the token is valid.
    let version = answerVersion(c);
    // Not a 401: its token has no pin to find (or is a disabled client's), and a bad token costs no verification more.
    if (
      pinOf &&
      c.res.status >= 400 &&
      c.res.status !== 401 &&
      c.get("requestedVersion") === undefined &&
      c.get("clientVersion") === undefined
    ) {
      version = (await pinOf(c)) ?? version;
    }
    if (version !== LATEST_VERSION) {
      // After next(), the route index is the handler that answered.
      c.res = await renderAt(changes, version, c.res, exchangeOf(c));
    }
    setResponseHeaders(c, { [VERSION_HEADER]: version });
  };
