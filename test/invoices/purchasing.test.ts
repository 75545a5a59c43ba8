import { describe, expect, it } from "vitest";
import { expectProblem, json, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { invoiceBody } from "../helpers/invoices";
import { eventsOf, freshOrder } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { tomorrow, vendorCall, vendorOf } from "../helpers/vendors";

/**
 * The money side of an order (docs/api.md, "Confirmations", "Invoices"): a vendor's confirmation with changes, the
 * buyer's answer, invoices matched against the order and what shipped, credit memos, the buyer's accept and dispute,
 * all of it in the tenant's store.
 */

const rows = (sql: string, ...params: (string | number)[]) => storeRows(TENANT_A, sql, ...params);

const eventTypes = async (orderNumber: string) => (await eventsOf(orderNumber)).map((event) => event.type);

const buyer = async (path: string, init: { method?: string; json?: unknown } = {}) => contractCall(await tokenFor(TENANT_A), path, init);

const readOrder = async (orderNumber: string) => (await json(await buyer(`/orders/${orderNumber}?include=lineItems,history`))).data;

/** Ships all of a line in one parcel, as its vendor. */
async function shipAll(vendorId: number, lineId: number) {
  const res = await vendorCall(vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
  expect(res.status).toBe(200);
  const shipped = await vendorCall(vendorId, `/order-lines/${lineId}/ship`, {
    method: "POST",
    json: { trackingNumber: `1Z${crypto.randomUUID().slice(0, 8)}` },
  });
  expect(shipped.status, await shipped.clone().text()).toBe(200);
}

const cents = (text: string) => Math.round(Number(text) * 100);
const money = (value: number) => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, "0")}`;

/** A credit memo of the invoice: these lines (each `{ invoiceLineNumber, quantity, unitPriceCents, amountCents }`), or all that remains of it. */
function creditMemoBody(
  invoiceId: number,
  lines?: { invoiceLineNumber: number; quantity: number; unitPriceCents: number; amountCents?: number }[],
) {
  const head = {
    creditMemoNumber: `CM-${crypto.randomUUID().slice(0, 8)}`,
    invoiceId,
    creditDate: new Date().toISOString().slice(0, 10),
    currency: "USD",
  };
  if (!lines) return head;
  const amounts = lines.map((line) => line.amountCents ?? line.unitPriceCents * line.quantity);
  const total = money(amounts.reduce((sum, amount) => sum + amount, 0));
  return {
    ...head,
    lines: lines.map((line, i) => ({
      invoiceLineNumber: line.invoiceLineNumber,
      quantity: line.quantity,
      unitPrice: money(line.unitPriceCents),
      amount: money(amounts[i]!),
    })),
    summary: { subtotal: total, tax: "0.00", freight: "0.00", total },
  };
}

describe("purchasing of an order", () => {
  it("a price increase waits for the buyer, who accepts it: the line takes the price, the total follows, the history shows both", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const before = (await readOrder(orderNumber)).lineItems[0];
    const higher = money(cents(String(before.price)) + 500);
    const res = await vendorCall(vendorId, "/order-confirmations", {
      method: "POST",
      json: { type: "detail", lines: [{ lineId, code: "price_changed", unitPrice: higher, reason: "Manufacturer increase" }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const confirmed = (await json(res)).data;
    expect(confirmed.eventId).toEqual(expect.any(String));
    expect(confirmed.lines[0]).toMatchObject({
      statusName: "Ordered",
      confirmationCode: "IP",
      pendingChange: { code: "IP", unitPrice: higher },
    });
    // Repeated: nothing changes, no event.
    const again = await vendorCall(vendorId, "/order-confirmations", {
      method: "POST",
      json: { type: "detail", lines: [{ lineId, code: "IP", unitPrice: higher, reason: "Manufacturer increase" }] },
    });
    expect((await json(again)).data.eventId).toBeNull();
    const pending = (await readOrder(orderNumber)).lineItems[0];
    expect(pending).toMatchObject({
      price: before.price,
      confirmationCode: "IP",
      pendingChange: { unitPrice: higher, contractPriceException: false },
    });
    // The vendor answers again (a backorder): its new answer replaces the proposal, and the buyer has nothing to answer.
    const backordered = await vendorCall(vendorId, `/order-lines/${lineId}/backorder`, {
      method: "POST",
      json: { expectedShipDate: tomorrow() },
    });
    expect((await json(backordered)).data.line.pendingChange).toBeNull();
    const decided = await buyer(`/orders/${orderNumber}/lines/${lineId}/change-decision`, { method: "POST", json: { decision: "accept" } });
    expect((await expectProblem(decided, 409)).type).toMatch(/no-change-pending/);
  });

  it("the buyer accepts a pending price increase: price, extended price and total change; the revisions say who did what", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const before = (await readOrder(orderNumber)).lineItems[0];
    const higherCents = cents(String(before.price)) + 500;
    expect(
      (
        await vendorCall(vendorId, "/order-confirmations", {
          method: "POST",
          json: { type: "detail", lines: [{ lineId, code: "IP", unitPrice: money(higherCents), promisedShipDate: tomorrow() }] },
        })
      ).status,
    ).toBe(200);
    const { pendingChange } = (await readOrder(orderNumber)).lineItems[0];
    expect(pendingChange).toMatchObject({ code: "IP", unitPrice: money(higherCents) });
    const ship = await vendorCall(vendorId, `/order-lines/${lineId}/ship`, { method: "POST", json: { trackingNumber: "1ZPENDING1" } });
    expect(ship.status).toBe(409);
    const res = await buyer(`/orders/${orderNumber}/lines/${lineId}/change-decision`, { method: "POST", json: { decision: "accept" } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data).toMatchObject({ lineStatus: "Acknowledged", orderStatus: "Acknowledged", eventId: expect.any(String) });
    const again = await buyer(`/orders/${orderNumber}/lines/${lineId}/change-decision`, { method: "POST", json: { decision: "accept" } });
    expect((await json(again)).data.eventId).toBeNull();
    await expectProblem(
      await buyer(`/orders/${orderNumber}/lines/${lineId}/change-decision`, { method: "POST", json: { decision: "decline" } }),
      409,
    );
    const order = await readOrder(orderNumber);
    expect(order.lineItems[0]).toMatchObject({
      price: higherCents / 100,
      extendedPrice: (higherCents * 2) / 100,
      pendingChange: null,
      promisedShipDate: tomorrow(),
    });
    expect(order.total).toBe((higherCents * 2) / 100);
    expect(order.history.map((r: { actor: string; code: string }) => `${r.actor}:${r.code}`)).toEqual(["vendor:IP", "buyer:accept-change"]);
    expect(order.history[1].changes).toEqual(
      expect.arrayContaining([
        { field: "price", from: money(higherCents - 500), to: money(higherCents) },
        { field: "status", from: "Ordered", to: "Acknowledged" },
      ]),
    );
    // The proposal in the history reads as the line's pendingChange did (money a decimal string), not as stored data.
    expect(order.history[0].changes).toContainEqual({ field: "proposedChange", from: null, to: pendingChange });
    expect(order.history[1].changes).toContainEqual({ field: "proposedChange", from: pendingChange, to: null });
    expect(await eventTypes(orderNumber)).toEqual(["order.created", "order.confirmed", "order.change_accepted"]);
  });

  it("revisions stored before the typed form read in it: a proposal's JSON text and a repair's price in cents", async () => {
    const { orderNumber, lineIds } = await freshOrder(1);
    const lineId = lineIds[0]!;
    const orderId = (await rows("SELECT order_id AS o FROM order_lines WHERE id = ?", lineId))[0]!.o as number;
    const proposal = { code: "IP", priceCents: 2150, contractPriceException: false, note: null, proposedAt: "2026-11-20T10:00:00.000Z" };
    const legacy = [
      [1, "vendor", "IP", [{ field: "proposedChange", from: null, to: JSON.stringify(proposal) }]],
      [2, "buyer", "approve-repair", [{ field: "priceCents", from: 30000, to: 45000 }]],
    ] as const;
    for (const [revision, actor, code, changes] of legacy) {
      await rows(
        "INSERT INTO order_line_revisions (line_id, revision, order_id, actor, actor_id, code, changes, note, at) VALUES (?, ?, ?, ?, NULL, ?, ?, NULL, ?)",
        lineId,
        revision,
        orderId,
        actor,
        code,
        JSON.stringify(changes),
        proposal.proposedAt,
      );
    }
    const { history } = await readOrder(orderNumber);
    expect(history.map((r: { changes: unknown }) => r.changes)).toEqual([
      [
        {
          field: "proposedChange",
          from: null,
          to: {
            code: "IP",
            unitPrice: "21.50",
            quantity: null,
            substitute: null,
            promisedShipDate: null,
            contractPriceException: false,
            note: null,
            proposedAt: proposal.proposedAt,
          },
        },
      ],
      [{ field: "price", from: "300.00", to: "450.00" }],
    ]);
  });

  it("within the tenant's automatic acceptance a price increase applies at once; a substitution still waits, and declining cancels the line", async () => {
    const settings = await buyer("/purchasing-settings", {
      method: "PUT",
      json: {
        autoAcceptPriceIncrease: { percent: "50", amount: null },
        priceTolerance: { percent: null, amount: null },
        quantityTolerance: 0,
      },
    });
    expect(settings.status, await settings.clone().text()).toBe(200);
    expect((await json(await buyer("/purchasing-settings"))).data.autoAcceptPriceIncrease).toEqual({ percent: "50.00", amount: null });
    try {
      const { orderNumber, lineIds } = await freshOrder(2);
      const [first, second] = lineIds as [number, number];
      const vendorId = await vendorOf(first);
      const before = (await readOrder(orderNumber)).lineItems;
      const res = await vendorCall(vendorId, "/order-confirmations", {
        method: "POST",
        json: {
          type: "detail",
          lines: [
            { lineId: first, code: "IP", unitPrice: money(cents(String(before[0].price)) + 1) },
            ...((await vendorOf(second)) === vendorId
              ? [{ lineId: second, code: "IS", substitute: { partNumber: "ALT-1", description: "Equivalent" } }]
              : []),
          ],
        },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const lines = (await json(res)).data.lines;
      expect(lines[0]).toMatchObject({
        statusName: "Acknowledged",
        pendingChange: null,
        price: (cents(String(before[0].price)) + 1) / 100,
      });
      if (lines[1]) {
        expect(lines[1]).toMatchObject({ statusName: "Ordered", pendingChange: { code: "IS", substitute: { partNumber: "ALT-1" } } });
        const declined = await buyer(`/orders/${orderNumber}/lines/${second}/change-decision`, {
          method: "POST",
          json: { decision: "decline", reason: "Not approved" },
        });
        expect((await json(declined)).data).toMatchObject({ lineStatus: "Cancelled" });
      }
    } finally {
      await buyer("/purchasing-settings", {
        method: "PUT",
        json: { autoAcceptPriceIncrease: null, priceTolerance: { percent: null, amount: null }, quantityTolerance: 0 },
      });
    }
  });

  it("an invoice of what shipped at the order's price matches; the same again answers it; another under its number is a 409", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 3 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    await shipAll(vendorId, lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const body = invoiceBody(orderNumber, [{ lineId, quantity: 3, unitPriceCents: priceCents }]);
    const res = await vendorCall(vendorId, "/invoices", { method: "POST", json: body });
    expect(res.status, await res.clone().text()).toBe(201);
    const invoice = (await json(res)).data;
    expect(invoice).toMatchObject({ kind: "invoice", status: "matched", matchStatus: "matched", total: money(priceCents * 3) });
    expect(invoice.lines[0]).toMatchObject({ lineId, matchStatus: "matched" });
    const again = await vendorCall(vendorId, "/invoices", { method: "POST", json: body });
    expect(again.status).toBe(200);
    expect((await json(again)).data.invoiceId).toBe(invoice.invoiceId);
    await expectProblem(
      await vendorCall(vendorId, "/invoices", {
        method: "POST",
        json: {
          ...body,
          lines: [{ ...body.lines[0], quantity: 2, amount: money(priceCents * 2) }],
          summary: { subtotal: money(priceCents * 2), tax: "0.00", freight: "0.00", total: money(priceCents * 2) },
        },
      }),
      409,
    );
    const read = await buyer(`/invoices/${invoice.invoiceId}`);
    expect((await json(read)).data).toMatchObject({ invoiceId: invoice.invoiceId, orderNumber, status: "matched" });
    const found = await buyer(`/invoices?q=${encodeURIComponent(`orderNumber:"${orderNumber}" AND status:matched`)}`);
    expect((await json(found)).data.invoices.map((i: { invoiceId: number }) => i.invoiceId)).toEqual([invoice.invoiceId]);
    // invoiceDate holds a day: the document's day matches it, the next one does not.
    const onDay = async (day: string) =>
      (await json(await buyer(`/invoices?q=${encodeURIComponent(`orderNumber:"${orderNumber}" AND invoiceDate:"${day}"`)}`))).data.invoices
        .length;
    const nextDay = new Date(Date.parse(`${body.invoiceDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await onDay(body.invoiceDate)).toBe(1);
    expect(await onDay(nextDay)).toBe(0);
    const events = await eventTypes(orderNumber);
    expect(events.slice(-2)).toEqual(["invoice.received", "invoice.matched"]);
    const [received] = await rows("SELECT payload FROM outbox_events WHERE aggregate_id = ? AND type = 'invoice.received'", orderNumber);
    expect(JSON.parse(received!.payload as string)).toMatchObject({ invoiceId: invoice.invoiceId, invoiceStatus: "matched", vendorId });
  });

  it("exceptions: over-billing is a quantity variance until a credit memo takes it back; a charge not on the order; the buyer disputes, then accepts", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    await shipAll(vendorId, lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const res = await vendorCall(vendorId, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [
        { lineId, quantity: 3, unitPriceCents: priceCents },
        { quantity: 1, unitPriceCents: 995, description: "Fuel surcharge" },
      ]),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const invoice = (await json(res)).data;
    expect(invoice.status).toBe("exception");
    expect(invoice.lines.map((l: { matchStatus: string }) => l.matchStatus)).toEqual(["quantity_variance", "not_on_po"]);
    expect(invoice.lines[0].matchExplanation).toMatch(/bill 3 .* but 2 shipped/);

    const credit = await vendorCall(vendorId, "/credit-memos", {
      method: "POST",
      json: creditMemoBody(invoice.invoiceId, [{ invoiceLineNumber: 1, quantity: 1, unitPriceCents: priceCents }]),
    });
    expect(credit.status, await credit.clone().text()).toBe(201);
    expect((await json(credit)).data).toMatchObject({ kind: "credit_memo", creditedInvoiceId: invoice.invoiceId, status: "received" });
    const after = (await json(await buyer(`/invoices/${invoice.invoiceId}`))).data;
    expect(after.lines.map((l: { matchStatus: string }) => l.matchStatus)).toEqual(["matched", "not_on_po"]);
    expect(after.credited).toBe(money(priceCents));
    // More than remains of the line is refused.
    const over = await vendorCall(vendorId, "/credit-memos", {
      method: "POST",
      json: creditMemoBody(invoice.invoiceId, [{ invoiceLineNumber: 1, quantity: 3, unitPriceCents: priceCents }]),
    });
    expect(Object.keys((await expectProblem(over, 400)).errors)).toEqual(expect.arrayContaining(["lines[0].quantity", "lines[0].amount"]));

    const disputed = await buyer(`/invoices/${invoice.invoiceId}/dispute`, { method: "POST", json: { reason: "Surcharge not agreed" } });
    expect((await json(disputed)).data.invoice).toMatchObject({ status: "disputed", statusReason: "Surcharge not agreed" });
    const accepted = await buyer(`/invoices/${invoice.invoiceId}/accept`, { method: "POST", json: {} });
    expect((await json(accepted)).data.invoice.status).toBe("accepted");
    await expectProblem(await buyer(`/invoices/${invoice.invoiceId}/dispute`, { method: "POST", json: { reason: "Too late" } }), 409);
    expect(await eventTypes(orderNumber)).toEqual(
      expect.arrayContaining(["invoice.exception", "credit_memo.received", "invoice.disputed", "invoice.accepted"]),
    );
  });

  it("an invoice whose amounts do not add up is a 400 naming each field; nothing is written", async () => {
    const { orderNumber, lineIds } = await freshOrder(1);
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const body = invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: 1000 }]);
    body.lines[0]!.amount = "20.01";
    body.summary.total = "19.99";
    const problem = await expectProblem(await vendorCall(vendorId, "/invoices", { method: "POST", json: body }), 400);
    expect(Object.keys(problem.errors)).toEqual(expect.arrayContaining(["lines[0].amount", "summary.total"]));
    expect(await rows("SELECT id FROM invoices WHERE number = ?", body.invoiceNumber)).toEqual([]);
  });
  it("a parcel that ships after an invoice matches it again: the match does not depend on which came first", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const early = await vendorCall(vendorId, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: priceCents }]),
    });
    const invoice = (await json(early)).data;
    expect(invoice.lines[0]).toMatchObject({ matchStatus: "quantity_variance" });
    await shipAll(vendorId, lineId);
    const after = (await json(await buyer(`/invoices/${invoice.invoiceId}`))).data;
    expect(after).toMatchObject({ status: "matched", lines: [{ matchStatus: "matched" }] });
    expect((await eventTypes(orderNumber)).slice(-2)).toEqual(["order.shipped", "invoice.matched"]);
  });

  it("automatic acceptance is measured from the price as ordered: increases within it never add up past it", async () => {
    const put = (autoAcceptPriceIncrease: unknown) =>
      buyer("/purchasing-settings", {
        method: "PUT",
        json: { autoAcceptPriceIncrease, priceTolerance: { percent: null, amount: null }, quantityTolerance: 0 },
      });
    expect((await put({ percent: "5", amount: null })).status).toBe(200);
    try {
      const { orderNumber, lineIds } = await freshOrder(1);
      const lineId = lineIds[0]!;
      const vendorId = await vendorOf(lineId);
      const ordered = cents(String((await readOrder(orderNumber)).lineItems[0].price));
      const confirm = async (priceCents: number) =>
        (
          await json(
            await vendorCall(vendorId, "/order-confirmations", {
              method: "POST",
              json: { type: "detail", lines: [{ lineId, code: "IP", unitPrice: money(priceCents) }] },
            }),
          )
        ).data.lines[0];
      const fourPercent = Math.floor((ordered * 4) / 100);
      expect(await confirm(ordered + fourPercent)).toMatchObject({ statusName: "Acknowledged", pendingChange: null });
      expect(await confirm(ordered + 2 * fourPercent)).toMatchObject({ pendingChange: { code: "IP" } });
    } finally {
      await put(null);
    }
  });

  it("a vendor's repeated acknowledge answers its own pending change; a buyer's answer to a replaced change is a 409", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const date = tomorrow();
    expect(
      (await vendorCall(vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: date } })).status,
    ).toBe(200);
    const propose = async (quantity: number) =>
      (
        await json(
          await vendorCall(vendorId, "/order-confirmations", {
            method: "POST",
            json: { type: "detail", lines: [{ lineId, code: "IQ", quantity }] },
          }),
        )
      ).data.lines[0].pendingChange;
    const first = await propose(1);
    const second = await propose(3);
    expect(second.proposedAt >= first.proposedAt).toBe(true);
    const stale = await buyer(`/orders/${orderNumber}/lines/${lineId}/change-decision`, {
      method: "POST",
      json: { decision: "accept", proposedAt: "2001-01-01T00:00:00Z" },
    });
    expect((await expectProblem(stale, 409)).type).toMatch(/change-superseded/);
    const again = await vendorCall(vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: date } });
    expect((await json(again)).data).toMatchObject({ eventId: expect.any(String), line: { pendingChange: null, quantity: 2 } });
  });

  it("a price correction (a credit of quantity 0) clears a price variance: the line is priced net of its credits", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    await shipAll(vendorId, lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const high = (
      await json(
        await vendorCall(vendorId, "/invoices", {
          method: "POST",
          json: invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: priceCents + 100 }]),
        }),
      )
    ).data;
    expect(high.lines[0].matchStatus).toBe("price_variance");
    const corrected = await vendorCall(vendorId, "/credit-memos", {
      method: "POST",
      json: creditMemoBody(high.invoiceId, [{ invoiceLineNumber: 1, quantity: 0, unitPriceCents: 200, amountCents: 200 }]),
    });
    expect(corrected.status, await corrected.clone().text()).toBe(201);
    const after = (await json(await buyer(`/invoices/${high.invoiceId}`))).data;
    expect(after).toMatchObject({ status: "matched", lines: [{ matchStatus: "matched" }] });
    expect((await eventTypes(orderNumber)).slice(-2)).toEqual(["credit_memo.received", "invoice.matched"]);
  });

  it("credits units at the price they were invoiced at; a price correction is a line of quantity 0", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const invoice = (
      await json(
        await vendorCall(vendorId, "/invoices", {
          method: "POST",
          json: invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: priceCents }]),
        }),
      )
    ).data;
    const credit = (lines: Parameters<typeof creditMemoBody>[1]) =>
      vendorCall(vendorId, "/credit-memos", { method: "POST", json: creditMemoBody(invoice.invoiceId, lines) });
    const cheap = await credit([{ invoiceLineNumber: 1, quantity: 2, unitPriceCents: 1 }]);
    expect(Object.keys((await expectProblem(cheap, 400)).errors)).toEqual(["lines[0].unitPrice"]);
    expect((await credit([{ invoiceLineNumber: 1, quantity: 0, unitPriceCents: 100, amountCents: 100 }])).status).toBe(201);
    // All that remains: the two units cannot credit at their price any more; what is left still adds up line by line.
    const whole = await credit(undefined);
    const memo = (await json(whole)).data;
    expect(memo.total).toBe(money(priceCents * 2 - 100));
    for (const line of memo.lines)
      expect(cents(line.amount)).toBe(line.quantity === 0 ? cents(line.unitPrice) : line.quantity * cents(line.unitPrice));
    // Wholly credited, the line bills nothing any more: nothing shipped, and it matches.
    const after = (await json(await buyer(`/invoices/${invoice.invoiceId}`))).data;
    expect(after).toMatchObject({ credited: after.total, lines: [{ matchStatus: "matched" }] });
  });
});

