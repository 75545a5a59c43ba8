import { env } from "cloudflare:test";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import type { VendorOrderLine } from "../../src/api/vendors/lines";
import type { LineChangesMessage } from "../../src/api/vendors/projection/messages";
import { readOrderChange } from "../../src/operator/edi/mapping/order-change";
import { readPurchaseOrder } from "../../src/operator/edi/mapping/purchase-order";
import { markAlerted, overdueAcknowledgments, recordAcknowledgments } from "../../src/operator/edi/outbound/acknowledgments";
import { sendOrderLines, type VendorLinesMessage } from "../../src/operator/edi/outbound/handoff";
import { listOutbound, outboxKey, putOutbound, readOutbound, takenKey, takeOutbound } from "../../src/operator/edi/outbound/outbox";
import { type OutboundLine, purchaseOrderOf, render850 } from "../../src/operator/edi/outbound/purchase-orders";
import { partnerOr404 } from "../../src/operator/edi/partners/partners";
import type { Partner } from "../../src/operator/edi/partners/schemas";
import { functionalAcknowledgment } from "../../src/operator/edi/x12/acknowledgments";
import type { FunctionalGroup } from "../../src/operator/edi/x12/document";
import { element } from "../../src/operator/edi/x12/elements";
import { allProblems } from "../../src/operator/edi/x12/envelope";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { type WriteSegment, writeInterchange } from "../../src/operator/edi/x12/writer";
import { call, json, operatorTokenFor } from "../helpers/api";
import { counters, partnerInput } from "../helpers/edi";

// What the vendor API publishes is what the outbound side reads (the operator plane declares its own shapes).
expectTypeOf<VendorOrderLine>().toExtend<OutboundLine>();
expectTypeOf<LineChangesMessage>().toExtend<VendorLinesMessage>();

