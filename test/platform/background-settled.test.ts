import { describe, expect, it } from "vitest";
import { TENANT_A } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
import { freshOrder } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { RECEIVER, receivedAt, receiverPath, registerEndpoint } from "../helpers/webhooks";

// Every test file ends with backgroundSettled (test/setup/apply-migrations.ts); this shows what it waits for.
describe("background work of the test Worker", () => {
  it("has settled once the order's dispatch (its store's alarm) and its delivery (through the real queue) are done", async () => {
    const path = receiverPath("ok");
    const endpoint = await registerEndpoint(`${RECEIVER}${path}`);
    const { orderNumber } = await freshOrder();

    await backgroundSettled();

    const received = await receivedAt(path);
    expect(received.map((r) => JSON.parse(r.body))).toContainEqual(expect.objectContaining({ type: "order.created", orderNumber }));
    const deliveries = await storeRows(TENANT_A, "SELECT outcome FROM webhook_deliveries WHERE endpoint_id = ?", endpoint.id);
    expect(deliveries).toContainEqual({ outcome: "succeeded" });
  });
});
