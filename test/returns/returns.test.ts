import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { raiseDueReturns } from "../../src/api/returns/due";
import { STEPS } from "../../src/api/returns/steps";
import type { TenantStore } from "../../src/api/stores/tenant-store";
import { productId } from "../../src/dev/seed/catalog";
import { housekeeping } from "../../src/platform/housekeeping";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { tenantStore } from "../../src/shared/tenants/stub";
import { call, expectProblem, json, TENANT_A, TENANT_B, testModeTokenFor, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall, servedDocument, validateAgainst } from "../helpers/contract";
import { invoiceBody } from "../helpers/invoices";
import { orderBody, eventsOf as orderEvents, placeOrder } from "../helpers/orders";
import {
  boughtOption,
  EXCHANGE,
  LOAN,
  optionWith,
  orderOf,
  REPAIR,
  returnsOf,
  shipLine,
  RETURNS_VENDOR as VENDOR,
} from "../helpers/returns";
import { storeRows } from "../helpers/stores";
import { tomorrow, vendorCall } from "../helpers/vendors";

/**
 * Returns, cores, loaners and repairs (docs/api.md, "Returns, cores, loaners and repairs"): purchase types on offers and
 * price options, an exchange's core, a loaner's late fees, a send-in repair, a return of bought units, the daily due
 * steps, all of it in the tenant's store.
 */

const OTHER_VENDOR = 1;
const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

const rows = (sql: string, ...params: (string | number)[]) => storeRows(TENANT_A, sql, ...params);

const eventsOf = async (orderNumber: string) =>
  (await orderEvents(orderNumber)).map(({ type, payload, sequence }) => ({
    type,
    payload: JSON.parse(payload) as Record<string, unknown>,
    sequence,
  }));
const typesOf = async (orderNumber: string) => (await eventsOf(orderNumber)).map((e) => e.type);

const buyer = async (path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) =>
  contractCall(await tokenFor(TENANT_A), path, init);

async function step(path: string, body: unknown, vendor = true) {
  const res = vendor ? await vendorCall(VENDOR, path, { method: "POST", json: body }) : await buyer(path, { method: "POST", json: body });
  const answer = await json(res);
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer.data as { return: any; eventId: string | null };
}

/**
 * The housekeeping's due steps in the tenant's store at `now`, as its housekeeping takes them, without the purges that
 * come with them (at a `now` weeks ahead they would purge the events of the other flows, which the feed's case reads).
 */
const runDue = (now: Date) => housekeeping({ DB: tenantStoreDatabase(env, TENANT_A) }, now, { returnsDue: raiseDueReturns });

/** The store's whole housekeeping as the cron calls it (its purges, then its due steps), at `now`. */
const housekeepStore = (now: Date) => (tenantStore(env, TENANT_A) as unknown as DurableObjectStub<TenantStore>).housekeep(now.getTime());