describe("a credit memo naming its invoice by the vendor's numbers", () => {
  /** An invoice of two units of a fresh order's line, as its vendor: the order, the line, the vendor, the invoice. */
  async function invoiced() {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    const res = await vendorCall(vendorId, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: priceCents }]),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return { orderNumber, lineId, vendorId, priceCents, invoice: (await json(res)).data };
  }

  /** One unit of the order line credited, the invoice named by its order's and its own number. */
  const byNumbers = (orderNumber: string, invoiceNumber: string, lineId: number, priceCents: number) => ({
    creditMemoNumber: `CM-${crypto.randomUUID().slice(0, 8)}`,
    orderNumber,
    invoiceNumber,
    creditDate: new Date().toISOString().slice(0, 10),
    currency: "USD",
    lines: [{ lineId, quantity: 1, unitPrice: money(priceCents), amount: money(priceCents) }],
    summary: { subtotal: money(priceCents), tax: "0.00", freight: "0.00", total: money(priceCents) },
  });

  it("credits the invoice of that number on that order, its line named by the order line; the same again answers it", async () => {
    const { orderNumber, lineId, vendorId, priceCents, invoice } = await invoiced();
    const body = byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents);
    const res = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: body });
    expect(res.status, await res.clone().text()).toBe(201);
    const memo = (await json(res)).data;
    expect(memo).toMatchObject({
      kind: "credit_memo",
      orderNumber,
      creditedInvoiceId: invoice.invoiceId,
      creditedInvoiceNumber: invoice.invoiceNumber,
      total: money(priceCents),
      lines: [{ lineId, creditedLineNumber: 1, quantity: 1 }],
    });
    const again = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: body });
    expect(again.status).toBe(200);
    expect((await json(again)).data.invoiceId).toBe(memo.invoiceId);
    expect((await json(await buyer(`/invoices/${invoice.invoiceId}`))).data.credited).toBe(money(priceCents));
    // The same credit memo named by ids (invoiceId, invoiceLineNumber) is the same document: answered, not a 409.
    const {
      orderNumber: _o,
      invoiceNumber: _i,
      lines: [byLine],
      ...rest
    } = body;
    const { lineId: _l, ...creditLine } = byLine!;
    const byIds = { ...rest, invoiceId: invoice.invoiceId, lines: [{ ...creditLine, invoiceLineNumber: 1 }] };
    const sameByIds = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: byIds });
    expect(sameByIds.status, await sameByIds.clone().text()).toBe(200);
    expect((await json(sameByIds)).data.invoiceId).toBe(memo.invoiceId);
    // All that remains, by numbers and without lines: an order number names no tenant's store, so it is a 400 naming
    // lines; by invoiceId it is taken.
    const { lines: _, summary: __, ...head } = byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents);
    const whole = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: head });
    expect(whole.status).toBe(400);
    expect(JSON.stringify(await whole.json())).toContain("lineId");
    const { orderNumber: _order, invoiceNumber: _number, ...wholeById } = head;
    const byId = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: { ...wholeById, invoiceId: invoice.invoiceId } });
    expect(byId.status, await byId.clone().text()).toBe(201);
    expect((await json(await buyer(`/invoices/${invoice.invoiceId}`))).data.credited).toBe(money(priceCents * 2));
  });

  it("an unknown number, another order's or another vendor's invoice are one 404; both forms at once, or half of one, a 400", async () => {
    const { orderNumber, lineId, vendorId, priceCents, invoice } = await invoiced();
    const other = await invoiced();
    const stranger = (vendorId % 6) + 1;
    const notFound = [
      await vendorCall(vendorId, "/credit-memos", { method: "POST", json: byNumbers(orderNumber, "NO-SUCH-INV", lineId, priceCents) }),
      await vendorCall(vendorId, "/credit-memos", {
        method: "POST",
        json: byNumbers(other.orderNumber, invoice.invoiceNumber, other.lineId, priceCents),
      }),
      await vendorCall(stranger, "/credit-memos", {
        method: "POST",
        json: byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents),
      }),
    ];
    const details = await Promise.all(notFound.map(async (res) => (await expectProblem(res, 404)).detail));
    expect(new Set(details).size).toBe(1);
    // Without lines, by numbers: the same 400 naming lines whoever asks, whether or not the invoice is theirs.
    const { lines: _, summary: __, ...head } = byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents);
    const headless = await Promise.all(
      [stranger, vendorId].map(
        async (asker) => (await expectProblem(await vendorCall(asker, "/credit-memos", { method: "POST", json: head }), 400)).errors,
      ),
    );
    expect(headless[0]).toEqual(headless[1]);
    expect(Object.keys(headless[0])).toEqual(["lines"]);
    const both = await vendorCall(vendorId, "/credit-memos", {
      method: "POST",
      json: { ...byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents), invoiceId: invoice.invoiceId },
    });
    expect(Object.keys((await expectProblem(both, 400)).errors)).toEqual(["invoiceId"]);
    const { invoiceNumber: ___, ...half } = byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents);
    expect(
      Object.keys((await expectProblem(await vendorCall(vendorId, "/credit-memos", { method: "POST", json: half }), 400)).errors),
    ).toEqual(["invoiceNumber"]);
    const twoWays = byNumbers(orderNumber, invoice.invoiceNumber, lineId, priceCents);
    const line = { ...twoWays.lines[0]!, invoiceLineNumber: 1 };
    const named = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: { ...twoWays, lines: [line] } });
    expect(Object.keys((await expectProblem(named, 400)).errors)).toEqual(["lines[0].invoiceLineNumber"]);
    const unbilled = byNumbers(orderNumber, invoice.invoiceNumber, other.lineId, priceCents);
    const notBilled = await vendorCall(vendorId, "/credit-memos", { method: "POST", json: unbilled });
    expect(Object.keys((await expectProblem(notBilled, 400)).errors)).toEqual(["lines[0].lineId"]);
    // Nothing was credited.
    expect((await json(await buyer(`/invoices/${invoice.invoiceId}`))).data.credited).toBe("0.00");
  });
});

