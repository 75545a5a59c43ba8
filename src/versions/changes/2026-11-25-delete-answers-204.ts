import type { VersionChange } from "../../platform/versions/change";

/**
 * DELETE of a webhook endpoint answered 200 with `{ id, deleted: true }` in the success envelope; since 2026-11-25 it
 * answers 204 without a body, as the other deletions do. Clients pinned before see the old answer.
 */
export const deleteAnswers204: VersionChange = {
  version: "2026-11-25",
  description:
    "`DELETE /customer/api/webhook-endpoints/{id}` answers 204 No Content without a body; it answered 200 with " +
    '`{ "success": true, "data": { "id": ..., "deleted": true } }`.',
  operations: ["delete /customer/api/webhook-endpoints/{id}"],
  document: (document) => {
    const operation = document.paths?.["/customer/api/webhook-endpoints/{id}"]?.delete;
    const noContent = operation?.responses?.["204"];
    if (!operation?.responses || !noContent || "$ref" in noContent) return;
    delete operation.responses["204"];
    operation.responses["200"] = {
      description: "Deleted",
      headers: noContent.headers,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["success", "data", "correlationId", "timestamp"],
            properties: {
              success: { type: "boolean", const: true },
              data: {
                type: "object",
                required: ["id", "deleted"],
                properties: { id: { type: "string" }, deleted: { type: "boolean", const: true } },
              },
              correlationId: { type: "string" },
              timestamp: { type: "string", format: "date-time" },
            },
          },
        },
      },
    };
  },
  response: (response, { params, correlationId }) => {
    if (response.status !== 204) return response;
    const headers = new Headers(response.headers);
    headers.set("Content-Type", "application/json");
    const body = { success: true, data: { id: params.id, deleted: true }, correlationId, timestamp: new Date().toISOString() };
    return new Response(JSON.stringify(body), { status: 200, headers });
  },
};