async function newPartner(vendorId: number, overrides: Record<string, unknown> = {}): Promise<Partner> {
  const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
    method: "POST",
    json: { vendorId, ...partnerInput(overrides) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return partnerOr404(env.DB, (await json(res)).data.id);
}

const V5010 = {
  version: "005010",
  acknowledgment: "999",
  delimiters: { element: "|", component: ":", repetition: "^", segment: "'" },
};

function line(overrides: Partial<OutboundLine> = {}): OutboundLine {
  return {
    lineId: 101,
    orderNumber: "ORD-1001",
    lineNumber: 1,
    orderDate: "2026-12-01T15:04:05.000Z",
    statusName: "Ordered",
    partNumber: "SKU-100",
    description: "Pulse oximeter probe, adult",
    quantity: 2,
    price: 12.5,
    poNumber: "PO-77",
    shipTo: { attentionTo: "Receiving Dock 3", address1: "100 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" },
    ...overrides,
  };
}

const message = (tenantId: number, vendorId: number, lines: OutboundLine[]): VendorLinesMessage => ({
  tenantId,
  vendorId,
  changes: lines.map((l, i) => ({ lineId: l.lineId, revision: i + 1, changedAt: 0, line: l })),
});

/** The one interchange of a text, read with no envelope, group or set error. */
function readClean(text: string) {
  const { interchanges } = readX12(text);
  expect(interchanges).toHaveLength(1);
  const interchange = interchanges[0]!;
  expect(allProblems(interchange).filter((problem) => problem.severity === "error")).toEqual([]);
  return interchange;
}

const purchaseOrderIn = (text: string) => readPurchaseOrder(readClean(text).groups[0]!.sets[0]!);

const interchangeRow = (partnerId: number, reference: string) =>
  env.DB.prepare("SELECT * FROM edi_interchanges WHERE partner_id = ? AND reference = ?")
    .bind(partnerId, reference)
    .first<Record<string, string | number | null>>();

/** An FA group the partner sends us: its 997/999 sets' segments between ST and SE, read back as the reader gives them. */
function partnerAcknowledgment(partner: Partner, kind: "997" | "999", bodies: WriteSegment[][], clean = true): FunctionalGroup {
  const text = writeInterchange({
    delimiters: { element: "*", component: ">", segment: "~", ...(kind === "999" ? { repetition: "^" } : {}), lineBreak: "\n" },
    envelope: {
      senderQualifier: partner.partnerIdentity.qualifier,
      senderId: partner.partnerIdentity.id,
      receiverQualifier: partner.ourIdentity.qualifier,
      receiverId: partner.ourIdentity.id,
      date: "261207",
      time: "1200",
      version: kind === "999" ? "00501" : "00401",
      controlNumber: 900,
      acknowledgmentRequested: false,
      usage: "P",
    },
    groups: [
      {
        envelope: {
          functionalId: "FA",
          senderId: partner.partnerApplicationId,
          receiverId: partner.ourApplicationId,
          date: "20261207",
          time: "1200",
          controlNumber: 900,
          version: kind === "999" ? "005010X231A1" : "004010",
        },
        sets: bodies.map((segments, index) => ({ id: kind, controlNumber: index + 1, segments })),
      },
    ],
  });
  return (clean ? readClean(text) : readX12(text).interchanges[0]!).groups[0]!;
}

describe("the outbound 850", () => {
  beforeEach(async () => {
    await env.DB.batch(
      ["edi_received_interchanges", "edi_interchanges", "edi_control_numbers", "edi_partners"].map((table) =>
        env.DB.prepare(`DELETE FROM ${table}`),
      ),
    );
    for (;;) {
      const { objects } = await env.IMPORTS.list({ prefix: "edi/" });
      if (objects.length === 0) break;
      await env.IMPORTS.delete(objects.map((object) => object.key));
    }
  });

  it("maps a vendor's lines: PO101 the line id, BEG03 the PO number or else the order number, VC the part number, EA, the price, the tenant as buyer", () => {
    const order = purchaseOrderOf([line({ lineId: 102, lineNumber: 2, price: 3, quantity: 5 }), line()], 7, "00");
    expect(order).toEqual({
      purpose: "00",
      poNumber: "PO-77",
      orderDate: "20261201",
      currency: "USD",
      buyer: { name: "MEDPARTS", id: "T7" },
      shipTo: {
        name: "Receiving Dock 3",
        id: "T7",
        address: { line1: "100 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" },
      },
      lines: [
        {
          lineNumber: "101",
          quantity: "2",
          unit: "EA",
          unitPrice: "12.50",
          itemIds: [{ qualifier: "VC", id: "SKU-100" }],
          description: "Pulse oximeter probe, adult",
        },
        {
          lineNumber: "102",
          quantity: "5",
          unit: "EA",
          unitPrice: "3.00",
          itemIds: [{ qualifier: "VC", id: "SKU-100" }],
          description: "Pulse oximeter probe, adult",
        },
      ],
    });
    expect(purchaseOrderOf([line({ poNumber: null })], -7, "01")).toMatchObject({
      purpose: "01",
      poNumber: "ORD-1001",
      buyer: { id: "T-7" },
    });
    expect(() => purchaseOrderOf([line(), line({ orderNumber: "ORD-2" })], 7, "00")).toThrow(/One order per 850/);
    expect(() => purchaseOrderOf([], 7, "00")).toThrow(/at least one line/);
  });

  for (const [version, overrides] of [
    ["004010", {}],
    ["005010", V5010],
  ] as const) {
    it(`renders an 850 in ${version} that reads back to the same order, in the partner's envelope, with no envelope problem`, async () => {
      const partner = await newPartner(1, overrides);
      const order = purchaseOrderOf(
        [line(), line({ lineId: 102, lineNumber: 2, partNumber: "SKU-200", quantity: 1, price: "99.99" })],
        7,
        "00",
      );
      const { text, numbers } = await render850(env.DB, partner, "850:7:ORD-1001:1", order);
      expect(numbers).toMatchObject({ interchange: 1, group: 1, firstSet: 1, sets: 1 });
      const interchange = readClean(text);
      expect(interchange.delimiters.element).toBe(partner.delimiters.element);
      expect(interchange.senderId).toBe("MEDPARTS");
      expect(interchange.receiverId).toBe(partner.partnerIdentity.id);
      expect(interchange.version).toBe(version === "005010" ? "00501" : "00401");
      expect(interchange.usage).toBe("P");
      expect(interchange.controlNumber).toBe("000000001");
      const group = interchange.groups[0]!;
      expect([group.functionalId, group.version, group.controlNumber]).toEqual(["PO", version, "1"]);
      expect(group.sets.map((set) => [set.id, set.controlNumber])).toEqual([["850", "0001"]]);
      expect(readPurchaseOrder(group.sets[0]!)).toEqual({ order, problems: [] });
      // The total is the lines' exact sum.
      const amt = group.sets[0]!.segments.find((segment) => segment.id === "AMT")!;
      expect(element(amt, 2)).toBe("124.99");
    });
  }

  it("fits free text to the partner's delimiters and lengths, and refuses an identifier holding one without taking a control number", async () => {
    const partner = await newPartner(1);
    const long = "x".repeat(100);
    const order = purchaseOrderOf(
      [line({ description: `Probe *10~ mm\n${long}`, shipTo: { ...line().shipTo, attentionTo: "Dock*3" } })],
      7,
      "00",
    );
    const { text } = await render850(env.DB, partner, "fit", order);
    const read = purchaseOrderIn(text).order;
    expect(read.lines[0]!.description).toBe(`Probe 10 mm ${long}`.slice(0, 80));
    expect(read.shipTo.name).toBe("Dock 3");
    await expect(render850(env.DB, partner, "refused", purchaseOrderOf([line({ partNumber: "SKU*1" })], 7, "00"))).rejects.toThrow(
      /delimiter/,
    );
    expect(await interchangeRow(partner.id, "refused")).toBeNull();
    expect(await counters(partner.id)).toEqual({ interchange: 1, group: 1, set: 1 });
  });

  it("renders the same bytes for the same reference, dated by its reservation, and takes no new numbers; another reference takes the next", async () => {
    const partner = await newPartner(1, V5010);
    const order = purchaseOrderOf([line()], 7, "00");
    const first = await render850(env.DB, partner, "850:7:ORD-1001:1", order);
    // The date and time come from the reservation, not the clock: an old reservation renders its own time again.
    await env.DB.prepare("UPDATE edi_interchanges SET reserved_at = '2020-01-02T03:04:59.000Z' WHERE reference = '850:7:ORD-1001:1'").run();
    const again = await render850(env.DB, partner, "850:7:ORD-1001:1", order);
    const interchange = readClean(again.text);
    expect([interchange.date, interchange.time]).toEqual(["200102", "0304"]);
    expect(interchange.groups[0]!.header.elements.slice(3, 5)).toEqual(["20200102", "0304"]);
    const retry = await render850(env.DB, partner, "850:7:ORD-1001:1", order);
    expect(retry.text).toBe(again.text);
    expect(again.text).not.toBe(first.text);
    expect(retry.numbers).toEqual({ ...first.numbers, reservedAt: "2020-01-02T03:04:59.000Z" });
    expect(await counters(partner.id)).toEqual({ interchange: 1, group: 1, set: 1 });
    const next = await render850(env.DB, partner, "850:7:ORD-1002:1", order);
    expect(next.numbers).toMatchObject({ interchange: 2, group: 2, firstSet: 2 });
    expect(readClean(next.text).controlNumber).toBe("000000002");
  });

  it("hands a message's placed orders to the vendor's partner, one 850 per order, once; nothing for a vendor without a partner or a partner without 850s", async () => {
    const partner = await newPartner(1);
    const withoutOrders = await newPartner(2, { documents: ["855", "856"] });
    const lines = [
      line(),
      line({ lineId: 102, lineNumber: 2, partNumber: "SKU-200" }),
      line({ lineId: 201, orderNumber: "ORD-1002", poNumber: null }),
      // A line the vendor confirmed already: nothing to order.
      line({ lineId: 301, orderNumber: "ORD-1003", statusName: "Acknowledged" }),
    ];
    const sent = await sendOrderLines(env, message(7, 1, lines));
    expect(sent.partnerId).toBe(partner.id);
    expect(sent.documents.map(({ reference, outcome, purpose }) => ({ reference, outcome, purpose }))).toEqual([
      { reference: "850:7:ORD-1001:1", outcome: "stored", purpose: "00" },
      { reference: "850:7:ORD-1002:1", outcome: "stored", purpose: "00" },
    ]);
    const { documents } = await listOutbound(env.IMPORTS, partner.id);
    expect(documents.map(({ controlNumber, key, reference, document }) => ({ controlNumber, key, reference, document }))).toEqual([
      { controlNumber: 1, key: `edi/outbox/${partner.id}/000000001.x12`, reference: "850:7:ORD-1001:1", document: "850" },
      { controlNumber: 2, key: `edi/outbox/${partner.id}/000000002.x12`, reference: "850:7:ORD-1002:1", document: "850" },
    ]);
    const first = (await readOutbound(env.IMPORTS, partner.id, 1))!;
    const second = (await readOutbound(env.IMPORTS, partner.id, 2))!;
    expect(purchaseOrderIn(first).order.lines.map((l) => l.lineNumber)).toEqual(["101", "102"]);
    expect(purchaseOrderIn(second).order).toMatchObject({ poNumber: "ORD-1002", lines: [{ lineNumber: "201" }] });
    const row = await interchangeRow(partner.id, "850:7:ORD-1001:1");
    expect(row?.sent_at).toEqual(expect.any(String));
    expect(Date.parse(String(row?.due_at)) - Date.parse(String(row?.sent_at))).toBe(1440 * 60_000);

    // The same message again: nothing rendered again, nothing new in the outbox.
    const twice = await sendOrderLines(env, message(7, 1, lines));
    expect(twice.documents.map((d) => d.outcome)).toEqual(["already-sent", "already-sent"]);
    // A crash after the put, before the interchange was marked sent: the same bytes under the same key, kept once.
    await env.DB.prepare("UPDATE edi_interchanges SET sent_at = NULL, due_at = NULL WHERE reference = '850:7:ORD-1001:1'").run();
    const retried = await sendOrderLines(env, message(7, 1, lines.slice(0, 2)));
    expect(retried.documents).toMatchObject([{ outcome: "exists", controlNumber: 1 }]);
    expect((await listOutbound(env.IMPORTS, partner.id)).documents).toHaveLength(2);
    expect(await readOutbound(env.IMPORTS, partner.id, 1)).toBe(first);
    expect(await counters(partner.id)).toEqual({ interchange: 2, group: 2, set: 2 });

    // A vendor whose partner takes no 850s, and one without a partner: nothing.
    expect(await sendOrderLines(env, message(7, 2, lines))).toEqual({ partnerId: null, documents: [] });
    expect((await listOutbound(env.IMPORTS, withoutOrders.id)).documents).toEqual([]);
    expect(await sendOrderLines(env, message(7, 3, lines))).toEqual({ partnerId: null, documents: [] });
  });

  it("sends a sandbox twin's orders (tenant id < 0) to the vendor's test partner only, as test interchanges", async () => {
    const production = await newPartner(1);
    expect(await sendOrderLines(env, message(-7, 1, [line()]))).toEqual({ partnerId: null, documents: [] });
    const test = await newPartner(1, { usage: "test" });
    const sent = await sendOrderLines(env, message(-7, 1, [line()]));
    expect(sent).toMatchObject({ partnerId: test.id, documents: [{ reference: "850:-7:ORD-1001:1", outcome: "stored" }] });
    const text = (await readOutbound(env.IMPORTS, test.id, 1))!;
    expect(readClean(text).usage).toBe("T");
    expect(purchaseOrderIn(text).order.buyer.id).toBe("T-7");
    expect((await listOutbound(env.IMPORTS, production.id)).documents).toEqual([]);
  });

  it("sends a cancelling 850 (BEG01 01) of the cancelled lines of a sent order when the partner takes cancel-850s, and nothing otherwise", async () => {
    const partner = await newPartner(1, { orderChanges: "cancel-850" });
    const lines = [line(), line({ lineId: 102, lineNumber: 2 })];
    // Cancelled before its 850 was sent: nothing to cancel.
    expect((await sendOrderLines(env, message(7, 1, [line({ statusName: "Cancelled" })]))).documents).toEqual([]);
    await sendOrderLines(env, message(7, 1, lines));
    const cancelled = [line({ lineId: 102, lineNumber: 2, statusName: "Cancelled" })];
    const sent = await sendOrderLines(env, message(7, 1, cancelled));
    expect(sent.documents).toMatchObject([
      { reference: "850-cancel:7:ORD-1001:1:102", purpose: "01", outcome: "stored", controlNumber: 2 },
    ]);
    const { order } = purchaseOrderIn((await readOutbound(env.IMPORTS, partner.id, 2))!);
    expect(order).toMatchObject({ purpose: "01", poNumber: "PO-77", lines: [{ lineNumber: "102" }] });
    expect(order.lines).toHaveLength(1);
    expect((await sendOrderLines(env, message(7, 1, cancelled))).documents).toMatchObject([{ outcome: "already-sent" }]);

    // A partner that takes no changes gets no cancelling 850.
    const quiet = await newPartner(4);
    await sendOrderLines(env, message(7, 4, lines));
    expect((await sendOrderLines(env, message(7, 4, cancelled))).documents).toEqual([]);
    expect((await listOutbound(env.IMPORTS, quiet.id)).documents).toHaveLength(1);
  });

  it("sends an 860 deleting the cancelled lines (BCH01 04, POC02 DI) when the partner takes 860s, in group PC, once", async () => {
    const partner = await newPartner(1, { orderChanges: "860", documents: ["850", "860", "855"] });
    const lines = [line(), line({ lineId: 102, lineNumber: 2, quantity: 3, price: 4.05 }), line({ lineId: 103, lineNumber: 3 })];
    // Cancelled before its 850 was sent: nothing to change.
    expect((await sendOrderLines(env, message(7, 1, [line({ statusName: "Cancelled" })]))).documents).toEqual([]);
    await sendOrderLines(env, message(7, 1, lines));
    const cancelled = [103, 102].map((lineId) => ({ ...lines.find((l) => l.lineId === lineId)!, statusName: "Cancelled" }));
    const sent = await sendOrderLines(env, message(7, 1, cancelled));
    expect(sent.documents).toEqual([
      {
        reference: "860:7:ORD-1001:1:102,103",
        document: "860",
        purpose: "04",
        outcome: "stored",
        orderNumber: "ORD-1001",
        controlNumber: 2,
        key: outboxKey(partner.id, 2),
      },
    ]);
    const text = (await readOutbound(env.IMPORTS, partner.id, 2))!;
    const interchange = readClean(text);
    expect(allProblems(interchange)).toEqual([]);
    const group = interchange.groups[0]!;
    expect(group.functionalId).toBe("PC");
    expect(group.sets.map((set) => set.id)).toEqual(["860"]);
    const reservedOn = interchange.date;
    const change = readOrderChange(group.sets[0]!);
    expect(change).toEqual({
      purpose: "04",
      poNumber: "PO-77",
      orderDate: "20261201",
      changeDate: `20${reservedOn}`,
      currency: "USD",
      lines: [
        {
          lineNumber: "102",
          change: "DI",
          quantity: "3",
          quantityLeft: "0",
          unit: "EA",
          unitPrice: "4.05",
          itemIds: [{ qualifier: "VC", id: "SKU-100" }],
        },
        {
          lineNumber: "103",
          change: "DI",
          quantity: "2",
          quantityLeft: "0",
          unit: "EA",
          unitPrice: "12.50",
          itemIds: [{ qualifier: "VC", id: "SKU-100" }],
        },
      ],
    });
    // The same cancellation again (a redelivered message) sends nothing more; another line's later one is its own 860.
    expect((await sendOrderLines(env, message(7, 1, cancelled))).documents).toMatchObject([{ outcome: "already-sent", document: "860" }]);
    const later = await sendOrderLines(env, message(7, 1, [{ ...lines[0]!, statusName: "Cancelled" }]));
    expect(later.documents).toMatchObject([{ reference: "860:7:ORD-1001:1:101", outcome: "stored", controlNumber: 3 }]);
    expect(await counters(partner.id)).toEqual({ interchange: 3, group: 3, set: 3 });
  });

  it("a test partner's simulated supplier answers each 850 with a 997 and each move of its lines with an 855, 856 and 810, checked once", async () => {
    const partner = await newPartner(1, { usage: "test", simulatedSupplier: true, documents: ["850", "855", "856", "810"] });
    const lines = [line(), line({ lineId: 102, lineNumber: 2, quantity: 3, price: 4.05 })];
    // Lines of an order whose 850 was never sent are not answered.
    expect((await sendOrderLines(env, message(-7, 1, [line({ orderNumber: "ORD-0999", statusName: "Shipped" })]))).simulated).toEqual([]);

    const placed = await sendOrderLines(env, message(-7, 1, lines));
    expect(placed.simulated).toEqual([
      { document: "997", orderNumber: "ORD-1001", interchangeControl: expect.any(Number), outcome: "received", sets: [] },
    ]);
    const acknowledged = await env.DB.prepare(
      "SELECT acknowledgment_status AS status FROM edi_interchanges WHERE partner_id = ? AND reference = '850:-7:ORD-1001:1'",
    )
      .bind(partner.id)
      .first<{ status: string }>();
    expect(acknowledged?.status).toBe("accepted");

    const moves = [
      ["Acknowledged", "855"],
      ["Shipped", "856"],
      ["Delivered", "810"],
    ] as const;
    for (const [statusName, document] of moves) {
      const moved = await sendOrderLines(
        env,
        message(
          -7,
          1,
          lines.map((l) => ({ ...l, statusName })),
        ),
      );
      expect(moved.documents, statusName).toEqual([]);
      expect(moved.simulated, statusName).toEqual([
        {
          document,
          orderNumber: "ORD-1001",
          interchangeControl: expect.any(Number),
          outcome: "received",
          sets: [{ set: document, outcome: "checked", messages: [] }],
        },
      ]);
    }
    // Our 997 of each answer waits in the mailbox with the 850, each accepting its group.
    const outbox = (await listOutbound(env.IMPORTS, partner.id)).documents;
    expect(outbox.map((d) => d.document)).toEqual(["850", "997", "997", "997"]);
    for (const document of outbox.slice(1)) {
      const group = readClean((await readOutbound(env.IMPORTS, partner.id, document.controlNumber))!).groups[0]!;
      expect(element(group.sets[0]!.segments.find((segment) => segment.id === "AK9")!, 1)).toBe("A");
    }
    // The same message again (a redelivery) is a duplicate: answered once.
    const again = await sendOrderLines(
      env,
      message(
        -7,
        1,
        lines.map((l) => ({ ...l, statusName: "Delivered" })),
      ),
    );
    expect(again.simulated).toMatchObject([{ document: "810", outcome: "duplicate" }]);
    expect((await listOutbound(env.IMPORTS, partner.id)).documents).toHaveLength(4);
  });

  it("a simulated supplier belongs to a test partner over the mailbox only", async () => {
    const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
      method: "POST",
      json: { vendorId: 1, ...partnerInput({ usage: "production", simulatedSupplier: true }) },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toHaveProperty("simulatedSupplier");
  });

  it("lists a partner's outbox in control number order a page at a time, and takes a document once", async () => {
    for (const n of [3, 1, 12]) {
      expect(await putOutbound(env.IMPORTS, 5, n, `doc ${n}`, { document: "850", reference: `r${n}` })).toBe("stored");
    }
    expect(await putOutbound(env.IMPORTS, 6, 2, "another partner's", { document: "850", reference: "r2" })).toBe("stored");
    expect(await putOutbound(env.IMPORTS, 5, 3, "changed", { document: "850", reference: "r3" })).toBe("exists");
    const page = await listOutbound(env.IMPORTS, 5, { limit: 2 });
    expect(page.documents.map((d) => [d.controlNumber, d.reference])).toEqual([
      [1, "r1"],
      [3, "r3"],
    ]);
    expect(page.cursor).toEqual(expect.any(String));
    const rest = await listOutbound(env.IMPORTS, 5, { limit: 2, cursor: page.cursor! });
    expect(rest).toMatchObject({ documents: [{ controlNumber: 12, size: 6 }], cursor: null });
    expect(await readOutbound(env.IMPORTS, 5, 3)).toBe("doc 3");

    expect(await takeOutbound(env.IMPORTS, 5, 3, new Date("2026-12-07T12:00:00Z"))).toBe("taken");
    expect(await takeOutbound(env.IMPORTS, 5, 3)).toBe("already-taken");
    expect(await takeOutbound(env.IMPORTS, 5, 4)).toBe("unknown");
    expect(await takeOutbound(env.IMPORTS, 6, 3)).toBe("unknown");
    expect((await listOutbound(env.IMPORTS, 5)).documents.map((d) => d.controlNumber)).toEqual([1, 12]);
    const kept = await env.IMPORTS.get(takenKey(5, 3));
    expect(await kept?.text()).toBe("doc 3");
    expect(kept?.customMetadata).toEqual({ document: "850", reference: "r3", takenAt: "2026-12-07T12:00:00.000Z" });
    expect(await env.IMPORTS.head(outboxKey(5, 3))).toBeNull();
    // Put again once taken (a retried handoff): not offered a second time.
    expect(await putOutbound(env.IMPORTS, 5, 3, "doc 3", { document: "850", reference: "r3" })).toBe("exists");
    expect((await listOutbound(env.IMPORTS, 5)).documents.map((d) => d.controlNumber)).toEqual([1, 12]);
    expect(() => outboxKey(5, 0)).toThrow(RangeError);
    await expect(listOutbound(env.IMPORTS, 5, { limit: 0 })).rejects.toThrow(RangeError);
  });

  it("records a 997 accepting or rejecting our 850 against its interchange, and names one of a group we never sent", async () => {
    const partner = await newPartner(1);
    await sendOrderLines(env, message(7, 1, [line(), line({ lineId: 201, orderNumber: "ORD-1002" })]));
    // The partner's 997 as Medparts' own reader and acknowledgment would write it for our first 850: accepted.
    const ours = readClean((await readOutbound(env.IMPORTS, partner.id, 1))!).groups[0]!;
    const accepted = functionalAcknowledgment(ours, { kind: "997", controlNumber: 1 }).segments;
    const rejected: WriteSegment[] = [
      { id: "AK1", elements: ["PO", "2"] },
      { id: "AK2", elements: ["850", "0002"] },
      { id: "AK5", elements: ["R", "5"] },
      { id: "AK9", elements: ["R", "1", "1", "0"] },
    ];
    const unknown: WriteSegment[] = [
      { id: "AK1", elements: ["PO", "77"] },
      { id: "AK9", elements: ["A", "1", "1", "1"] },
    ];
    const at = new Date("2026-12-07T13:00:00Z");
    const matches = await recordAcknowledgments(
      env.DB,
      partner.id,
      partnerAcknowledgment(partner, "997", [accepted, rejected, unknown]),
      at,
    );
    expect(matches).toEqual([
      expect.objectContaining({
        outcome: "recorded",
        groupControl: "1",
        status: "accepted",
        reference: "850:7:ORD-1001:1",
        interchangeControl: 1,
        sets: [{ id: "850", controlNumber: "0001", status: "accepted" }],
      }),
      expect.objectContaining({
        outcome: "recorded",
        groupControl: "2",
        status: "rejected",
        reference: "850:7:ORD-1002:1",
        sets: [{ id: "850", controlNumber: "0002", status: "rejected" }],
      }),
      expect.objectContaining({ outcome: "unknown-group", groupControl: "77", message: expect.stringMatching(/group 77 .*never sent/) }),
    ]);
    expect(await interchangeRow(partner.id, "850:7:ORD-1001:1")).toMatchObject({
      acknowledgment_status: "accepted",
      acknowledged_at: at.toISOString(),
    });
    expect(await interchangeRow(partner.id, "850:7:ORD-1002:1")).toMatchObject({ acknowledgment_status: "rejected" });
    // Another partner's acknowledgment of the same group number matches nothing of this partner's.
    const other = await newPartner(2);
    expect((await recordAcknowledgments(env.DB, other.id, partnerAcknowledgment(other, "997", [accepted])))[0]).toMatchObject({
      outcome: "unknown-group",
    });
    // Without AK9: unreadable, named.
    expect(
      (
        await recordAcknowledgments(
          env.DB,
          partner.id,
          partnerAcknowledgment(partner, "997", [[{ id: "AK1", elements: ["PO", "1"] }]], false),
        )
      )[0],
    ).toMatchObject({
      outcome: "unreadable",
      message: expect.stringMatching(/no AK9/),
    });
  });

  it("records a 999 (IK5 per set, AK9 for the group) and accepted with errors, partially accepted", async () => {
    const partner = await newPartner(1, V5010);
    await sendOrderLines(env, message(7, 1, [line(), line({ lineId: 201, orderNumber: "ORD-1002" })]));
    const withErrors: WriteSegment[] = [
      { id: "AK1", elements: ["PO", "1", "005010"] },
      { id: "AK2", elements: ["850", "0001"] },
      { id: "IK5", elements: ["E", "5"] },
      { id: "AK9", elements: ["E", "1", "1", "1"] },
    ];
    const partial: WriteSegment[] = [
      { id: "AK1", elements: ["PO", "2", "005010"] },
      { id: "AK2", elements: ["850", "0002"] },
      { id: "IK5", elements: ["A"] },
      { id: "AK9", elements: ["P", "2", "2", "1"] },
    ];
    const matches = await recordAcknowledgments(env.DB, partner.id, partnerAcknowledgment(partner, "999", [withErrors, partial]));
    expect(matches.map((m) => (m.outcome === "recorded" ? [m.kind, m.status, m.sets] : m.outcome))).toEqual([
      ["999", "accepted-with-errors", [{ id: "850", controlNumber: "0001", status: "accepted-with-errors" }]],
      ["999", "partially-accepted", [{ id: "850", controlNumber: "0002", status: "accepted" }]],
    ]);
    expect(await interchangeRow(partner.id, "850:7:ORD-1001:1")).toMatchObject({ acknowledgment_status: "accepted-with-errors" });
    expect(await interchangeRow(partner.id, "850:7:ORD-1002:1")).toMatchObject({ acknowledgment_status: "partially-accepted" });
  });

  it("lists interchanges sent and not acknowledged past the partner's window, once alerted never again; our own 997s are never due", async () => {
    const partner = await newPartner(1, { acknowledgmentWindowMinutes: 30 });
    const sentAt = new Date("2026-12-07T10:00:00Z");
    await sendOrderLines(env, message(7, 1, [line(), line({ lineId: 201, orderNumber: "ORD-1002" })]), sentAt);
    // An interchange of ours that answers the partner (reserved, never sent as a document): not tracked.
    await env.DB.prepare(
      "INSERT INTO edi_interchanges (partner_id, reference, interchange_control, group_control, first_set_control, sets, reserved_at) VALUES (?, 'ack:x', 3, 3, 3, 1, ?)",
    )
      .bind(partner.id, sentAt.toISOString())
      .run();
    // Nor does a 997 naming its group match it: only documents we sent are acknowledged.
    const ofOurAck = await recordAcknowledgments(
      env.DB,
      partner.id,
      partnerAcknowledgment(partner, "997", [
        [
          { id: "AK1", elements: ["FA", "3"] },
          { id: "AK9", elements: ["A", "1", "1", "1"] },
        ],
      ]),
    );
    expect(ofOurAck).toMatchObject([{ outcome: "unknown-group", groupControl: "3" }]);
    expect(await interchangeRow(partner.id, "ack:x")).toMatchObject({ acknowledgment_status: null });
    const at = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000);
    expect(await overdueAcknowledgments(env.DB, at(29))).toEqual([]);
    expect(await overdueAcknowledgments(env.DB, at(30))).toEqual([
      {
        partnerId: partner.id,
        reference: "850:7:ORD-1001:1",
        interchangeControl: 1,
        groupControl: 1,
        sentAt: sentAt.toISOString(),
        dueAt: at(30).toISOString(),
      },
      {
        partnerId: partner.id,
        reference: "850:7:ORD-1002:1",
        interchangeControl: 2,
        groupControl: 2,
        sentAt: sentAt.toISOString(),
        dueAt: at(30).toISOString(),
      },
    ]);
    // The first acknowledged, late or not: no longer due.
    await recordAcknowledgments(
      env.DB,
      partner.id,
      partnerAcknowledgment(partner, "997", [
        [
          { id: "AK1", elements: ["PO", "1"] },
          { id: "AK9", elements: ["A", "1", "1", "1"] },
        ],
      ]),
    );
    const overdue = await overdueAcknowledgments(env.DB, at(60));
    expect(overdue.map((o) => o.reference)).toEqual(["850:7:ORD-1002:1"]);
    expect(await markAlerted(env.DB, overdue, at(61))).toBe(1);
    expect(await markAlerted(env.DB, overdue, at(62))).toBe(0);
    expect(await overdueAcknowledgments(env.DB, at(120))).toEqual([]);
    expect(await interchangeRow(partner.id, "850:7:ORD-1002:1")).toMatchObject({ alerted_at: at(61).toISOString() });
  });
});
