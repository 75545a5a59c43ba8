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
      description: "Test mode only: the request's body as sent, secrets and card-like numbers replaced by `[redacted]`",
    }),
    responseBody: z.string().nullable().openapi({ description: "Test mode only: the answer's body, redacted the same way" }),
    truncated: z.boolean().openapi({ description: "A body was longer than 4,096 characters and is cut there" }),
  })
  .openapi("RequestLog");

export type RequestLogView = z.infer<typeof RequestLogSchema>;

const view = ({ problem, truncated, ...row }: RequestLogRow): RequestLogView => ({
  ...row,
  problem: problem === null ? null : (JSON.parse(problem) as RequestLogView["problem"]),
  truncated: Boolean(truncated),
});

/** A page of the log filtered by `q`, newest first unless sorted otherwise; one call to the log. */
export async function searchRequestLogs(db: Database, request: SearchRequest, page: Page) {
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
  return { requests: rows.map(view), pagination: paginationOf(page, total, rows.length) };
}
