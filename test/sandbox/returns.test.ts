import { describe, expect, it } from "vitest";
import { call, expectProblem, json, TENANT_A, testModeTokenFor } from "../helpers/api";
import { JSMITH, orderBody } from "../helpers/orders";
import { EXCHANGE, LOAN, optionWith, REPAIR } from "../helpers/returns";
import { testOrder } from "../helpers/sandbox";

/**
 * The simulated vendor's returns (docs/api.md, "Sandbox"): each path on demand on a test order, through the real steps,
 * with their events in the test-mode feed; the buyer's part (shipping a core back, sending a unit in) played for it.
 */

const test = () => testModeTokenFor(TENANT_A);
const simulate = async (orderNumber: string, body: Record<string, unknown>) =>
  call(await test(), `/test-helpers/orders/${orderNumber}/simulate`, { method: "POST", json: body });
const returnsOf = async (orderNumber: string) =>
  (await json(await call(await test(), `/returns?q=${encodeURIComponent(`orderNumber:"${orderNumber}"`)}`))).data.returns as any[];
const feedTypes = async (orderNumber: string) =>
  ((await json(await call(await test(), "/events?limit=100"))).data.events as { type: string; orderNumber: string }[])
    .filter((e) => e.orderNumber === orderNumber)
    .map((e) => e.type);

/** A test order of a fresh offer with these purchase terms (the option as test mode quotes it), taken off the schedule. */
async function testOrderWith(terms: Record<string, unknown>, line: Record<string, unknown> = {}) {
  const live = await optionWith(terms);
  const detail = await call(await test(), "/catalog/detail", {
    method: "POST",
    json: { productId: live.productId, requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
  });
  const option = ((await json(detail)).data.options as any[]).find(
    (o) => o.vendorSku === (live as unknown as { vendorSku: string }).vendorSku,
  );
  const placed = await call(await test(), "/orders", {
    method: "POST",
    json: orderBody([{ priceOptionId: option.priceOptionId, productId: live.productId, quantity: 1, price: option.price, ...line }]),
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(placed.status, await placed.clone().text()).toBe(201);
  return (await json(placed)).data.orderNumber as string;
}

describe("the sandbox plays each path of a return on demand", () => {
  it("a core received, refused (and charged), overdue (and charged)", async () => {
    for (const [scenario, status, charged] of [
      ["core_received", "accepted", false],
      ["core_refused", "charged", true],
      ["core_overdue", "charged", true],
    ] as const) {
      const orderNumber = await testOrderWith(EXCHANGE);
      // No core before the exchange ships.
      expect((await simulate(orderNumber, { scenario })).status).toBe(409);
      expect((await simulate(orderNumber, { scenario: "ship" })).status).toBe(200);
      const res = await simulate(orderNumber, { scenario });
      expect(res.status, await res.clone().text()).toBe(200);
      const [core] = await returnsOf(orderNumber);
      expect(core, scenario).toMatchObject({ kind: "core", status, billed: charged ? "300.00" : null });
      const types = await feedTypes(orderNumber);
      expect(types, scenario).toContain("core.opened");
      if (charged) expect(types.at(-1)).toBe("core.charged");
      else expect(types.at(-1)).toBe("core.received");
    }
  });

  it("a loaner overdue: warned, then overdue with its late fees accruing; received back, its late fees billed by invoice", async () => {
    const orderNumber = await testOrderWith(LOAN);
    // No loaner before the loan line ships.
    expect((await simulate(orderNumber, { scenario: "loaner_overdue" })).status).toBe(409);
    expect((await simulate(orderNumber, { scenario: "ship" })).status).toBe(200);
    const res = await simulate(orderNumber, { scenario: "loaner_overdue" });
    expect(res.status, await res.clone().text()).toBe(200);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const [overdue] = await returnsOf(orderNumber);
    const lateFeePerDay = LOAN.loanTerms.lateFeePerDay;
    expect(overdue).toMatchObject({
      kind: "loaner",
      status: "overdue",
      dueAt: yesterday,
      dueSoonNotifiedAt: expect.any(String),
      lateFeePerDay: lateFeePerDay.toFixed(2),
      // One day late so far, of its one unit.
      accruedLateFees: lateFeePerDay.toFixed(2),
      billed: null,
    });
    expect((await feedTypes(orderNumber)).slice(-3)).toEqual(["loaner.opened", "loaner.due_soon", "loaner.overdue"]);
    // An overdue loaner is not overdue a second time.
    await expectProblem(await simulate(orderNumber, { scenario: "loaner_overdue" }), 409);

    const received = await simulate(orderNumber, { scenario: "loaner_received" });
    expect(received.status, await received.clone().text()).toBe(200);
    const [charged] = await returnsOf(orderNumber);
    expect(charged).toMatchObject({ status: "charged", billed: lateFeePerDay.toFixed(2), invoiceId: expect.any(Number) });
    expect((await feedTypes(orderNumber)).slice(-3)).toEqual(["loaner.shipped", "loaner.received", "loaner.charged"]);
    const invoice = (await json(await call(await test(), `/invoices/${charged.invoiceId}`))).data;
    expect(invoice).toMatchObject({
      origin: "late_fee",
      invoiceNumber: `MP:${charged.rmaNumber}:LATE`,
      orderNumber,
      total: lateFeePerDay.toFixed(2),
    });
  });

  it("a loaner received before its due day is billed nothing", async () => {
    const orderNumber = await testOrderWith(LOAN);
    expect((await simulate(orderNumber, { scenario: "ship" })).status).toBe(200);
    const res = await simulate(orderNumber, { scenario: "loaner_received" });
    expect(res.status, await res.clone().text()).toBe(200);
    const [loaner] = await returnsOf(orderNumber);
    expect(loaner).toMatchObject({ kind: "loaner", status: "received", accruedLateFees: "0.00", billed: null, invoiceId: null });
    expect((await feedTypes(orderNumber)).slice(-2)).toEqual(["loaner.shipped", "loaner.received"]);
  });

  it("a repair beyond its flat rate waits for the test buyer's decision", async () => {
    const orderNumber = await testOrderWith(REPAIR, { repair: { serialNumber: "SBX-SN-1", reason: "no_power" } });
    const res = await simulate(orderNumber, { scenario: "repair_beyond_flat_rate" });
    expect(res.status, await res.clone().text()).toBe(200);
    const [repair] = await returnsOf(orderNumber);
    expect(repair).toMatchObject({ kind: "repair", status: "quoted", proposedPrice: "1200.00", repairPrice: "800.00" });
    expect((await feedTypes(orderNumber)).slice(-3)).toEqual(["repair.unit_shipped", "repair.received", "repair.quoted"]);
  });

  it("a return declined", async () => {
    const { orderNumber } = await testOrder(2);
    await simulate(orderNumber, { scenario: "ship" });
    await simulate(orderNumber, { scenario: "deliver" });
    const lineId = (await json(await call(await test(), `/orders/${orderNumber}?include=lineItems`))).data.lineItems[0].lineId;
    const requested = await call(await test(), `/orders/${orderNumber}/lines/${lineId}/returns`, {
      method: "POST",
      json: { quantity: 1, reason: "not_needed" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(requested.status, await requested.clone().text()).toBe(201);
    const res = await simulate(orderNumber, { scenario: "rma_declined", reason: "Opened" });
    expect(res.status).toBe(200);
    expect((await returnsOf(orderNumber))[0]).toMatchObject({ kind: "rma", status: "declined", outcomeReason: "Opened" });
    // Nothing left to decline.
    await expectProblem(await simulate(orderNumber, { scenario: "rma_declined" }), 409);
  });
});
