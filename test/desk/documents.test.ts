import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { creditField, invoiceField } from "../../src/operator/desk/documents";
import { parcelField } from "../../src/operator/desk/vendor-work";
import { json, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { csrfOf, desk, deskForm, deskSession } from "../helpers/desk";
import { gtinOfLine, orderOfOneVendor } from "../helpers/edi";
import { readOrder } from "../helpers/orders";
import { eventuallyFound } from "../helpers/platform";
import { EXCHANGE, optionWith, orderOf, RETURNS_VENDOR, returnsOf, shipLine } from "../helpers/returns";
import { storeRowsById } from "../helpers/stores";
import { tomorrow, vendorCall } from "../helpers/vendors";

/**
 * The desk's invoices, credit memos and returns (docs/desk.md, "Invoices" and "Returns"): an invoice filled in from
 * what shipped and matched at once, a credit memo against it, a core received from its line's page; each through the
 * vendor API as the signed-in user, in the audit log with the user; another vendor's user sees none of it.
 */

const auditedActions = async (userId: number) =>
  (
    await env.DB.prepare("SELECT action FROM audit_log WHERE actor = ? ORDER BY id").bind(`vendor_user:${userId}`).all<{ action: string }>()
  ).results.map((row) => row.action);

/** An order's desk page, once the vendor's projection lists its lines (seconds after the order). */
const orderPage = (orderNumber: string, session: string) =>
  eventuallyFound(async () => {
    const res = await desk(`/desk/orders/${orderNumber}`, { cookie: session });
    return res.status === 200 ? res : null;
  }, "the order's lines in the vendor's projection");

async function shippedOrder() {
  const order = await orderOfOneVendor(2, 2);
  const [first, second] = order.lineIds as [number, number];
  for (const lineId of [first, second]) {
    await vendorCall(order.vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
  }
  const shipped = await vendorCall(order.vendorId, `/order-lines/${first}/ship`, {
    method: "POST",
    json: { trackingNumber: "1ZINVOICE01" },
  });
  expect(shipped.status).toBe(200);
  return { ...order, first, second };
}

describe("the order desk's invoices and credit memos", () => {
  it("invoices what shipped, filled in at the line's price; the three-way match shows at once; a price off the order is explained", async () => {
    const order = await shippedOrder();
    const { session, userId } = await deskSession(order.vendorId);
    const page = await orderPage(order.orderNumber, session);
    const html = await page.clone().text();
    // Only the shipped line is offered for billing, with its shipped units at the line's price.
    expect(html).toContain(`name="${invoiceField(order.first, "quantity")}" value="2"`);
    expect(html).toContain(`name="${invoiceField(order.first, "unitPrice")}" value="${order.prices[0]}"`);
    expect(html).not.toContain(`name="${invoiceField(order.second, "quantity")}"`);
    const csrf = await csrfOf(page);
    const number = `INV-${crypto.randomUUID().slice(0, 8)}`;
    const sent = await deskForm(`/desk/orders/${order.orderNumber}/invoice`, session, {
      _csrf: csrf!,
      invoiceNumber: number,
      [invoiceField(order.first, "bill")]: "on",
      [invoiceField(order.first, "quantity")]: "2",
      [invoiceField(order.first, "unitPrice")]: order.prices[0]!,
      [invoiceField(order.first, "tax")]: "1.50",
      freight: "12.00",
    });
    expect(sent.status, await sent.clone().text()).toBe(303);
    const location = sent.headers.get("Location")!;
    expect(location).toMatch(/^\/desk\/invoices\/\d+\?done=invoice$/);
    const invoiceId = Number(/invoices\/(\d+)/.exec(location)![1]);
    const shown = await (await desk(location, { cookie: session })).text();
    expect(shown).toContain("Done: the invoice is sent.");
    expect(shown).toContain("Matched: every line agrees with the order and what shipped.");
    // The buyer reads the same invoice, its amounts exact.
    const priceCents = Math.round(Number(order.prices[0]) * 100);
    const buyerView = (await json(await contractCall(await tokenFor(TENANT_A), `/invoices/${invoiceId}`))).data;
    expect(buyerView).toMatchObject({ invoiceNumber: number, matchStatus: "matched", freight: "12.00", tax: "1.50" });
    expect(Math.round(Number(buyerView.subtotal) * 100)).toBe(priceCents * 2);
    expect(Math.round(Number(buyerView.total) * 100)).toBe(priceCents * 2 + 150 + 1200);

    // A unit price above the order's: a price variance, in exception, explained on the page.
    const higher = await deskForm(`/desk/orders/${order.orderNumber}/invoice`, session, {
      _csrf: csrf!,
      invoiceNumber: `${number}-B`,
      [invoiceField(order.first, "bill")]: "on",
      [invoiceField(order.first, "quantity")]: "1",
      [invoiceField(order.first, "unitPrice")]: (priceCents / 100 + 50).toFixed(2),
    });
    expect(higher.status).toBe(303);
    const exception = await (await desk(higher.headers.get("Location")!, { cookie: session })).text();
    expect(exception).toContain("In exception: 1 line does not match");
    expect(exception).toContain("price differs from the order");
    // The worklist's "Invoices in exception" lists the line it bills.
    await eventuallyFound(async () => {
      const text = await (await desk("/desk?status=invoices", { cookie: session })).text();
      return text.includes(`href="/desk/lines/${order.first}"`) && text.includes("an invoice in exception") ? text : null;
    }, "the line in the invoices in exception");

    // What was typed wrong is named, and nothing is sent.
    const wrong = await deskForm(`/desk/orders/${order.orderNumber}/invoice`, session, {
      _csrf: csrf!,
      invoiceNumber: `${number}-C`,
      [invoiceField(order.first, "bill")]: "on",
      [invoiceField(order.first, "quantity")]: "2",
      [invoiceField(order.first, "unitPrice")]: "12.345",
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("Line 1: the unit price must be an amount like 120.00.");

    // A credit memo of one unit against the first invoice.
    const invoicePage = await desk(`/desk/invoices/${invoiceId}`, { cookie: session });
    const credit = await deskForm(`/desk/invoices/${invoiceId}/credit-memo`, session, {
      _csrf: (await csrfOf(invoicePage))!,
      creditMemoNumber: `CM-${number}`,
      reason: "One unit damaged in transit",
      [creditField(1, "quantity")]: "1",
    });
    expect(credit.status, await credit.clone().text()).toBe(303);
    const memo = await (await desk(credit.headers.get("Location")!, { cookie: session })).text();
    expect(memo).toContain(`Credit memo CM-${number}`);
    expect(memo).toContain(`invoice ${number}`);
    const credited = (await json(await contractCall(await tokenFor(TENANT_A), `/invoices/${invoiceId}`))).data;
    expect(Math.round(Number(credited.credited) * 100)).toBe(priceCents + 75);
    expect(await auditedActions(userId)).toEqual(expect.arrayContaining(["desk_user.invoice_sent", "desk_user.credit_memo_sent"]));
  });

  it("another vendor's user sees nothing: the order and the invoice are 404s, its forms change nothing", async () => {
    const order = await shippedOrder();
    const owner = await deskSession(order.vendorId);
    const page = await orderPage(order.orderNumber, owner.session);
    const sent = await deskForm(`/desk/orders/${order.orderNumber}/invoice`, owner.session, {
      _csrf: (await csrfOf(page))!,
      invoiceNumber: `INV-${crypto.randomUUID().slice(0, 8)}`,
      [invoiceField(order.first, "bill")]: "on",
      [invoiceField(order.first, "quantity")]: "2",
      [invoiceField(order.first, "unitPrice")]: order.prices[0]!,
    });
    expect(sent.status).toBe(303);
    const invoiceId = Number(/invoices\/(\d+)/.exec(sent.headers.get("Location")!)![1]);

    const other = await deskSession(order.vendorId === 2 ? 3 : 2);
    const csrf = (await csrfOf(await desk("/desk", { cookie: other.session })))!;
    expect((await desk(`/desk/orders/${order.orderNumber}`, { cookie: other.session })).status).toBe(404);
    expect((await desk(`/desk/invoices/${invoiceId}`, { cookie: other.session })).status).toBe(404);
    const invoiced = await deskForm(`/desk/orders/${order.orderNumber}/invoice`, other.session, {
      _csrf: csrf,
      invoiceNumber: "INV-INTRUDER",
      [invoiceField(order.first, "bill")]: "on",
      [invoiceField(order.first, "quantity")]: "1",
      [invoiceField(order.first, "unitPrice")]: "1.00",
    });
    expect(invoiced.status).toBe(404);
    const credit = await deskForm(`/desk/invoices/${invoiceId}/credit-memo`, other.session, {
      _csrf: csrf,
      creditMemoNumber: "CM-INTRUDER",
      whole: "on",
    });
    expect(credit.status).toBe(404);
    const after = (await json(await contractCall(await tokenFor(TENANT_A), `/invoices/${invoiceId}`))).data;
    expect(after.credited).toBe("0.00");
    // Signed out, every page sends to sign-in.
    expect((await desk(`/desk/invoices/${invoiceId}`)).headers.get("Location")).toBe("/desk/sign-in");
  });
});

describe("the order desk's parcels", () => {
  it("ships a parcel of several lines of an order: part of one with its label scanned, all of the other, one tracking number", async () => {
    const order = await orderOfOneVendor(2, 2);
    const [first, second] = order.lineIds as [number, number];
    for (const lineId of [first, second]) {
      await vendorCall(order.vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
    }
    const { session, userId } = await deskSession(order.vendorId);
    const page = await orderPage(order.orderNumber, session);
    const html = await page.clone().text();
    expect(html).toContain("Ship a parcel of several lines");
    const csrf = (await csrfOf(page))!;
    const none = await deskForm(`/desk/orders/${order.orderNumber}/ship`, session, { _csrf: csrf, trackingNumber: "1ZPARCEL0001" });
    expect(none.status).toBe(422);
    expect(await none.text()).toContain("Not shipped: tick the lines in the parcel.");
    const gtin = await gtinOfLine(first);
    const shipped = await deskForm(`/desk/orders/${order.orderNumber}/ship`, session, {
      _csrf: csrf,
      trackingNumber: "1ZPARCEL0001",
      carrierName: "UPS",
      [parcelField(first, "in")]: "on",
      [parcelField(first, "quantity")]: "1",
      [parcelField(first, "units")]: `(01)${gtin}(17)301231(10)PARCELLOT(21)PARCEL-SN-1\r\n`,
      [parcelField(second, "in")]: "on",
    });
    expect([shipped.status, shipped.headers.get("Location")]).toEqual([303, `/desk/orders/${order.orderNumber}?done=parcel`]);
    const after = await (await desk(shipped.headers.get("Location")!, { cookie: session })).text();
    expect(after).toContain("Done: the parcel is shipped.");
    const lines = (await readOrder(order.orderNumber)).lineItems as { lineId: number; statusName: string }[];
    expect(lines.find((line) => line.lineId === second)!.statusName).toBe("Shipped");
    const parcels = await storeRowsById(
      first,
      "SELECT d.tracking_number AS tracking, l.line_id AS lineId, l.quantity FROM shipping_document_lines l JOIN shipping_documents d ON d.id = l.shipping_document_id WHERE l.line_id IN (?, ?) AND d.tracking_number IS NOT NULL ORDER BY l.line_id",
      first,
      second,
    );
    expect(parcels).toEqual([
      { tracking: "1ZPARCEL0001", lineId: first, quantity: 1 },
      { tracking: "1ZPARCEL0001", lineId: second, quantity: 2 },
    ]);
    expect(await storeRowsById(first, "SELECT serial FROM shipped_units WHERE line_id = ?", first)).toEqual([{ serial: "PARCEL-SN-1" }]);
    expect(await auditedActions(userId)).toContain("desk_user.parcel_shipped");
  });
});

describe("the order desk's returns", () => {
  it("receives a core from its line's page: a refusal needs a reason, an accepted core closes; another vendor cannot touch it", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    const shippedBack = await contractCall(await tokenFor(TENANT_A), `/returns/${core.returnId}/ship`, {
      method: "POST",
      json: { carrierName: "UPS", trackingNumber: "1ZCOREDESK1" },
    });
    expect(shippedBack.status).toBe(200);

    const other = await deskSession(2);
    const otherCsrf = (await csrfOf(await desk("/desk", { cookie: other.session })))!;
    const intruded = await deskForm(`/desk/returns/${core.returnId}/receive`, other.session, { _csrf: otherCsrf, outcome: "accepted" });
    expect(intruded.status).toBe(404);

    const { session, userId } = await deskSession(RETURNS_VENDOR);
    // The worklist's "Returns to receive" lists the line within seconds, with a count.
    const returnsList = () => desk("/desk?status=returns", { cookie: session }).then((res) => res.text());
    const listed = await eventuallyFound(
      async () => ((await returnsList()).includes(`href="/desk/lines/${lineId}"`) ? returnsList() : null),
      "the line in the returns to receive",
    );
    expect(listed).toMatch(/<span class="count" data-status="returns">[1-9]\d*<\/span> Returns to receive/);
    expect(listed).toContain("a return to receive");
    const page = await desk(`/desk/lines/${lineId}`, { cookie: session });
    const html = await page.clone().text();
    expect(html).toContain(`Core ${core.rmaNumber}`);
    expect(html).toContain("UPS 1ZCOREDESK1");
    expect(html).toContain(`action="/desk/returns/${core.returnId}/receive"`);
    const csrf = (await csrfOf(page))!;
    const refused = await deskForm(`/desk/returns/${core.returnId}/receive`, session, { _csrf: csrf, outcome: "refused" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Not done:");
    const accepted = await deskForm(`/desk/returns/${core.returnId}/receive`, session, { _csrf: csrf, outcome: "accepted" });
    expect([accepted.status, accepted.headers.get("Location")]).toEqual([
      303,
      `/desk/lines/${lineId}?done=receive#return-${core.returnId}`,
    ]);
    const [after] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    expect(after).toMatchObject({ status: "accepted", open: false });
    const shown = await (await desk(`/desk/lines/${lineId}?done=receive`, { cookie: session })).text();
    expect(shown).toContain("Done: the unit is received.");
    expect(shown).toContain("Nothing more to do.");
    expect(await auditedActions(userId)).toContain("desk_user.return_receive");
    await eventuallyFound(
      async () => (!(await returnsList()).includes(`href="/desk/lines/${lineId}"`) ? true : null),
      "the line out of the returns to receive",
    );
  });
});
