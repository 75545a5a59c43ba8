import { describe, expect, it } from "vitest";
import { ORDER_LIMITS } from "../../src/api/orders/options";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { expectProblem, json, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { gtinOfLine, orderOfOneVendor, unique } from "../helpers/edi";
import { invoiceBody } from "../helpers/invoices";
import { eventsOf, freshOrder, NOTHING_WRITTEN, readOrder, rowsWrittenBy } from "../helpers/orders";
import { storeRowsById } from "../helpers/stores";
import { BODIES, move, V, vendorCall } from "../helpers/vendors";

/**
 * POST /vendor/api/shipments (src/api/vendors/shipments.ts): a parcel of several of the vendor's lines of one order in
 * one request and one order change, each line shipped by the rules of its own ship, all or nothing.
 */

const ship = (vendorId: number, body: unknown) => vendorCall(vendorId, "/shipments", { method: "POST", json: body });

/** An order of `lines` lines of one vendor, `quantity` each, every line acknowledged. */
async function acknowledgedOrder(lines: number, quantity: number) {
  const order = await orderOfOneVendor(lines, quantity);
  for (const lineId of order.lineIds) expect((await move(lineId, "acknowledge", BODIES.acknowledge(), order.vendorId)).status).toBe(200);
  return order;
}

const statuses = async (orderNumber: string) =>
  (await readOrder(orderNumber)).lineItems.map((line: { statusName: string; shippedQuantity: number }) => [
    line.statusName,
    line.shippedQuantity,
  ]);

describe("POST /vendor/api/shipments: several lines of an order in one parcel", () => {
  it("ships each line as its own ship would, units included, in one change: one event per line, one shipping document", async () => {
    const { orderNumber, lineIds, vendorId } = await acknowledgedOrder(3, 2);
    const [a, b, c] = lineIds as [number, number, number];
    const gtin = await gtinOfLine(a);
    const tracking = `1ZBATCH${unique()}`;
    const units = ["SN-1", "SN-2"].map((serial) => `(01)${gtin}(17)301231(10)LOTB1(21)${serial}`);
    const body = {
      trackingNumber: tracking,
      carrierName: "FedEx",
      lines: [{ lineId: a, units }, { lineId: b, quantity: 1 }, { lineId: c }],
    };
    const res = await ship(vendorId, body);
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toMatchObject({ orderNumber, orderStatus: "PartiallyShipped" });
    expect(data.lines.map((l: any) => [l.line.lineId, l.line.statusName, l.line.shippedQuantity, l.orderStatus])).toEqual([
      [a, "Shipped", 2, "PartiallyShipped"],
      [b, "Acknowledged", 1, "PartiallyShipped"],
      [c, "Shipped", 2, "PartiallyShipped"],
    ]);
    expect(data.lines[0].line.shipments).toEqual([
      expect.objectContaining({ trackingNumber: tracking, carrierName: "FedEx", quantity: 2 }),
    ]);

    const events = (await eventsOf(orderNumber)).filter((event) => event.type === "order.shipped");
    expect(events.map((event) => event.id)).toEqual(data.lines.map((l: any) => l.eventId));
    const sequences = events.map((event) => event.sequence);
    expect(sequences).toEqual([sequences[0], sequences[0]! + 1, sequences[0]! + 2]);
    const payloads = events.map((event) => JSON.parse(event.payload));
    expect(payloads.map((p) => [p.lineId, p.lineStatus, p.quantity, p.shippedQuantity, p.trackingNumber, p.carrierName])).toEqual([
      [a, "Shipped", 2, 2, tracking, "FedEx"],
      [b, "Acknowledged", 1, 1, tracking, "FedEx"],
      [c, "Shipped", 2, 2, tracking, "FedEx"],
    ]);
    expect(payloads[0].units.map((unit: any) => [unit.deviceId, unit.lot, unit.serial])).toEqual([
      [gtin, "LOTB1", "SN-1"],
      [gtin, "LOTB1", "SN-2"],
    ]);
    expect(payloads[1]).not.toHaveProperty("units");

    const order = await readOrder(orderNumber);
    const parcel = order.shippingInfo.filter((document: any) => document.trackingNumber === tracking);
    expect(parcel).toHaveLength(1);
    expect(parcel[0].lines).toEqual([
      { lineId: a, quantity: 2 },
      { lineId: b, quantity: 1 },
      { lineId: c, quantity: 2 },
    ]);
    expect(
      await storeRowsById(
        a,
        "SELECT line_id, lot, serial FROM shipped_units WHERE order_id = (SELECT order_id FROM order_lines WHERE id = ?1) ORDER BY id",
        a,
      ),
    ).toEqual([
      { line_id: a, lot: "LOTB1", serial: "SN-1" },
      { line_id: a, lot: "LOTB1", serial: "SN-2" },
    ]);
    // One revision per line, as each ship writes.
    const revisions = await storeRowsById(
      a,
      "SELECT line_id, code FROM order_line_revisions WHERE order_id = (SELECT order_id FROM order_lines WHERE id = ?1) AND code = 'ship' ORDER BY line_id",
      a,
    );
    expect(revisions.map((r) => r.line_id)).toEqual([a, b, c].sort((x, y) => x - y));
  });

  it("repeating the shipment changes nothing: the same lines, eventId null each, nothing written; the rest of a line ships in another parcel", async () => {
    const { orderNumber, lineIds, vendorId } = await acknowledgedOrder(2, 2);
    const [a, b] = lineIds as [number, number];
    const body = { trackingNumber: `1ZREPEAT${unique()}`, lines: [{ lineId: a }, { lineId: b, quantity: 1 }] };
    const first = (await json(await ship(vendorId, body))).data;
    const { result, written } = await rowsWrittenBy(async () => (await json(await ship(vendorId, body))).data);
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(result.lines.map((l: any) => l.eventId)).toEqual([null, null]);
    expect(result.lines.map((l: any) => l.line)).toEqual(first.lines.map((l: any) => l.line));
    expect(result.orderStatus).toBe(first.orderStatus);

    // A line the parcel holds is left as it is beside one it does not (the single ship's repeat, line by line).
    const rest = (await json(await ship(vendorId, { trackingNumber: `1ZREST${unique()}`, lines: [{ lineId: b }] }))).data;
    expect(rest).toMatchObject({ orderStatus: "Shipped", lines: [{ line: { statusName: "Shipped", shippedQuantity: 2 } }] });
    expect((await eventsOf(orderNumber)).filter((event) => event.type === "order.shipped")).toHaveLength(3);
  });

  it("a line refused refuses the shipment naming it (400, 409), and nothing is written", async () => {
    const { orderNumber, lineIds, vendorId } = await acknowledgedOrder(2, 1);
    const [a, b] = lineIds as [number, number];
    const tracking = `1ZREFUSE${unique()}`;
    const before = await statuses(orderNumber);

    const tooMany = await rowsWrittenBy(() =>
      ship(vendorId, { trackingNumber: tracking, lines: [{ lineId: a }, { lineId: b, quantity: 5 }] }),
    );
    const problem = await expectProblem(tooMany.result, 400);
    expect(problem.errors).toEqual({ "lines[1].quantity": [`At most 1 of line ${b} remain to ship.`] });
    expect(tooMany.written).toEqual(NOTHING_WRITTEN);

    const badUnit = await expectProblem(
      await ship(vendorId, { trackingNumber: tracking, lines: [{ lineId: a }, { lineId: b, units: ["(01)00000000000000"] }] }),
      400,
    );
    expect(Object.keys(badUnit.errors)).toEqual(["lines[1].units[0]"]);

    const early = await expectProblem(
      await ship(vendorId, { trackingNumber: tracking, shippedAt: "2020-01-01T00:00:00Z", lines: [{ lineId: a }, { lineId: b }] }),
      400,
    );
    expect(Object.keys(early.errors)).toEqual(["shippedAt"]);
    expect(early.errors.shippedAt[0]).toMatch(/^Must not be before the order was placed/);

    // A shipped line cannot ship again in another parcel: 409 naming it.
    expect((await move(b, "ship", BODIES.ship(), vendorId)).status).toBe(200);
    const shipped = await rowsWrittenBy(() => ship(vendorId, { trackingNumber: tracking, lines: [{ lineId: a }, { lineId: b }] }));
    const conflict = await expectProblem(shipped.result, 409);
    expect(conflict.type).toMatch(/invalid-transition$/);
    expect(conflict.detail).toContain(`Line ${b} is Shipped`);
    expect(shipped.written).toEqual(NOTHING_WRITTEN);
    expect((await statuses(orderNumber))[0]).toEqual(before[0]);

    const twice = await expectProblem(await ship(vendorId, { trackingNumber: tracking, lines: [{ lineId: a }, { lineId: a }] }), 400);
    expect(twice.errors).toEqual({ lines: ["Each lineId once."] });
  });

  it("lines of two orders: 422 naming the line not of lines[0]'s order; another vendor's line is a 404 first, a 422 after", async () => {
    const one = await acknowledgedOrder(1, 1);
    const two = await orderOfOneVendor(1, 1, one.vendorId);
    await move(two.lineIds[0]!, "acknowledge", BODIES.acknowledge(), one.vendorId);
    const tracking = `1ZTWO${unique()}`;
    const mixed = await rowsWrittenBy(() =>
      ship(one.vendorId, { trackingNumber: tracking, lines: [{ lineId: one.lineIds[0]! }, { lineId: two.lineIds[0]! }] }),
    );
    const problem = await expectProblem(mixed.result, 422);
    expect(problem.detail).toContain(`not among them: ${two.lineIds[0]}`);
    expect(problem.errors).toEqual([`lines[1].lineId: ${two.lineIds[0]} is not one of the vendor's lines of ${one.orderNumber}.`]);
    expect(mixed.written).toEqual(NOTHING_WRITTEN);

    const other = one.vendorId === 3 ? 5 : 3;
    const stranger = await ship(other, { trackingNumber: tracking, lines: [{ lineId: one.lineIds[0]! }] });
    const unknown = await ship(other, { trackingNumber: tracking, lines: [{ lineId: 999_999_999 }] });
    const [strangerBody, unknownBody] = [await expectProblem(stranger, 404), await expectProblem(unknown, 404)];
    expect(strangerBody.detail).toBe(unknownBody.detail);
    const withOwnFirst = await expectProblem(
      await ship(one.vendorId, { trackingNumber: tracking, lines: [{ lineId: one.lineIds[0]! }, { lineId: 999_999_999 }] }),
      422,
    );
    expect(withOwnFirst.detail).toContain("not among them: 999999999");
    expect((await readOrder(one.orderNumber)).lineItems[0].statusName).toBe("Acknowledged");
  });

  it("an invoice billed before the parcel is matched again once, after the lines' events (the same match as line by line)", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await acknowledgedOrder(2, 1);
    const early = await vendorCall(vendorId, "/invoices", {
      method: "POST",
      json: invoiceBody(
        orderNumber,
        lineIds.map((lineId, i) => ({ lineId, quantity: 1, unitPriceCents: Math.round(Number(prices[i]) * 100) })),
      ),
    });
    const invoice = (await json(early)).data;
    expect(invoice.status).not.toBe("matched");
    const shipped = await ship(vendorId, { trackingNumber: `1ZMATCH${unique()}`, lines: lineIds.map((lineId) => ({ lineId })) });
    expect((await json(shipped)).data.orderStatus).toBe("Shipped");
    const after = await storeRowsById(lineIds[0]!, "SELECT status FROM invoices WHERE id = ?1", invoice.invoiceId);
    expect(after).toEqual([{ status: "matched" }]);
    expect((await eventsOf(orderNumber)).slice(-3).map((event) => event.type)).toEqual([
      "order.shipped",
      "order.shipped",
      "invoice.matched",
    ]);
  });

  it("an order of the most lines an order holds, each with its units: one request, one commit, every line Shipped, one event each", async () => {
    const { orderNumber, lineIds } = await freshOrder(ORDER_LIMITS.maxLines, {
      pick: (q) => q.customFields.length === 0 && q.vendorName === "OEM Authorized Distribution",
    });
    const accepted = await vendorCall(DEMO_VENDOR_ID, "/order-confirmations", {
      method: "POST",
      json: { type: "accept", lines: lineIds.map((lineId) => ({ lineId })), promisedShipDate: "2099-01-31" },
    });
    expect(accepted.status).toBe(200);
    const lines = await Promise.all(
      lineIds.map(async (lineId) => ({ lineId, units: [`(01)${await gtinOfLine(lineId)}(17)301231(10)LOT${lineId}`] })),
    );
    const res = await ship(DEMO_VENDOR_ID, { trackingNumber: `1ZFULL${unique()}`, lines });
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await json(res);
    expect(data.orderStatus).toBe("Shipped");
    expect(new Set(data.lines.map((l: any) => l.line.statusName))).toEqual(new Set(["Shipped"]));
    const shipped = (await eventsOf(orderNumber)).filter((event) => event.type === "order.shipped");
    expect(shipped.map((event) => event.id)).toEqual(data.lines.map((l: any) => l.eventId));
    const units = await storeRowsById(
      lineIds[0]!,
      "SELECT count(*) AS n FROM shipped_units WHERE order_id = (SELECT order_id FROM order_lines WHERE id = ?1)",
      lineIds[0]!,
    );
    expect(units).toEqual([{ n: ORDER_LIMITS.maxLines }]);
  });

  it("takes fulfilment:write (403 with fulfilment:read) and 1 to 200 lines", async () => {
    const { lineIds, vendorId } = await acknowledgedOrder(1, 1);
    const readOnly = await vendorTokenFor(vendorId, ["fulfilment:read"]);
    const body = { trackingNumber: `1ZSCOPE${unique()}`, lines: [{ lineId: lineIds[0]! }] };
    await expectProblem(await contractCall(readOnly, `${V}/shipments`, { method: "POST", json: body }), 403);
    await expectProblem(await ship(vendorId, { ...body, lines: [] }), 400);
    const many = Array.from({ length: 201 }, (_, i) => ({ lineId: lineIds[0]! + i }));
    await expectProblem(await ship(vendorId, { ...body, lines: many }), 400);
  });
});
