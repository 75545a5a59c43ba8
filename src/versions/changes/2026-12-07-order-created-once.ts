import type { VersionChange } from "../../platform/versions/change";

const CREATE_ORDER = "post /customer/api/orders";

/** The create-order answer's data (or its schema's properties) with `success` where the versions before this one had it. */
function withFormerSuccess(data: Record<string, unknown>, success: unknown): Record<string, unknown> {
  const { orderNumber, createdAt, success: _success, ...rest } = data;
  return { orderNumber, createdAt, success, ...rest };
}

/**
 * The create-order answer says `success` once, in the envelope: its `data` (spec 2.9's order creation result) no longer
 * repeats it. Clients pinned before get `data.success: true` back.
 */
export const orderCreatedOnce: VersionChange = {
  version: "2026-12-07",
  description:
    "`POST /customer/api/orders` answers `success` once, in the envelope: its `data` was `{ orderNumber, createdAt, success, eventId }`.",
  operations: [CREATE_ORDER],
  response: async (response) => {
    if (response.status !== 201 && response.status !== 200) return response;
    const body = await response.json<{ data?: Record<string, unknown> }>();
    if (body.data) body.data = withFormerSuccess(body.data, true);
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(JSON.stringify(body), { status: response.status, headers });
  },
  document: (document) => {
    const created = document.components?.schemas?.OrderCreated as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (!created?.properties || !created.required) return;
    created.properties = withFormerSuccess(created.properties, { type: "boolean", enum: [true] });
    created.required = ["orderNumber", "createdAt", "success", "eventId"];
  },
};
