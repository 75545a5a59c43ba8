import { defineSearchResource } from "../../query/fields";
import { requestLogs } from "../../shared/request-logs/table";

/** GET /request-logs (customer and vendor APIs): the owner's requests. */
export const requestLogSearch = defineSearchResource({
  name: "request-logs",
  path: "/request-logs",
  idColumn: requestLogs.id,
  defaultSort: "at",
  fields: [
    {
      name: "id",
      type: "Numeric",
      unit: "integer",
      column: requestLogs.id,
      sortable: true,
      description: "The log entry's id (ascending with time)",
    },
    {
      name: "at",
      aliases: ["createdAt"],
      type: "DateTime",
      column: requestLogs.at,
      sortable: true,
      description: "When the answer was given",
    },
    { name: "clientId", type: "Token", column: requestLogs.clientId, sortable: true, description: "The API client that sent it" },
    { name: "method", type: "Token", column: requestLogs.method, sortable: true, description: "`GET`, `POST`, `PUT`, `PATCH` or `DELETE`" },
    {
      name: "path",
      type: "String",
      column: requestLogs.path,
      sortable: true,
      description: 'The path it asked for, e.g. `path~"/orders"`',
    },
    {
      name: "status",
      type: "Numeric",
      unit: "integer",
      column: requestLogs.status,
      sortable: true,
      description: "The answer's HTTP status, e.g. `status>=400`",
    },
    {
      name: "latencyMs",
      type: "Numeric",
      unit: "integer",
      column: requestLogs.latencyMs,
      sortable: true,
      description: "Milliseconds from the request to the answer",
    },
    {
      name: "correlationId",
      type: "Token",
      column: requestLogs.correlationId,
      sortable: false,
      description: "The answer's X-Correlation-Id",
    },
    {
      name: "idempotencyKey",
      type: "Token",
      column: requestLogs.idempotencyKey,
      sortable: false,
      description: "The request's Idempotency-Key",
    },
    {
      name: "errorType",
      type: "Token",
      column: requestLogs.errorType,
      sortable: true,
      description: "An error's problem type, e.g. `validation` (`errorType:null` for successes)",
    },
    {
      name: "apiVersion",
      type: "Token",
      column: requestLogs.apiVersion,
      sortable: true,
      description: "The API version it was answered in",
    },
  ],
});
