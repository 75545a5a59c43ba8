import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One request of a client to the customer or vendor API, as its owner's request log keeps it (./store.ts). A row
 * without bodies takes 265 bytes, its index included (measured); bodies (test mode only) are at most MAX_LOGGED_BODY_CHARS each (./redact.ts).
 */
export const requestLogs = sqliteTable(
  "request_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    clientId: text("client_id").notNull(),
    mode: text("mode").$type<"live" | "test">().notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    query: text("query"),
    status: integer("status").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    correlationId: text("correlation_id").notNull(),
    idempotencyKey: text("idempotency_key"),
    apiVersion: text("api_version"),
    /** The problem type's slug of an error answer (`validation-error`), null for a success. */
    errorType: text("error_type"),
    /** An error answer's problem document, as JSON. */
    problem: text("problem"),
    requestBody: text("request_body"),
    responseBody: text("response_body"),
    /** Whether a body was cut at MAX_LOGGED_BODY_CHARS. */
    truncated: integer("truncated", { mode: "boolean" }).notNull(),
  },
  (t) => [index("request_logs_at").on(t.at)],
);

export type RequestLogRow = typeof requestLogs.$inferSelect;
export type RequestLogEntry = Omit<RequestLogRow, "id">;
