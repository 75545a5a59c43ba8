import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { inBackground } from "../../platform/background";
import { errorMessage } from "../../platform/errors";
import { IDEMPOTENCY_KEY_HEADER } from "../../platform/idempotency/middleware";
import { logEvent } from "../../platform/logging";
import type { RequestLogOwner } from "../../platform/principal";
import { VERSION_HEADER } from "../../platform/versions/calendar";
import { requestLogCallerOfBearer } from "../auth/bearer";
import { modeOfOwner, requestLog } from "./owners";
import { loggableBody, loggableProblem, scrubText } from "./redact";
import type { RequestLogEntry } from "./table";

/** The APIs whose requests are logged, and what is not: the log's own reads (a `logs tail` would log its polls). */
const LOGGED_PATH = /^\/(customer|vendor)\/api\//;
const UNLOGGED_PATH = /^\/(customer|vendor)\/api\/request-logs(\/|$)/;
const MAX_QUERY_CHARS = 2000;
const MAX_KEY_CHARS = 255;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const problemSlug = (type: unknown) => (typeof type === "string" ? (type.split("/").pop() ?? type) : null);

async function requestBodyText(c: Context<AppEnv>): Promise<string | null> {
  if (!BODY_METHODS.has(c.req.method)) return null;
  const asSent = c.get("bodyAsSent");
  if (asSent !== undefined) return JSON.stringify(asSent);
  // The body as the route read it (hono keeps it), or read now when nothing did (an answer before the route ran).
  return c.req.text().catch(() => null);
}

/**
 * Writes each authenticated request of the customer and vendor APIs to its owner's request log, after the answer and
 * off its path (`waitUntil`): method, path, status, latency, correlation id, idempotency key, the problem document of
 * an error and, in test mode only, both bodies scrubbed of secrets and card-like data (./redact.ts). A request without
 * a valid token is in no log: whose it is is unknown. Mounted outside the version middleware: it keeps the answer as
 * the client got it.
 */
export const recordRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  const api = LOGGED_PATH.exec(c.req.path)?.[1] as "customer" | "vendor" | undefined;
  if (api === undefined || UNLOGGED_PATH.test(c.req.path)) return next();
  const startedAt = Date.now();
  await next();
  const known = c.get("requestLogOwner");
  // Answered before the bearer check (a 413, a 415, an unknown version): whose it is comes from the token, verified off
  // the answer's path; without a valid one it is in no log.
  if (known === undefined && (c.res.status < 400 || !c.req.header("Authorization"))) return;
  const latencyMs = Date.now() - startedAt;
  const isError = c.res.status >= 400 && /^application\/(problem\+)?json/.test(c.res.headers.get("Content-Type") ?? "");
  // The answer's body is read when it is kept: an error's, a test-mode answer's, or (its mode still unknown) either.
  const answer = known === undefined || isError || modeOfOwner(known) === "test" ? c.res.clone() : undefined;
  const caller = async () => {
    const clientId = c.get("verifiedClientId");
    if (known !== undefined && clientId !== undefined) return { owner: known, clientId };
    return requestLogCallerOfBearer(c, api);
  };
  inBackground(c, record(c, caller, latencyMs, isError, answer));
};

async function record(
  c: Context<AppEnv>,
  caller: () => Promise<{ owner: RequestLogOwner; clientId: string } | undefined>,
  latencyMs: number,
  isError: boolean,
  answer: Response | undefined,
): Promise<void> {
  try {
    const found = await caller();
    if (found === undefined) return void (await answer?.body?.cancel());
    const { owner, clientId } = found;
    const mode = modeOfOwner(owner);
    const answerText = answer ? await answer.text() : null;
    const parsed: unknown = isError && answerText ? JSON.parse(answerText) : null;
    const problem = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    const request = mode === "test" ? loggableBody(await requestBodyText(c)) : { body: null, truncated: false };
    const response = mode === "test" ? loggableBody(answerText) : { body: null, truncated: false };
    const query = scrubText(new URL(c.req.url).search.slice(1));
    const entry: RequestLogEntry = {
      at: new Date().toISOString(),
      clientId,
      mode,
      method: c.req.method,
      path: scrubText(c.req.path),
      query: query ? query.slice(0, MAX_QUERY_CHARS) : null,
      status: c.res.status,
      latencyMs,
      correlationId: c.get("correlationId"),
      idempotencyKey: c.req.header(IDEMPOTENCY_KEY_HEADER)?.slice(0, MAX_KEY_CHARS) ?? null,
      apiVersion: c.res.headers.get(VERSION_HEADER),
      errorType:
        c.get("problemSlug") ?? (problem ? problemSlug(problem.type) : null) ?? (c.res.status >= 400 ? `http-${c.res.status}` : null),
      problem: problem ? loggableProblem(problem) : null,
      requestBody: request.body,
      responseBody: response.body,
      truncated: request.truncated || response.truncated,
    };
    await requestLog(c.env, owner).record(entry);
  } catch (error) {
    logEvent("warn", { event: "request-log.record", correlationId: c.get("correlationId"), message: errorMessage(error) });
  }
}