describe("an order's many invoices", () => {
  it("an invoice that changes the match of 14 earlier ones writes their 16 events (more than one statement holds)", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 20 });
    const lineId = lineIds[0]!;
    const vendorId = await vendorOf(lineId);
    expect(
      (await vendorCall(vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } })).status,
    ).toBe(200);
    expect(
      (await vendorCall(vendorId, `/order-lines/${lineId}/ship`, { method: "POST", json: { trackingNumber: "1ZMANY", quantity: 14 } }))
        .status,
    ).toBe(200);
    const priceCents = cents(String((await readOrder(orderNumber)).lineItems[0].price));
    for (let i = 0; i < 14; i++) {
      const res = await vendorCall(vendorId, "/invoices", {
        method: "POST",
        json: invoiceBody(orderNumber, [{ lineId, quantity: 1, unitPriceCents: priceCents }]),
      });
      expect((await json(res)).data.status).toBe("matched");
    }
    const fifteenth = await vendorCall(vendorId, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 1, unitPriceCents: priceCents }]),
    });
    expect(fifteenth.status, await fifteenth.clone().text()).toBe(201);
    const types = await eventTypes(orderNumber);
    expect(types.filter((t) => t === "invoice.exception")).toHaveLength(15);
  });

  it("two invoices under one number sent at once: one is written, the other is a 409, never a 500", async () => {
    const [a, b] = [await freshOrder(1), await freshOrder(1)];
    const vendorA = await vendorOf(a.lineIds[0]!);
    const vendorB = await vendorOf(b.lineIds[0]!);
    if (vendorA !== vendorB) return expect(vendorA).not.toBe(vendorB);
    const number = `RACE-${crypto.randomUUID().slice(0, 8)}`;
    const [first, second] = await Promise.all(
      [a, b].map((order) =>
        vendorCall(vendorA, "/invoices", {
          method: "POST",
          json: invoiceBody(order.orderNumber, [{ lineId: order.lineIds[0]!, quantity: 1, unitPriceCents: 100 }], number),
        }),
      ),
    );
    expect([first!.status, second!.status].sort()).toEqual([201, 409]);
  });
});
