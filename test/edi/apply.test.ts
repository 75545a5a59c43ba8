import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { type AppliedSet, applyInboundGroup, checkInboundGroup } from "../../src/operator/edi/apply/apply";
import { type VendorApi, vendorApi } from "../../src/operator/edi/apply/vendor-api";
import type { OfferDefaults } from "../../src/operator/edi/mapping/price-catalog";
import type { ApiBinding } from "../../src/operator/procurement/api";
import { apiErrors } from "../../src/operator/procurement/api";
import { call, json, TENANT_A, vendorTokenFor } from "../helpers/api";
import {
  ccyymmdd,
  groupOf,
  gtinOfLine,
  isoDay,
  orderOfOneVendor,
  seg,
  set810,
  set832,
  set855,
  set856,
  setCredit810,
  unique,
} from "../helpers/edi";
import { eventsOf, NOTHING_WRITTEN, readOrder, rowsWrittenBy } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { vendorCall } from "../helpers/vendors";

/**
 * Inbound X12 sets applied through the vendor API as the vendor (src/operator/edi/apply): real parsed groups (written
 * with writeInterchange, read with readX12), the API Worker reached as the operator plane's API binding reaches it
 * (here the test Worker itself, SELF), real stores and catalog.
 */

const DOCUMENTS = ["850", "855", "856", "810", "832"] as const;
const PARTNER = { documents: [...DOCUMENTS] };
const DEFAULTS: OfferDefaults = { condition: "New OEM", purchaseChoice: "Buy", warranty: "12 months", leadTimeDays: 2 };

/** The API binding of the operator plane, as the test Worker builds it: the same app, over SELF; `headers` added to each request. */
const binding = (headers: Record<string, string> = {}): ApiBinding => ({
  API: {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
      return SELF.fetch(request);
    },
  } as unknown as Fetcher,
});

const apiOfVendor = async (vendorId: number, headers: Record<string, string> = {}) =>
  vendorApi(binding(headers), await vendorTokenFor(vendorId));

const invoicesNumbered = (number: string) => storeRows(TENANT_A, "SELECT id, status FROM invoices WHERE number = ?", number);

const applied = (results: AppliedSet[]) => results.map(({ set, outcome, messages }) => ({ set, outcome, messages }));

