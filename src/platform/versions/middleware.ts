import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../../env";
import type { OpenApiDocument } from "../openapi/document";
import { problemResponse, setResponseHeaders } from "../responses";
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
export function renderEvent<E extends object>(changes: readonly VersionChange[], version: ApiVersion, event: E): E {
  const transforms = changesAfter(changes, version).flatMap((change) => (change.event ? [change.event] : []));
  if (transforms.length === 0) return event; // nothing to render: no copy on the feed's and the deliveries' usual path
  let rendered = structuredClone(event) as Record<string, unknown>;
  for (const transform of transforms) rendered = transform(rendered);
  return rendered as E;
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
  return rendered;
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
  response.headers.set(VERSION_HEADER, LATEST_VERSION);
  return response;
}

/**
 * The version of every answer (docs/api.md, "Versions"): `Medparts-Version` if the request names one, else the
 * calling client's pinned version (set by the bearer check), else the latest. Handlers answer at the latest version;
 * an older one is rendered here through the version changes. Every answer says its version, 401 and 429 included.
 */
export const apiVersioning =
  (changes: readonly VersionChange[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const requested = c.req.header(VERSION_HEADER)?.trim();
    if (requested !== undefined && !isApiVersion(requested)) return unknownVersion(c, requested);
    c.set("requestedVersion", requested);
    await next();
    // A route may name the version itself (the OpenAPI document's ?version=).
    const version = answerVersion(c);
    if (version !== LATEST_VERSION) {
      const exchange: Exchange = {
        // After next(), the route index is the handler that answered.
        operation: `${c.req.method.toLowerCase()} ${documentPath(routePath(c))}`,
        params: c.req.param() as Record<string, string>,
        correlationId: c.get("correlationId"),
      };
      c.res = await renderAt(changes, version, c.res, exchange);
    }
    setResponseHeaders(c, { [VERSION_HEADER]: version });
  };
