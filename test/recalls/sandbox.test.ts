import { describe, expect, it } from "vitest";
import { call, json, TENANT_A, testModeTokenFor, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { testOrder } from "../helpers/sandbox";
import { storeRows } from "../helpers/stores";

const simulate = async (orderNumber: string, scenario: string) =>
  contractCall(await testModeTokenFor(TENANT_A), `/test-helpers/orders/${orderNumber}/simulate`, { method: "POST", json: { scenario } });

describe("recalls in the sandbox: the recall scenario", () => {
  it("a made-up recall of the test order's units reaches the test store at once, and neither live mode nor another store", async () => {
    const { orderNumber } = await testOrder(3);
    // Nothing shipped yet: nothing to recall.
    expect((await simulate(orderNumber, "recall")).status).toBe(409);
    expect((await simulate(orderNumber, "ship")).status).toBe(200);
    const run = await simulate(orderNumber, "recall");
    expect(run.status).toBe(200);
    const { eventIds } = (await json(run)).data;
    expect(eventIds).toHaveLength(1);
    const testToken = await testModeTokenFor(TENANT_A);
    const event = (await json(await contractCall(testToken, `/events/${eventIds[0]}`))).data;
    expect(event).toMatchObject({ type: "recall.affects_you", data: { source: "sandbox", affectedUnits: 1 } });
    const recallId = event.data.recallId as number;
    const recall = (await json(await contractCall(testToken, `/recalls/${recallId}`))).data;
    expect(recall).toMatchObject({ productNumber: `SBX-${orderNumber}`, affectedUnits: 1 });
    expect(recall.units).toHaveLength(1);
    expect(recall.units[0]).toMatchObject({ orderNumber, lot: "SBX-LOT-1", units: 3, outcome: "affected" });
    // Live mode never sees the sandbox's recall, nor does the live store hold it.
    expect((await call(await tokenFor(TENANT_A), `/recalls/${recallId}`)).status).toBe(404);
    expect(await storeRows(TENANT_A, "SELECT recall_id FROM tenant_recalls WHERE recall_id = ?1", recallId)).toEqual([]);
    expect(await storeRows(-2, "SELECT recall_id FROM tenant_recalls WHERE recall_id = ?1", recallId)).toEqual([]);
    // Again: the same recall, nothing new to say.
    const again = (await json(await simulate(orderNumber, "recall"))).data;
    expect(again.eventIds).toEqual([]);
  });
});