describe("applying a partner's sets through the vendor API, as the vendor", () => {
  it("855 IA, 856 with lots and serials, 810: the line is confirmed, shipped with its units, invoiced and matched; the same groups again change nothing", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 2);
    const [lineId] = lineIds as [number];
    const api = await apiOfVendor(vendorId);
    const gtin = await gtinOfLine(lineId);
    const tracking = `1ZEDI${unique()}`;
    const invoiceNumber = `INV-EDI-${unique()}`;
    const groups = [
      groupOf([set855(orderNumber, [{ lineId, quantity: 2, price: prices[0]!, code: "IA" }])]),
      groupOf([set856(orderNumber, tracking, [{ lineId, quantity: 2, gtin, lot: "EDILOT1", serials: ["EDI-SN-1", "EDI-SN-2"] }])]),
      groupOf([set810(orderNumber, invoiceNumber, [{ lineId, quantity: 2, price: prices[0]! }])]),
    ];

    const first: AppliedSet[] = [];
    for (const group of groups) first.push(...(await applyInboundGroup(api, PARTNER, group, DEFAULTS)));
    expect(applied(first)).toEqual([
      { set: "855", outcome: "applied", messages: [] },
      { set: "856", outcome: "applied", messages: [] },
      { set: "810", outcome: "applied", messages: [] },
    ]);
    const line = (await readOrder(orderNumber)).lineItems[0];
    expect(line).toMatchObject({ confirmationCode: "IA", promisedShipDate: isoDay(1), statusName: "Shipped" });
    const shipped = (await eventsOf(orderNumber)).filter((event) => event.type === "order.shipped");
    expect(shipped).toHaveLength(1);
    const payload = JSON.parse(shipped[0]!.payload);
    expect(payload.units).toEqual(
      ["EDI-SN-1", "EDI-SN-2"].map((serial) => ({ agency: "GS1", deviceId: gtin, lot: "EDILOT1", serial, expiry: "2030-12-31", units: 1 })),
    );
    expect(JSON.stringify(payload)).toContain(tracking);
    expect(await invoicesNumbered(invoiceNumber)).toEqual([{ id: expect.any(Number), status: "matched" }]);

    // Applied again (a retry of the groups, or the partner sending them again): no shipment, invoice or event more.
    const { result: again, written } = await rowsWrittenBy(async () => {
      const results: AppliedSet[] = [];
      for (const group of groups) results.push(...(await applyInboundGroup(api, PARTNER, group, DEFAULTS)));
      return results;
    });
    expect(applied(again)).toEqual(applied(first));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(await invoicesNumbered(invoiceNumber)).toHaveLength(1);
  });

  it("855 IP: a price increase waits for the buyer's approval (pending change); applied again, no second event", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 1);
    const [lineId] = lineIds as [number];
    const higher = (Number(prices[0]) + 5).toFixed(2);
    const group = groupOf([set855(orderNumber, [{ lineId, quantity: 1, price: prices[0]!, code: "IP", newPrice: higher }])]);
    const api = await apiOfVendor(vendorId);
    expect(applied(await applyInboundGroup(api, PARTNER, group, DEFAULTS))).toEqual([{ set: "855", outcome: "applied", messages: [] }]);
    expect((await readOrder(orderNumber)).lineItems[0]).toMatchObject({
      statusName: "Ordered",
      price: Number(prices[0]),
      confirmationCode: "IP",
      pendingChange: { code: "IP", unitPrice: higher },
    });
    const { result, written } = await rowsWrittenBy(() => applyInboundGroup(api, PARTNER, group, DEFAULTS));
    expect(applied(result)).toEqual([{ set: "855", outcome: "applied", messages: [] }]);
    expect(written).toEqual(NOTHING_WRITTEN);
  });

  it("refuses with the API's own messages an 855 for a line that is not the vendor's, or no line at all", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 1);
    const [lineId] = lineIds as [number];
    const otherVendor = vendorId === 3 ? 5 : 3;
    const set = set855(orderNumber, [{ lineId, quantity: 1, price: prices[0]!, code: "IA" }]);
    const direct = await vendorCall(otherVendor, "/order-confirmations", {
      method: "POST",
      json: { type: "detail", lines: [{ lineId, code: "IA", promisedShipDate: isoDay(1) }] },
    });
    expect(direct.status).toBe(404);
    const expected = apiErrors(await json(direct));
    expect(expected.length).toBeGreaterThan(0);

    const { result, written } = await rowsWrittenBy(async () =>
      applyInboundGroup(await apiOfVendor(otherVendor), PARTNER, groupOf([set]), DEFAULTS),
    );
    expect(applied(result)).toEqual([{ set: "855", outcome: "refused", messages: expected }]);
    expect(written).toEqual(NOTHING_WRITTEN);
    expect((await readOrder(orderNumber)).lineItems[0]).toMatchObject({ statusName: "Ordered", confirmationCode: null });

    const unknown = await applyInboundGroup(
      await apiOfVendor(vendorId),
      PARTNER,
      groupOf([set855(orderNumber, [{ lineId: 999_999_999_999, quantity: 1, price: "1.00", code: "IA" }])]),
      DEFAULTS,
    );
    expect(unknown[0]!.outcome).toBe("refused");
    expect(unknown[0]!.messages).toEqual(expected);
  });

  it("an 856 with an item refused: the set is refused naming that item; its parcel (the order's items) ships all or nothing", async () => {
    const { orderNumber, lineIds, vendorId } = await orderOfOneVendor(2, 1);
    const [first, second] = lineIds as [number, number];
    const api = await apiOfVendor(vendorId);
    // Both lines acknowledged; the second then asked to ship 5 of its 1.
    const acknowledge = groupOf([
      set855(orderNumber, [
        { lineId: first, quantity: 1, price: "1.00", code: "IA" },
        { lineId: second, quantity: 1, price: "1.00", code: "IA" },
      ]),
    ]);
    expect((await applyInboundGroup(api, PARTNER, acknowledge, DEFAULTS))[0]!.outcome).toBe("applied");
    const tracking = `1ZEDI${unique()}`;
    const group = groupOf([
      set856(orderNumber, tracking, [
        { lineId: first, quantity: 1 },
        { lineId: second, quantity: 5 },
      ]),
    ]);
    const [result] = await applyInboundGroup(api, PARTNER, group, DEFAULTS);
    expect(result).toMatchObject({ set: "856", outcome: "refused" });
    expect(result!.messages).toHaveLength(1);
    expect(result!.messages[0]).toMatch(new RegExp(`^Line ${second} of shipment ASN-${tracking}: .*quantity`));
    // One shipment of the order's two items (POST /vendor/api/shipments): refused whole, neither line shipped.
    const lines = (await readOrder(orderNumber)).lineItems;
    expect(lines.map((line: { statusName: string }) => line.statusName)).toEqual(["Acknowledged", "Acknowledged"]);

    const { result: again, written } = await rowsWrittenBy(() => applyInboundGroup(api, PARTNER, group, DEFAULTS));
    expect(applied(again)).toEqual(applied([result!]));
    expect(written).toEqual(NOTHING_WRITTEN);
  });

  it("an 856 of two orders in one parcel: one shipment request per order; a line listed twice ships their sum; an item under the wrong order still ships", async () => {
    const one = await orderOfOneVendor(2, 2);
    const two = await orderOfOneVendor(1, 1, one.vendorId);
    const three = await orderOfOneVendor(1, 1, one.vendorId);
    const api = await apiOfVendor(one.vendorId);
    const all = [...one.lineIds, ...two.lineIds, ...three.lineIds];
    const ack = (order: { orderNumber: string; lineIds: number[] }, quantity: number) =>
      groupOf([
        set855(
          order.orderNumber,
          order.lineIds.map((lineId) => ({ lineId, quantity, price: "1.00", code: "IA" })),
        ),
      ]);
    for (const [order, quantity] of [
      [one, 2],
      [two, 1],
      [three, 1],
    ] as const) {
      expect((await applyInboundGroup(api, PARTNER, ack(order, quantity), DEFAULTS))[0]!.outcome).toBe("applied");
    }
    const tracking = `1ZEDI${unique()}`;
    const [a, b] = one.lineIds as [number, number];
    const orderLevel = (orderNumber: string, parent: number, items: [number, number][]) => [
      seg("HL", String(parent + 1), "1", "O"),
      seg("PRF", orderNumber),
      ...items.flatMap(([lineId, quantity], i) => [
        seg("HL", String(parent + 2 + i), String(parent + 1), "I"),
        seg("LIN", String(lineId), "VC", `SKU-${lineId}`),
        seg("SN1", "", String(quantity), "EA"),
      ]),
    ];
    const notice = set856(one.orderNumber, tracking, []);
    notice.segments = [
      ...notice.segments.slice(0, 5),
      // Line a in two item levels (two lots, say): 1 + 1 of its 2.
      ...orderLevel(one.orderNumber, 1, [
        [a, 1],
        [b, 2],
        [a, 1],
      ]),
      ...orderLevel(two.orderNumber, 10, [[two.lineIds[0]!, 1]]),
      // The third order's line under the second order's level: the API refuses that parcel (422), sent line by line instead.
      ...orderLevel(two.orderNumber, 20, [[three.lineIds[0]!, 1]]).slice(2),
      seg("CTT", "5"),
    ];
    const paths: string[] = [];
    const counting: VendorApi = (method, path, ...rest) => {
      paths.push(`${method} ${path}`);
      return api(method, path, ...rest);
    };
    const group = groupOf([notice]);
    expect(applied(await applyInboundGroup(counting, PARTNER, group, DEFAULTS))).toEqual([
      { set: "856", outcome: "applied", messages: [] },
    ]);
    // Order one's items, then order two's with the stray item (422), then each of those alone.
    expect(paths).toEqual(Array.from({ length: 4 }, () => "POST /shipments"));
    for (const order of [one, two, three]) {
      const lines = (await readOrder(order.orderNumber)).lineItems;
      expect(lines.map((line: { statusName: string }) => line.statusName)).toEqual(order.lineIds.map(() => "Shipped"));
    }
    const shipped = (await Promise.all([one, two, three].map((order) => eventsOf(order.orderNumber))))
      .flat()
      .filter((event) => event.type === "order.shipped");
    expect(shipped.map((event) => JSON.parse(event.payload).lineId).sort()).toEqual([...all].sort());

    const { result, written } = await rowsWrittenBy(() => applyInboundGroup(api, PARTNER, group, DEFAULTS));
    expect(applied(result)).toEqual([{ set: "856", outcome: "applied", messages: [] }]);
    expect(written).toEqual(NOTHING_WRITTEN);
  });

  it("a 5xx or a network failure is a retry, nothing applied; the same group applied later is applied once", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 1);
    const [lineId] = lineIds as [number];
    const group = groupOf([set855(orderNumber, [{ lineId, quantity: 1, price: prices[0]!, code: "IA" }])]);

    const faulty = await apiOfVendor(vendorId, { "X-Test-Fault": "tenant-store-unavailable" });
    const status = (
      await faulty("POST", "/order-confirmations", { type: "detail", lines: [{ lineId, code: "IA", promisedShipDate: isoDay(1) }] })
    ).status;
    expect(status).toBeGreaterThanOrEqual(500);
    const [unavailable] = await applyInboundGroup(faulty, PARTNER, group, DEFAULTS);
    expect(unavailable).toMatchObject({ set: "855", outcome: "retry" });
    expect(unavailable!.messages.length).toBeGreaterThan(0);

    const lost: VendorApi = () => Promise.reject(new Error("Network connection lost."));
    expect(await applyInboundGroup(lost, PARTNER, group, DEFAULTS)).toEqual([
      { set: "855", controlNumber: "0001", outcome: "retry", messages: ["POST /order-confirmations failed: Network connection lost."] },
    ]);
    expect((await readOrder(orderNumber)).lineItems[0]).toMatchObject({ statusName: "Ordered", confirmationCode: null });

    const api = await apiOfVendor(vendorId);
    expect(applied(await applyInboundGroup(api, PARTNER, group, DEFAULTS))).toEqual([{ set: "855", outcome: "applied", messages: [] }]);
    expect((await readOrder(orderNumber)).lineItems[0]).toMatchObject({ statusName: "Acknowledged", confirmationCode: "IA" });
    const { result, written } = await rowsWrittenBy(() => applyInboundGroup(api, PARTNER, group, DEFAULTS));
    expect(applied(result)).toEqual([{ set: "855", outcome: "applied", messages: [] }]);
    expect(written).toEqual(NOTHING_WRITTEN);
  });

  it("reads the API's answers: a 429, a 5xx and a 409 order-changed are retries; a 400 or another 409 a refusal with its messages", async () => {
    const group = groupOf([set855("ORD-20261207-EDI00001", [{ lineId: 8_590_000_001, quantity: 1, price: "1.00", code: "IA" }])]);
    const answering =
      (status: number, body: unknown): VendorApi =>
      () =>
        Promise.resolve({ status, body, headers: new Headers() });
    const cases: [number, unknown, AppliedSet["outcome"], string[]][] = [
      [429, { detail: "Too many requests." }, "retry", ["Too many requests."]],
      [502, null, "retry", ["POST /order-confirmations answered 502."]],
      [409, { type: "https://medparts.test/docs/errors/order-changed", detail: "The order changed." }, "retry", ["The order changed."]],
      [
        409,
        { type: "https://medparts.test/docs/errors/invalid-transition", detail: "Line is Delivered.", errors: ["allowed: none"] },
        "refused",
        ["allowed: none"],
      ],
      [400, { errors: { "lines.0.promisedShipDate": ["Required."] } }, "refused", ["lines.0.promisedShipDate: Required."]],
    ];
    for (const [status, body, outcome, messages] of cases) {
      expect(applied(await applyInboundGroup(answering(status, body), PARTNER, group, DEFAULTS)), String(status)).toEqual([
        { set: "855", outcome, messages },
      ]);
    }
  });

  it("832: a price file job started with the rows; once it ran the offers are there; a retry after a failed start starts the same job, not a second", async () => {
    const vendorId = 4;
    const api = await apiOfVendor(vendorId);
    const sku = `EDI832-${unique()}`;
    const group = groupOf([
      set832([
        { sku: `${sku}-A`, gtin: generateDeviceIdentifiers(71)[0]!.deviceId, price: "45.50" },
        { sku: `${sku}-B`, gtin: generateDeviceIdentifiers(72)[0]!.deviceId, price: "12.25" },
      ]),
    ]);
    const jobs = async () =>
      (await env.CATALOG.prepare("SELECT id, state FROM catalog_imports WHERE kind = 'offers' AND vendor_id = ?").bind(vendorId).all())
        .results;
    const before = await jobs();

    // The start answers 503 (the transport wrapped): a retry; the job is created and its file uploaded, not started.
    const failingStart: VendorApi = (method, path, body, headers) =>
      path.endsWith("/start")
        ? Promise.resolve({ status: 503, body: { detail: "Service unavailable." }, headers: new Headers() })
        : api(method, path, body, headers);
    const [retry] = await applyInboundGroup(failingStart, PARTNER, group, DEFAULTS);
    expect(retry).toMatchObject({ set: "832", outcome: "retry", messages: ["Service unavailable."], job: expect.stringMatching(/^imp_/) });
    expect((await jobs()).length).toBe(before.length + 1);

    const [started] = await applyInboundGroup(api, PARTNER, group, DEFAULTS);
    expect(started).toEqual({ set: "832", controlNumber: "0001", outcome: "applied", messages: [], job: retry!.job });
    const job = await waitForJob(vendorId, started!.job!);
    expect(job).toMatchObject({ state: "succeeded", onError: "skipFailedRows", counts: { read: 2, created: 2, rejected: 0 } });
    const offer = async (suffix: string) => (await json(await vendorCall(vendorId, `/offers/${sku}-${suffix}`))).data;
    expect(await offer("A")).toMatchObject({ productId: productId(71), price: 45.5, condition: "New OEM", leadTimeDays: 2 });
    expect(await offer("B")).toMatchObject({ productId: productId(72), price: 12.25 });

    // Once more: the job it started is found, no other is created or started.
    const [again] = await applyInboundGroup(api, PARTNER, group, DEFAULTS);
    expect(again).toEqual(started);
    expect((await jobs()).length).toBe(before.length + 1);
  });

  it("810 CR: a credit memo of the invoice its REF*IV names, by the order's and the invoice's numbers; the invoice shows it credited; applied again, nothing changes", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 2);
    const [lineId] = lineIds as [number];
    const api = await apiOfVendor(vendorId);
    const invoiceNumber = `INV-EDI-${unique()}`;
    const creditMemoNumber = `CM-EDI-${unique()}`;
    const invoice = groupOf([set810(orderNumber, invoiceNumber, [{ lineId, quantity: 2, price: prices[0]! }])]);
    const memo = groupOf([setCredit810(orderNumber, creditMemoNumber, invoiceNumber, [{ lineId, quantity: 1, price: prices[0]! }])]);
    expect(applied(await applyInboundGroup(api, PARTNER, invoice, DEFAULTS))).toEqual([{ set: "810", outcome: "applied", messages: [] }]);
    expect(applied(await applyInboundGroup(api, PARTNER, memo, DEFAULTS))).toEqual([{ set: "810", outcome: "applied", messages: [] }]);
    const [invoiceRow] = await invoicesNumbered(invoiceNumber);
    const read = (await json(await vendorCall(vendorId, `/invoices/${invoiceRow!.id}`))).data;
    const priceCents = Math.round(Number(prices[0]) * 100);
    const cents = (text: string) => Math.round(Number(text) * 100);
    expect(cents(read.total)).toBe(2 * priceCents);
    expect(cents(read.credited)).toBe(priceCents);
    const [memoRow] = await invoicesNumbered(creditMemoNumber);
    expect((await json(await vendorCall(vendorId, `/invoices/${memoRow!.id}`))).data).toMatchObject({
      kind: "credit_memo",
      status: "received",
      creditedInvoiceId: invoiceRow!.id,
      creditedInvoiceNumber: invoiceNumber,
      lines: [{ lineId, creditedLineNumber: 1, quantity: 1 }],
    });
    expect((await eventsOf(orderNumber)).filter((event) => event.type === "credit_memo.received")).toHaveLength(1);
    // Applied again (both groups): the same documents answer, nothing is written.
    const { result: again, written } = await rowsWrittenBy(async () => [
      ...(await applyInboundGroup(api, PARTNER, invoice, DEFAULTS)),
      ...(await applyInboundGroup(api, PARTNER, memo, DEFAULTS)),
    ]);
    expect(applied(again).map((set) => set.outcome)).toEqual(["applied", "applied"]);
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(await invoicesNumbered(creditMemoNumber)).toHaveLength(1);
    // A test partner's credit memo is checked like any 810 (mapped whole), not refused.
    expect(applied(checkInboundGroup(PARTNER, memo, DEFAULTS))).toEqual([{ set: "810", outcome: "checked", messages: [] }]);
  });

  it("refuses by name a set the mapping refuses (an 810 credit memo naming no invoice, a set the partner does not exchange), sending nothing", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(1, 1);
    const [lineId] = lineIds as [number];
    const memo = set810(orderNumber, `CM-${unique()}`, [{ lineId, quantity: 1, price: prices[0]! }]);
    memo.segments[0] = seg("BIG", ccyymmdd(), `CM-${unique()}`, "", orderNumber, "", "", "CR");
    let calls = 0;
    const counting: VendorApi = async (...args) => {
      calls++;
      return (await apiOfVendor(vendorId))(...args);
    };
    expect(applied(await applyInboundGroup(counting, PARTNER, groupOf([memo]), DEFAULTS))).toEqual([
      { set: "810", outcome: "refused", messages: ["REF: A credit memo (BIG07 CR) names the invoice it credits in REF*OI or REF*IV."] },
    ]);
    const no832 = await applyInboundGroup(
      counting,
      { documents: ["855"] },
      groupOf([set832([{ sku: "X", gtin: "1", price: "1" }])]),
      DEFAULTS,
    );
    expect(applied(no832)).toEqual([{ set: "832", outcome: "refused", messages: ["The partner does not exchange 832s (its documents)."] }]);
    // An invoice whose TDS is not its lines' total is not sent in part.
    const offTotal = set810(orderNumber, `INV-${unique()}`, [{ lineId, quantity: 1, price: prices[0]! }]);
    offTotal.segments[3] = seg("TDS", "1");
    const [wrongTotal] = await applyInboundGroup(counting, PARTNER, groupOf([offTotal]), DEFAULTS);
    expect(wrongTotal).toMatchObject({ set: "810", outcome: "refused", messages: [expect.stringMatching(/^TDS: TDS01 says 0\.01/)] });
    // A 997 is the caller's (it answers our 850s): never applied here.
    const ack = { id: "997", segments: [seg("AK1", "PO", "1"), seg("AK9", "A", "1", "1", "1")] };
    expect(applied(await applyInboundGroup(counting, PARTNER, groupOf([ack]), DEFAULTS))).toEqual([
      { set: "997", outcome: "refused", messages: ["Medparts does not take 997 from partners."] },
    ]);
    expect(calls).toBe(0);
  });

  it("an 855 with a line it cannot read: the set is refused naming it; the lines it read are confirmed", async () => {
    const { orderNumber, lineIds, vendorId, prices } = await orderOfOneVendor(2, 1);
    const [first, second] = lineIds as [number, number];
    const group = groupOf([
      set855(orderNumber, [
        { lineId: first, quantity: 1, price: prices[0]!, code: "IA" },
        { lineId: second, quantity: 1, price: prices[1]!, code: "ZZ" },
      ]),
    ]);
    expect(applied(await applyInboundGroup(await apiOfVendor(vendorId), PARTNER, group, DEFAULTS))).toEqual([
      { set: "855", outcome: "refused", messages: [`ACK: ACK01 "ZZ" of line ${second} is no confirmation code.`] },
    ]);
    const lines = (await readOrder(orderNumber)).lineItems;
    expect(lines.map((line: { statusName: string; confirmationCode: string | null }) => [line.statusName, line.confirmationCode])).toEqual([
      ["Acknowledged", "IA"],
      ["Ordered", null],
    ]);
  });
});

/** The price file job once its Workflow has ended (polled through the vendor API). */
async function waitForJob(vendorId: number, jobId: string) {
  const token = await vendorTokenFor(vendorId);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await json(await call(token, `/vendor/api/offer-imports/${jobId}`))).data;
    if (["succeeded", "failed", "cancelled"].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
