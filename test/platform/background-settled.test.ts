import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { backgroundSettled } from "../helpers/background";
import { freshOrder } from "../helpers/orders";
import { RECEIVER, receivedAt, receiverPath, registerEndpoint } from "../helpers/webhooks";

// Every test file ends with backgroundSettled (test/setup/apply-migrations.ts); this shows what it waits for.
describe("background work of the test Worker", () => {
  it("has settled once the order's dispatch (after the answer) and its delivery (through the real queue) are done", async () => {
    const path = receiverPath("ok");
    const endpoint = await registerEndpoint(`${RECEIVER}${path}`);
    const { orderNumber } = await freshOrder();

    await backgroundSettled();

    const received = await receivedAt(path);
    expect(received.map((r) => JSON.parse(r.body))).toContainEqual(expect.objectContaining({ type: "order.created", orderNumber }));
    const deliveries = await env.DB.prepare("SELECT outcome FROM webhook_deliveries WHERE endpoint_id = ?1").bind(endpoint.id).all();
    expect(deliveries.results).toContainEqual({ outcome: "succeeded" });
  });
});