describe("returns, cores, loaners and repairs", () => {
  it("an exchange: the price option carries its terms, the parcel opens the core, the buyer ships it back with its UDI, the vendor accepts it", async () => {
    const option = await optionWith(EXCHANGE);
    expect(option.purchaseType).toBe("exchange");
    expect(option.purchaseTerms).toEqual({
      type: "exchange",
      coreCharge: 300,
      coreDueDays: 30,
      coreConditions: ["Complete"],
      returnTo: null,
    });
    const { orderNumber, lineId } = await orderOf(option, 2);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    const due = new Date(Date.parse(`${today()}T00:00:00Z`) + 30 * DAY).toISOString().slice(0, 10);
    expect(core).toMatchObject({ kind: "core", status: "open", open: true, quantity: 2, coreCharge: "300.00", dueAt: due, lineId });
    expect(core.rmaNumber).toMatch(/^RMA-[0-9A-Z]{10}$/);
    expect(core.nextSteps).toEqual([{ step: "ship", actor: "buyer" }]);
    const opened = (await eventsOf(orderNumber)).find((e) => e.type === "core.opened")!;
    expect(opened.payload).toMatchObject({ returnId: core.returnId, rmaNumber: core.rmaNumber, amount: "300.00", dueAt: due });

    const shipped = await step(
      `/returns/${core.returnId}/ship`,
      { carrierName: "UPS", trackingNumber: "1ZCORE0001", udi: "(01)00614100000015(21)SN-CORE-7" },
      false,
    );
    expect(shipped.return).toMatchObject({ status: "shipped", serialNumber: "SN-CORE-7", inbound: { trackingNumber: "1ZCORE0001" } });
    expect(shipped.return.inbound.udi).toMatchObject({ agency: "GS1", deviceId: "00614100000015", serial: "SN-CORE-7" });
    // The same parcel again: nothing new.
    expect((await step(`/returns/${core.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZCORE0001" }, false)).eventId).toBeNull();
    // A core's grade is required.
    await expectProblem(await vendorCall(VENDOR, `/returns/${core.returnId}/receive`, { method: "POST", json: {} }), 400);
    const received = await step(`/returns/${core.returnId}/receive`, { outcome: "accepted" });
    expect(received.return).toMatchObject({ status: "accepted", open: false, billed: null, nextSteps: [] });
    expect(await typesOf(orderNumber)).toEqual([
      "order.created",
      "order.acknowledged",
      "order.shipped",
      "core.opened",
      "core.shipped",
      "core.received",
    ]);
    // Each event numbered in the order's sequence, no gap.
    expect((await eventsOf(orderNumber)).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a refused core is charged: an invoice of its charge, born matched, linked to the line; the buyer can dispute it", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 3);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    await step(`/returns/${core.returnId}/ship`, { carrierName: "FedEx", trackingNumber: "FX-REFUSED-1" }, false);
    await expectProblem(
      await vendorCall(VENDOR, `/returns/${core.returnId}/receive`, { method: "POST", json: { outcome: "refused" } }),
      400,
    );
    const refused = await step(`/returns/${core.returnId}/receive`, { outcome: "refused", reason: "Cracked housing" });
    expect(refused.return).toMatchObject({ status: "charged", outcome: "refused", outcomeReason: "Cracked housing", billed: "900.00" });
    const invoice = (await json(await buyer(`/invoices/${refused.return.invoiceId}`))).data;
    expect(invoice).toMatchObject({ origin: "core_charge", status: "matched", total: "900.00", orderNumber });
    expect(invoice.lines).toEqual([
      expect.objectContaining({ lineId, quantity: 3, unitPrice: "300.00", amount: "900.00", matchStatus: "matched" }),
    ]);
    const events = await eventsOf(orderNumber);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["core.refused", "core.charged"]);
    expect(events.at(-1)!.payload).toMatchObject({ invoiceId: invoice.invoiceId, amount: "900.00", returnStatus: "charged" });
    // A charge takes no part in the three-way match: the vendor's own invoice of the 3 units still matches.
    const goods = await vendorCall(VENDOR, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 3, unitPriceCents: 80_000 }]),
    });
    expect((await json(goods)).data.status).toBe("matched");
    const disputed = await buyer(`/invoices/${invoice.invoiceId}/dispute`, { method: "POST", json: { reason: "Core was fine" } });
    expect((await json(disputed)).data.invoice.status).toBe("disputed");
  });

  it("the due steps: a warning once within the warning days, then overdue and charged once past the due day, whatever the retries", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    const dueAt = Date.parse(`${core.dueAt}T00:00:00Z`);
    // Eight days before: nothing by default (3 days), the warning once the tenant asks for 10; once, however often.
    await runDue(new Date(dueAt - 8 * DAY));
    expect(await typesOf(orderNumber)).not.toContain("core.due_soon");
    const settings = { autoAcceptPriceIncrease: null, priceTolerance: { percent: null, amount: null }, quantityTolerance: 0 };
    expect((await buyer("/purchasing-settings", { method: "PUT", json: { ...settings, dueSoonDays: 10 } })).status).toBe(200);
    try {
      await runDue(new Date(dueAt - 8 * DAY));
      await runDue(new Date(dueAt - 2 * DAY + 3600_000));
    } finally {
      expect((await json(await buyer("/purchasing-settings", { method: "PUT", json: settings }))).data.dueSoonDays).toBe(3);
    }
    expect((await typesOf(orderNumber)).filter((t) => t === "core.due_soon")).toHaveLength(1);
    // On the due day it is not late yet; the day after it is overdue and charged, once however often the cron runs.
    await runDue(new Date(dueAt + 3600_000));
    expect(await typesOf(orderNumber)).not.toContain("core.overdue");
    for (let run = 0; run < 3; run++) await runDue(new Date(dueAt + DAY + 60_000));
    const types = await typesOf(orderNumber);
    expect(types.filter((t) => t === "core.overdue")).toHaveLength(1);
    expect(types.filter((t) => t === "core.charged")).toHaveLength(1);
    const after = (await json(await buyer(`/returns/${core.returnId}`))).data;
    expect(after).toMatchObject({ status: "charged", billed: "300.00", dueSoonNotifiedAt: expect.any(String) });
    // Too late to ship it back now.
    const late = await buyer(`/returns/${core.returnId}/ship`, {
      method: "POST",
      json: { carrierName: "UPS", trackingNumber: "1ZLATE0001" },
    });
    expect((await expectProblem(late, 409)).type).toMatch(/invalid-transition/);
  });

  it("a loaner: overdue, shipped back late, received: its late fees (days × units × fee) are billed", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(LOAN, 150), 2);
    await shipLine(lineId);
    const [loaner] = await returnsOf(`kind:loaner AND orderNumber:"${orderNumber}"`);
    expect(loaner).toMatchObject({ status: "open", lateFeePerDay: "12.50", accruedLateFees: "0.00" });
    // Two days before its due day: the warning.
    await runDue(new Date(Date.parse(`${loaner.dueAt}T00:00:00Z`) - 2 * DAY));
    expect(await typesOf(orderNumber)).toContain("loaner.due_soon");
    // Three days pass after its due day (the due day moved back, as time passing would): overdue, then shipped back.
    const threeDaysAgo = new Date(Date.parse(`${today()}T00:00:00Z`) - 3 * DAY).toISOString();
    await rows("UPDATE unit_returns SET due_at = ? WHERE id = ?", threeDaysAgo, loaner.returnId);
    await housekeepStore(new Date());
    const overdue = (await json(await buyer(`/returns/${loaner.returnId}`))).data;
    // 3 days × 2 units × 12.50 so far.
    expect(overdue).toMatchObject({ status: "overdue", accruedLateFees: "75.00" });
    await step(`/returns/${loaner.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZLOAN0001" }, false);
    const received = await step(`/returns/${loaner.returnId}/receive`, {});
    expect(received.return).toMatchObject({ status: "charged", billed: "75.00", accruedLateFees: "75.00" });
    const invoice = (await json(await buyer(`/invoices/${received.return.invoiceId}`))).data;
    expect(invoice).toMatchObject({ origin: "late_fee", total: "75.00" });
    expect(invoice.lines[0]).toMatchObject({ quantity: 6, unitPrice: "12.50", lineId });
    expect((await typesOf(orderNumber)).slice(-4)).toEqual(["loaner.overdue", "loaner.shipped", "loaner.received", "loaner.charged"]);
  });

  it("a repair line is one unit with its serial and a reason from the list; anything else is a 422 naming the field", async () => {
    const option = await optionWith(REPAIR, 450);
    expect(option.purchaseTerms).toMatchObject({ type: "repair", turnaroundDays: 10, reasons: ["error_code", "no_power"] });
    const line = { priceOptionId: option!.priceOptionId, productId: option!.productId, price: option!.price };
    /** POST /orders answers business rules in the spec's form (section 7): 422 with the errors. */
    const refused = async (res: Response) => {
      expect(res.status).toBe(422);
      return (await json(res)).errors as string[];
    };
    const problems = async (item: { quantity: number; repair?: { serialNumber: string; reason: string } }) =>
      refused(await placeOrder(orderBody([{ ...line, ...item }])));
    expect(await problems({ quantity: 2, repair: { serialNumber: "SN-1", reason: "error_code" } })).toEqual([
      expect.stringContaining("quoteItems[0].quantity"),
    ]);
    expect(await problems({ quantity: 1 })).toEqual([expect.stringContaining("quoteItems[0].repair")]);
    expect(await problems({ quantity: 1, repair: { serialNumber: "SN-1", reason: "bored" } })).toEqual([
      expect.stringContaining("quoteItems[0].repair.reason"),
    ]);
    expect(await problems({ quantity: 1, repair: { serialNumber: "SN-1", reason: "fluid_leak" } })).toEqual([
      expect.stringContaining("not a reason this vendor repairs"),
    ]);
    // A repair request on a bought part is refused too.
    const bought = await boughtOption();
    const onBuy = await placeOrder(
      orderBody([
        {
          priceOptionId: bought.priceOptionId,
          productId: bought.productId,
          price: bought.price,
          quantity: 1,
          repair: { serialNumber: "S", reason: "other" },
        },
      ]),
    );
    expect(await refused(onBuy)).toEqual([expect.stringContaining("quoteItems[0].repair")]);
  });

  it("a repair beyond its flat rate: the buyer approves the new price (the line and total follow), the unit comes back repaired", async () => {
    const option = await optionWith(REPAIR, 450);
    const { orderNumber } = await orderOf(option, 1, { repair: { serialNumber: "SN-REP-1", reason: "error_code", description: "E-42" } });
    const [repair] = await returnsOf(`kind:repair AND serialNumber:"SN-REP-1" AND orderNumber:"${orderNumber}"`);
    expect(repair).toMatchObject({ status: "awaiting_unit", reason: "error_code", note: "E-42", repairPrice: "450.00", quantity: 1 });
    await step(`/returns/${repair.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZREPAIR01" }, false);
    await step(`/returns/${repair.returnId}/receive`, {});
    await expectProblem(
      await vendorCall(VENDOR, `/returns/${repair.returnId}/diagnose`, {
        method: "POST",
        json: { withinFlatRate: false, price: "400.00" },
      }),
      400,
    );
    const quoted = await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: false, price: "980.00", reason: "Main board" });
    expect(quoted.return).toMatchObject({
      status: "quoted",
      proposedPrice: "980.00",
      nextSteps: [{ step: "repair-decision", actor: "buyer" }],
    });
    // The vendor cannot send it back while the buyer decides.
    await expectProblem(
      await vendorCall(VENDOR, `/returns/${repair.returnId}/send-back`, {
        method: "POST",
        json: { carrierName: "UPS", trackingNumber: "1ZBACK0001" },
      }),
      409,
    );
    const approved = await step(`/returns/${repair.returnId}/repair-decision`, { decision: "approve" }, false);
    expect(approved.return).toMatchObject({ status: "repairing", repairPrice: "980.00" });
    expect((await step(`/returns/${repair.returnId}/repair-decision`, { decision: "approve" }, false)).eventId).toBeNull();
    const orderAfter = (await json(await buyer(`/orders/${orderNumber}?include=lineItems,history`))).data;
    expect(orderAfter.lineItems[0].price).toBe(980);
    // The approved price is a price revision like any other: decimal strings, never cents.
    expect(orderAfter.history.find((r: { code: string }) => r.code === "approve-repair")).toMatchObject({
      actor: "buyer",
      changes: [{ field: "price", from: "450.00", to: "980.00" }],
    });
    const back = await step(`/returns/${repair.returnId}/send-back`, { carrierName: "UPS", trackingNumber: "1ZBACK0001" });
    expect(back.return).toMatchObject({ status: "returned", open: false, outbound: { repaired: true, trackingNumber: "1ZBACK0001" } });
    expect((await typesOf(orderNumber)).slice(1)).toEqual([
      "repair.unit_shipped",
      "repair.received",
      "repair.quoted",
      "repair.approved",
      "repair.returned",
    ]);
  });

  it("a repair declined beyond the flat rate comes back unrepaired", async () => {
    const { orderNumber } = await orderOf(await optionWith(REPAIR, 450), 1, { repair: { serialNumber: "SN-REP-2", reason: "no_power" } });
    const [repair] = await returnsOf(`orderNumber:"${orderNumber}"`);
    await step(`/returns/${repair.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZREPAIR02" }, false);
    await step(`/returns/${repair.returnId}/receive`, {});
    await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: false, price: "700.00" });
    await step(`/returns/${repair.returnId}/repair-decision`, { decision: "decline", reason: "Over budget" }, false);
    const back = await step(`/returns/${repair.returnId}/send-back`, { carrierName: "UPS", trackingNumber: "1ZBACK0002" });
    expect(back.return).toMatchObject({ status: "returned", repairPrice: "450.00", outbound: { repaired: false } });
  });

  it("a repair within its flat rate goes on at once, and comes back repaired", async () => {
    const { orderNumber } = await orderOf(await optionWith(REPAIR, 450), 1, { repair: { serialNumber: "SN-REP-3", reason: "error_code" } });
    const [repair] = await returnsOf(`orderNumber:"${orderNumber}"`);
    await step(`/returns/${repair.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZREPAIR03" }, false);
    await step(`/returns/${repair.returnId}/receive`, {});
    const diagnosed = await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: true, reason: "Loose connector" });
    expect(diagnosed.return).toMatchObject({ status: "repairing", outcome: "within_flat_rate", proposedPrice: null });
    expect((await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: true })).eventId).toBeNull();
    const back = await step(`/returns/${repair.returnId}/send-back`, { carrierName: "UPS", trackingNumber: "1ZBACK0003" });
    expect(back.return).toMatchObject({ status: "returned", repairPrice: "450.00", outbound: { repaired: true } });
  });

  it("a return of bought units: never more than delivered (a retry answers the same), authorized, shipped, received with its credit due", async () => {
    const option = await boughtOption();
    const res = await placeOrder(
      orderBody([{ priceOptionId: option.priceOptionId, productId: option.productId, price: option.price, quantity: 3 }]),
    );
    const orderNumber = (await json(res)).data.orderNumber as string;
    const lineId = (await json(await buyer(`/orders/${orderNumber}?include=lineItems`))).data.lineItems[0].lineId as number;
    const vendor = (await rows("SELECT vendor_id AS v FROM order_lines WHERE id = ?", lineId))[0]!.v as number;
    const request = (quantity: number, key = crypto.randomUUID()) =>
      buyer(`/orders/${orderNumber}/lines/${lineId}/returns`, {
        method: "POST",
        json: { quantity, reason: "wrong_part" },
        headers: { "Idempotency-Key": key },
      });
    // Not delivered yet.
    expect((await expectProblem(await request(1), 409)).type).toMatch(/not-delivered/);
    await vendorCall(vendor, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
    await vendorCall(vendor, `/order-lines/${lineId}/ship`, { method: "POST", json: { trackingNumber: "1ZRMA00001" } });
    await vendorCall(vendor, `/order-lines/${lineId}/deliver`, { method: "POST", json: {} });
    const key = crypto.randomUUID();
    const first = await request(2, key);
    expect(first.status).toBe(201);
    const requested = (await json(first)).data.return;
    expect(requested).toMatchObject({ kind: "rma", status: "requested", quantity: 2, reason: "wrong_part", rmaNumber: null });
    const again = await request(2, key);
    expect(again.status).toBe(200);
    expect((await json(again)).data.return.returnId).toBe(requested.returnId);
    expect((await expectProblem(await request(2), 400)).errors ?? []).toBeDefined();
    // Two requests of the last unit at once: one is written, the other is refused (never 4 units in returns).
    const [a, b] = await Promise.all([request(1), request(1)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const inReturns = await rows("SELECT sum(quantity) AS n FROM unit_returns WHERE line_id = ? AND kind = 'rma'", lineId);
    expect(inReturns[0]!.n).toBe(3);
    // The vendor finds it on its line, and authorizes it.
    const listed = (await json(await vendorCall(vendor, `/order-lines/${lineId}/returns`))).data.returns as any[];
    expect(listed.map((r) => r.returnId)).toContain(requested.returnId);
    await expectProblem(await vendorCall(vendor, `/returns/${requested.returnId}/receive`, { method: "POST", json: {} }), 409);
    const authorized = await vendorCall(vendor, `/returns/${requested.returnId}/authorize`, {
      method: "POST",
      json: { rmaNumber: "RMA-V-1", returnBy: tomorrow(), restockingFee: "10.00" },
    });
    expect((await json(authorized)).data.return).toMatchObject({
      status: "authorized",
      rmaNumber: "RMA-V-1",
      restockingFee: "10.00",
      dueAt: tomorrow(),
    });
    // The same authorization again is a repeat; one with other terms is not a step from authorized.
    const sameAgain = await vendorCall(vendor, `/returns/${requested.returnId}/authorize`, {
      method: "POST",
      json: { rmaNumber: "RMA-V-1", returnBy: tomorrow(), restockingFee: "10.00" },
    });
    expect((await json(sameAgain)).data.eventId).toBeNull();
    const changed = await vendorCall(vendor, `/returns/${requested.returnId}/authorize`, {
      method: "POST",
      json: { rmaNumber: "RMA-V-1", returnBy: tomorrow(), restockingFee: "20.00" },
    });
    await expectProblem(changed, 409);
    await step(`/returns/${requested.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZRMABACK1" }, false);
    const received = (await json(await vendorCall(vendor, `/returns/${requested.returnId}/receive`, { method: "POST", json: {} }))).data
      .return;
    const credit = Math.round(option.price * 100) * 2 - 1000;
    expect(received).toMatchObject({
      status: "received",
      open: false,
      creditDue: `${Math.floor(credit / 100)}.${String(credit % 100).padStart(2, "0")}`,
    });
    // Another request declined frees its units again.
    const other = (await json(await buyer(`/returns?q=${encodeURIComponent(`kind:rma AND status:requested AND lineId:${lineId}`)}`))).data
      .returns[0];
    const declined = await vendorCall(vendor, `/returns/${other.returnId}/decline`, {
      method: "POST",
      json: { reason: "Opened packaging" },
    });
    expect((await json(declined)).data.return).toMatchObject({ status: "declined", creditDue: null });
    expect((await request(1)).status).toBe(201);
    expect((await typesOf(orderNumber)).filter((t) => t.startsWith("return."))).toEqual([
      "return.requested",
      "return.requested",
      "return.authorized",
      "return.shipped",
      "return.received",
      "return.declined",
      "return.requested",
    ]);
  });

  it("a repair approved at a new price matches the vendor's invoice again; a repair whose line is cancelled before its unit goes in is closed", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(REPAIR, 450), 1, {
      repair: { serialNumber: "SN-REP-4", reason: "error_code" },
    });
    const [repair] = await returnsOf(`orderNumber:"${orderNumber}"`);
    await step(`/returns/${repair.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZREPAIR04" }, false);
    await step(`/returns/${repair.returnId}/receive`, {});
    await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: false, price: "600.00" });
    // The vendor invoices the repair at its new price before the buyer answers: an exception, until the buyer approves.
    await vendorCall(VENDOR, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
    await vendorCall(VENDOR, `/order-lines/${lineId}/ship`, { method: "POST", json: { trackingNumber: "1ZREPLINE4" } });
    const invoiced = await vendorCall(VENDOR, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 1, unitPriceCents: 60_000 }]),
    });
    const invoice = (await json(invoiced)).data;
    expect(invoice.status).toBe("exception");
    await step(`/returns/${repair.returnId}/repair-decision`, { decision: "approve" }, false);
    expect((await json(await buyer(`/invoices/${invoice.invoiceId}`))).data.status).toBe("matched");
    expect((await typesOf(orderNumber)).slice(-2)).toEqual(["repair.approved", "invoice.matched"]);

    const cancelledLine = await orderOf(await optionWith(REPAIR, 450), 1, { repair: { serialNumber: "SN-REP-5", reason: "no_power" } });
    const cancel = await buyer(`/orders/${cancelledLine.orderNumber}/cancel`, {
      method: "POST",
      json: {},
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(cancel.status).toBe(200);
    const [closed] = await returnsOf(`orderNumber:"${cancelledLine.orderNumber}"`);
    expect(closed).toMatchObject({ status: "cancelled", open: false, nextSteps: [] });
    const ship = await buyer(`/returns/${closed.returnId}/ship`, {
      method: "POST",
      json: { carrierName: "UPS", trackingNumber: "1ZREPAIR05" },
    });
    expect((await expectProblem(ship, 409)).type).toMatch(/line-withdrawn/);
  });

  it("what a step refuses: a parcel dated days before its report, another authorization of an authorized return, an approval after a decline", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`orderNumber:"${orderNumber}"`);
    const backdated = await buyer(`/returns/${core.returnId}/ship`, {
      method: "POST",
      json: { carrierName: "UPS", trackingNumber: "1ZBACKDATE", shippedAt: new Date(Date.now() - 3 * DAY).toISOString() },
    });
    expect(JSON.stringify(await expectProblem(backdated, 400))).toContain("shippedAt");

    const { orderNumber: declined } = await orderOf(await optionWith(REPAIR, 450), 1, {
      repair: { serialNumber: "SN-REP-6", reason: "no_power" },
    });
    const [repair] = await returnsOf(`orderNumber:"${declined}"`);
    await step(`/returns/${repair.returnId}/ship`, { carrierName: "UPS", trackingNumber: "1ZREPAIR06" }, false);
    await step(`/returns/${repair.returnId}/receive`, {});
    await step(`/returns/${repair.returnId}/diagnose`, { withinFlatRate: false, price: "700.00" });
    await step(`/returns/${repair.returnId}/repair-decision`, { decision: "decline" }, false);
    await step(`/returns/${repair.returnId}/send-back`, { carrierName: "UPS", trackingNumber: "1ZBACK0006" });
    const late = await buyer(`/returns/${repair.returnId}/repair-decision`, { method: "POST", json: { decision: "approve" } });
    expect((await expectProblem(late, 409)).type).toMatch(/invalid-transition/);
  });

  it("another tenant and another vendor see none of it; a line bought on exchange is not returned as an RMA", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`orderNumber:"${orderNumber}"`);
    await expectProblem(await contractCall(await tokenFor(TENANT_B), `/returns/${core.returnId}`), 404);
    expect(
      (await json(await contractCall(await tokenFor(TENANT_B), `/returns?q=${encodeURIComponent(`orderNumber:"${orderNumber}"`)}`))).data
        .returns,
    ).toEqual([]);
    await expectProblem(await vendorCall(OTHER_VENDOR, `/returns/${core.returnId}`), 404);
    // The tenant's own test mode sees none of its live returns.
    await expectProblem(await contractCall(await testModeTokenFor(TENANT_A), `/returns/${core.returnId}`), 404);
    await expectProblem(
      await vendorCall(OTHER_VENDOR, `/returns/${core.returnId}/receive`, { method: "POST", json: { outcome: "accepted" } }),
      404,
    );
    await vendorCall(VENDOR, `/order-lines/${lineId}/deliver`, { method: "POST", json: {} });
    const rma = await buyer(`/orders/${orderNumber}/lines/${lineId}/returns`, {
      method: "POST",
      json: { quantity: 1, reason: "damaged" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    await expectProblem(rma, 422);
  });

  it("every return event of the flows above is in the feed as the document describes its type, and every type was seen", async () => {
    const document = await servedDocument();
    const token = await tokenFor(TENANT_A, ["events:read"]);
    const seen = new Set<string>();
    let after = "";
    for (;;) {
      const page = (await json(await contractCall(token, `/events?limit=100${after && `&after=${after}`}`))).data;
      for (const event of page.events as { type: string }[]) {
        if (!RETURN_EVENT_TYPES.includes(event.type)) continue;
        seen.add(event.type);
        expect(validateAgainst(document, "#/components/schemas/Event", event).errors, JSON.stringify(event)).toEqual([]);
      }
      if (!page.hasMore) break;
      after = page.nextCursor;
    }
    expect([...seen].sort()).toEqual([...RETURN_EVENT_TYPES].sort());
  });
});

/** Every event of a return's steps (src/api/returns/steps.ts). */
const RETURN_EVENT_TYPES: string[] = [...new Set(Object.values(STEPS).flatMap((steps) => Object.values(steps).map((rule) => rule.event)))];

describe("purchase terms on offers", () => {
  it("each type takes its own terms object and refuses the others, naming the field", async () => {
    const put = async (body: Record<string, unknown>) =>
      call(await vendorTokenFor(VENDOR), `/vendor/api/offers/TERMS-${crypto.randomUUID().slice(0, 6)}`, {
        method: "PUT",
        json: {
          productId: productId(5),
          condition: "New",
          purchaseChoice: "Exchange",
          warranty: "None",
          price: 10,
          leadTimeDays: 1,
          ...body,
        },
      });
    const missing = await expectProblem(await put({ purchaseType: "exchange" }), 400);
    expect(JSON.stringify(missing)).toContain("exchangeTerms");
    const extra = await expectProblem(await put({ loanTerms: { loanDays: 5, lateFeePerDay: 1 } }), 400);
    expect(JSON.stringify(extra)).toContain("loanTerms");
    const written = await put(LOAN);
    expect(written.status).toBe(201);
    expect((await json(written)).data).toMatchObject({
      purchaseType: "loan",
      purchaseTerms: { type: "loan", loanDays: 14, lateFeePerDay: 12.5 },
    });
  });
});
