import { z } from "@hono/zod-openapi";
import type { Database } from "../../db/client";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { type RequestLogRow, requestLogs } from "../../shared/request-logs/table";
import { requestLogSearch } from "./search-fields";

export const RequestLogSchema = z
  .object({
    id: z.number().int(),
    at: z.string().openapi({ format: "date-time" }),
    clientId: z.string(),
    mode: z.enum(["live", "test"]),
    method: z.string(),
    path: z.string(),
    query: z.string().nullable().openapi({ description: "The query string, without `?`" }),
    status: z.number().int(),
    latencyMs: z.number().int(),
    correlationId: z.string(),
    idempotencyKey: z.string().nullable(),
    apiVersion: z.string().nullable().openapi({ description: "The version the answer was given in (its Medparts-Version)" }),
    errorType: z.string().nullable().openapi({ description: "An error answer's problem type (slug), null for a success" }),
    problem: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        "An error answer's body as sent: a problem document (RFC 9457) at version 2026-12-07, the earlier forms to clients pinned before",
    }),
    requestBody: z.string().nullable().openapi({
      description:
        "Test mode only, and only of the reader's own client's requests: the request's body as sent, secrets and card-like numbers replaced by `[redacted]`",
    }),
    responseBody: z
      .string()
      .nullable()
      .openapi({ description: "Test mode only, and only of the reader's own client's requests: the answer's body, redacted the same way" }),
    truncated: z.boolean().openapi({ description: "A body was longer than 4,096 characters and is cut there" }),
  })
  .openapi("RequestLog");

export type RequestLogView = z.infer<typeof RequestLogSchema>;

/**
 * An entry as `readerClientId` sees it: the bodies of its own requests only. Another client of the same tenant may hold
 * scopes the reader does not (a test answer of users:read names real users): their bodies are not the reader's to see.
 */
const view =
  (readerClientId: string) =>
  ({ problem, truncated, requestBody, responseBody, ...row }: RequestLogRow): RequestLogView => {
    const own = row.clientId === readerClientId;
    return {
      ...row,
      problem: problem === null ? null : (JSON.parse(problem) as RequestLogView["problem"]),
      requestBody: own ? requestBody : null,
      responseBody: own ? responseBody : null,
      truncated: own && Boolean(truncated),
    };
  };

/** A page of the log filtered by `q`, newest first unless sorted otherwise; one call to the log. */
export async function searchRequestLogs(db: Database, request: SearchRequest, page: Page, readerClientId: string) {
  const plan = planSearch(requestLogSearch, { ...request, sortDir: request.sortDir ?? "Desc" });
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select()
      .from(requestLogs)
      .where(plan.filter)
      .orderBy(...plan.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    requestLogs,
    plan.filter,
  );
  return { requests: rows.map(view(readerClientId)), pagination: paginationOf(page, total, rows.length) };
}
