import { describe, expect, it } from "vitest";
import { orderSearch } from "../../src/api/orders/search-fields";
import { DEMO_ID_BASE, type DemoOrder, demoOrders } from "../../src/dev/seed/orders";
import { rangeFloor } from "../../src/shared/tenants/id-ranges";
import { expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { allPages, type Params, searchData, searchRaw, sortedLike } from "../helpers/search";
import { rowsOfEveryStore, storeRows } from "../helpers/stores";

const ALL = demoOrders(600);
/** The id of the `n`th demo order: in the store's range of its tenant (src/dev/seed/orders.ts). */
const demo = (n: number) => rangeFloor(TENANT_A) + DEMO_ID_BASE + n;
const tenantOrders = (tenantId: number) => ALL.filter((o) => o.tenantId === tenantId);
const A = tenantOrders(TENANT_A);
const idsOf = (orders: readonly { id: number }[]) => orders.map((o) => o.id);
const byDefaultSort = (orders: readonly DemoOrder[]) =>
  sortedLike(
    orders,
    (o) => o.createdAt,
    (o) => o.id,
  );
const day = (iso: string) => iso.slice(0, 10);

async function orderIds(tenantId: number, q: string, extra: Params = {}): Promise<number[]> {
  const data = await searchData(await tokenFor(tenantId), "/orders/search", { q, limit: 100, ...extra });
  expect(data.pagination.total).toBe(data.orders.length);
  return data.orders.map((o: { orderId: number }) => o.orderId);
}

/** The query's matches, as ids sorted like the default sort, for comparing with an expectation. */
const expectIds = async (q: string, expected: readonly DemoOrder[], tenantId = TENANT_A) =>
  expect(await orderIds(tenantId, q)).toEqual(idsOf(byDefaultSort(expected)));

describe("GET /orders/search: records and defaults", () => {
  it("lists the tenant's orders by orderDate ascending with the spec's fields, paged 50 by default", async () => {
    const data = await searchData(await tokenFor(TENANT_A), "/orders/search");
    expect(data.pagination).toEqual({ total: A.length, limit: 50, offset: 0, hasMore: false });
    expect(data.orders.map((o: any) => o.orderId)).toEqual(idsOf(byDefaultSort(A)));
    const sample = A.find((o) => o.id === demo(13))!;
    expect(data.orders.find((o: any) => o.orderId === demo(13))).toEqual({
      orderId: sample.id,
      orderNumber: sample.orderNumber,
      companyId: sample.companyId,
      facilityId: sample.facilityId,
      requesterId: sample.requesterContactId,
      poNumber: null,
      requesterName: "Patrick O'Brien",
      orderDate: sample.createdAt,
      lastUpdated: sample.updatedAt,
      total: sample.totalCents / 100,
      currency: "USD",
      shippingMethod: sample.shippingMethod,
      status: sample.status,
    });
  });
});

describe("GET /orders/search: operators per field type", () => {
  it("Numeric (integer): : > < >= <= on orderId, companyId, requesterId", async () => {
    await expectIds(
      `orderId:${demo(3)}`,
      A.filter((o) => o.id === demo(3)),
    );
    await expectIds(
      `id>${demo(10)}`,
      A.filter((o) => o.id > demo(10)),
    );
    await expectIds(
      `orderId<${demo(4)}`,
      A.filter((o) => o.id < demo(4)),
    );
    await expectIds(
      `orderId>=${demo(10)} AND orderId<=${demo(12)}`,
      A.filter((o) => o.id >= demo(10) && o.id <= demo(12)),
    );
    await expectIds(
      "companyId:103",
      A.filter((o) => o.companyId === 103),
    );
    await expectIds(
      "requesterId:50002",
      A.filter((o) => o.requesterContactId === 50002),
    );
    await expectIds(
      "facilityId:1003",
      A.filter((o) => o.facilityId === 1003),
    );
  });

  it("Numeric (money): total compares as a decimal with cents exactly", async () => {
    const sample = A.find((o) => o.id === demo(6))!; // 830.45
    await expectIds(`total:${sample.totalCents / 100}`, [sample]);
    await expectIds(
      "total>=20000",
      A.filter((o) => o.totalCents >= 2_000_000),
    );
    await expectIds(
      "total<2000.5",
      A.filter((o) => o.totalCents < 200_050),
    );
    await expectIds("total>830.44 AND total<=830.45", [sample]);
    await expectIds("total>-1", A);
  });

  it("String: ':' is case-insensitive equality of the whole value, '~' a case-insensitive substring", async () => {
    await expectIds(
      'requesterName:"alice CHEN"',
      A.filter((o) => o.requesterName === "Alice Chen"),
    );
    await expectIds('requesterName:"alice"', []);
    await expectIds(
      'requesterName~"CHE"',
      A.filter((o) => o.requesterName.toLowerCase().includes("che")),
    );
    await expectIds(
      'requesterName~"o\'b"',
      A.filter((o) => o.requesterName === "Patrick O'Brien"),
    );
    await expectIds(
      'poNumber:"po-14013"',
      A.filter((o) => o.poNumber === "PO-14013"),
    );
    await expectIds(
      'orderNumber~"DEMO000"',
      A.filter((o) => o.orderNumber.includes("DEMO000")),
    );
  });

  it("Token: ':' only, case-insensitive, bare or quoted", async () => {
    await expectIds(
      "shippingMethod:GROUND",
      A.filter((o) => o.shippingMethod === "GROUND"),
    );
    await expectIds(
      'shippingMethod:"ground"',
      A.filter((o) => o.shippingMethod === "GROUND"),
    );
    await expectIds(
      "status:shipped",
      A.filter((o) => o.status === "Shipped"),
    );
    await expectIds(
      "paymentMethod:NET_TERMS AND status:Ordered",
      A.filter((o) => o.paymentMethod === "NET_TERMS" && o.status === "Ordered"),
    );
  });

  it("DateTime: a date covers its whole UTC day; a timestamp is one instant; offsets are honoured", async () => {
    const sameDay = A.filter((o) => day(o.createdAt) === "2025-10-25");
    expect(sameDay.length).toBeGreaterThan(1);
    await expectIds('orderDate:"2025-10-25"', sameDay);
    await expectIds('createdDate:"2025-10-25"', sameDay);
    await expectIds(
      'orderDate>"2025-10-25"',
      A.filter((o) => day(o.createdAt) > "2025-10-25"),
    );
    await expectIds(
      'orderDate>="2025-10-25"',
      A.filter((o) => day(o.createdAt) >= "2025-10-25"),
    );
    await expectIds(
      'orderDate<"2025-10-25"',
      A.filter((o) => day(o.createdAt) < "2025-10-25"),
    );
    await expectIds(
      'orderDate<="2025-10-25"',
      A.filter((o) => day(o.createdAt) <= "2025-10-25"),
    );
    const sample = sameDay[0]!;
    await expectIds(`orderDate:"${sample.createdAt}"`, [sample]);
    await expectIds(
      `orderDate>"${sample.createdAt}" AND orderDate<"2025-10-26"`,
      sameDay.filter((o) => o.createdAt > sample.createdAt),
    );
    // 2025-10-25T12:08:20Z written as 14:08:20 at +02:00
    const shifted = sample.createdAt.replace(/T(\d{2})/, (_, h) => `T${String(Number(h) + 2).padStart(2, "0")}`).replace(".000Z", "+02:00");
    await expectIds(`orderDate:"${shifted}"`, [sample]);
    await expectIds(
      'lastUpdated>="2025-12-01" AND lastUpdated<"2026-01-01"',
      A.filter((o) => o.updatedAt >= "2025-12-01" && o.updatedAt < "2026-01-01"),
    );
  });

  it("partNumber matches orders with any line of that part", async () => {
    const part = "SH305894B";
    const withPart = A.filter((o) => o.lines.some((l) => l.partNumber === part));
    expect(withPart.length).toBeGreaterThan(1);
    await expectIds(`partNumber:"${part.toLowerCase()}"`, withPart);
    await expectIds(
      `-partNumber:"${part}"`,
      A.filter((o) => !withPart.includes(o)),
    );
  });

  it("null checks: field:null matches a missing value, -field:null a present one", async () => {
    const missing = A.filter((o) => o.poNumber === null);
    expect(missing.length).toBeGreaterThan(0);
    await expectIds("poNumber:null", missing);
    await expectIds("poNumber:NULL", missing);
    await expectIds(
      "-poNumber:Null",
      A.filter((o) => o.poNumber !== null),
    );
    await expectIds("orderId:null", []);
  });

  it("negation is the exact complement, NULLs included", async () => {
    await expectIds(
      '-poNumber:"PO-14013"',
      A.filter((o) => o.poNumber !== "PO-14013"),
    );
    await expectIds(
      '-poNumber~"PO-1"',
      A.filter((o) => o.poNumber === null),
    );
    await expectIds(
      "-status:Cancelled AND -shippingMethod:GROUND",
      A.filter((o) => o.status !== "Cancelled" && o.shippingMethod !== "GROUND"),
    );
    await expectIds(
      "-total>20000",
      A.filter((o) => o.totalCents <= 2_000_000),
    );
    await expectIds(
      '-orderDate<"2025-11-01"',
      A.filter((o) => o.createdAt >= "2025-11-01"),
    );
    for (const q of ['poNumber:"PO-14013"', 'poNumber~"140"', "total>15000", 'requesterName~"smith"', 'lastUpdated<"2025-11-01"']) {
      const positive = await orderIds(TENANT_A, q);
      const negative = await orderIds(TENANT_A, `-${q}`);
      expect([...positive, ...negative].sort()).toEqual(idsOf(A).sort());
      expect(positive.filter((id) => negative.includes(id))).toEqual([]);
    }
  });
});

describe("GET /orders/search: sorting and paging", () => {
  it("sorts by each sortable field in both directions with ties broken by id", async () => {
    const keyOf: Record<string, (o: DemoOrder) => string | number | null> = {
      orderId: (o) => o.id,
      orderNumber: (o) => o.orderNumber,
      companyId: (o) => o.companyId,
      facilityId: (o) => o.facilityId,
      requesterId: (o) => o.requesterContactId,
      requesterName: (o) => o.requesterName,
      poNumber: (o) => o.poNumber,
      orderDate: (o) => o.createdAt,
      lastUpdated: (o) => o.updatedAt,
      total: (o) => o.totalCents,
      shippingMethod: (o) => o.shippingMethod,
      status: (o) => o.status,
    };
    expect(Object.keys(keyOf).sort()).toEqual(
      orderSearch.fields
        .filter((f) => f.sortable)
        .map((f) => f.name)
        .sort(),
    );
    for (const [sortBy, key] of Object.entries(keyOf)) {
      for (const sortDir of ["Asc", "Desc"] as const) {
        const ids = await orderIds(TENANT_A, "", { sortBy, sortDir });
        expect(ids, `${sortBy} ${sortDir}`).toEqual(idsOf(sortedLike(A, key, (o) => o.id, sortDir)));
      }
    }
  });

  it("accepts sortBy aliases; sortBy and sortDir are exactly the document's enum values, another case is a 400 naming the allowed ones", async () => {
    const expected = idsOf(
      sortedLike(
        A,
        (o) => o.createdAt,
        (o) => o.id,
        "Desc",
      ),
    );
    expect(await orderIds(TENANT_A, "", { sortBy: "createdDate", sortDir: "Desc" })).toEqual(expected);
    expect(await orderIds(TENANT_A, "", { sortBy: "orderDate", sortDir: "Desc" })).toEqual(expected);
    const token = await tokenFor(TENANT_A);
    const refused = async (params: Params) => (await expectProblem(await searchRaw(token, "/orders/search", params), 400)).errors;
    expect(await refused({ sortBy: "ID", sortDir: "asc" })).toEqual({
      sortBy: [expect.stringMatching(/^Unknown sort field 'ID'; did you mean id\? Sortable fields of orders: orderId, id, /)],
      sortDir: ["Must be Asc or Desc."],
    });
    expect(Object.keys(await refused({ sortBy: "ORDERDATE" }))).toEqual(["sortBy"]);
    expect(Object.keys(await refused({ sortDir: "DESC" }))).toEqual(["sortDir"]);
  });

  it("paging visits each record exactly once, also when sorting on a field with many ties", async () => {
    const token = await tokenFor(TENANT_A);
    for (const params of [
      {},
      { sortBy: "status" },
      { sortBy: "shippingMethod", sortDir: "Desc" },
      { sortBy: "poNumber" },
      { q: "-status:Cancelled", sortBy: "requesterName" },
    ]) {
      for (const limit of [1, 3, 7]) {
        const records = await allPages<{ orderId: number }>(token, "/orders/search", "orders", params, limit);
        const ids = records.map((r) => r.orderId);
        expect(new Set(ids).size, JSON.stringify(params)).toBe(ids.length);
        const full = await orderIds(TENANT_A, (params as { q?: string }).q ?? "", params);
        expect(ids).toEqual(full);
      }
    }
  });

  it("reports total with the filter and hasMore only while rows remain", async () => {
    const token = await tokenFor(TENANT_A);
    const shipped = A.filter((o) => o.status === "Shipped").length;
    const first = await searchData(token, "/orders/search", { q: "status:Shipped", limit: 2 });
    expect(first.pagination).toEqual({ total: shipped, limit: 2, offset: 0, hasMore: true });
    const beyond = await searchData(token, "/orders/search", { q: "status:Shipped", limit: 2, offset: 100 });
    expect(beyond.orders).toEqual([]);
    expect(beyond.pagination).toEqual({ total: shipped, limit: 2, offset: 100, hasMore: false });
  });
});

describe("GET /orders/search: lifecycle fields", () => {
  const shipped = A.filter((o) => o.shippingDocuments.some((d) => d.trackingNumber));
  it("trackingNumber finds the order of a parcel; trackingNumber:null the orders awaiting their first parcel (cancelled ones await none)", async () => {
    const parcel = shipped[0]!.shippingDocuments.find((d) => d.trackingNumber)!;
    await expectIds(`trackingNumber:"${parcel.trackingNumber}"`, [shipped[0]!]);
    const awaiting = A.filter((o) => o.shippingDocuments.length > 0 && o.shippingDocuments.every((d) => d.trackingNumber === null));
    expect(awaiting.length).toBeGreaterThan(0);
    expect(A.some((o) => o.status === "Cancelled" && o.shippingDocuments.length === 0)).toBe(true);
    await expectIds("trackingNumber:null", awaiting);
  });

  it("lineStatus matches orders with any line in that status", async () => {
    expect(shipped.length).toBeGreaterThan(0);
    await expectIds(
      "lineStatus:Delivered",
      A.filter((o) => o.status === "Delivered"),
    );
    await expectIds(
      "lineStatus:Cancelled AND status:Cancelled",
      A.filter((o) => o.status === "Cancelled"),
    );
  });
});

describe("GET /orders/search: include", () => {
  const sample = A.find((o) => o.id === demo(5))!; // Shipped in two parcels
  const q = `orderId:${sample.id}`;
  const get = async (include?: string) => {
    const data = await searchData(await tokenFor(TENANT_A), "/orders/search", include === undefined ? { q } : { q, include });
    return data.orders[0];
  };
  const expectedLines = sample.lines.map((l) => ({
    lineId: l.id,
    partNumber: l.partNumber,
    requestedPartNumber: l.partNumber,
    replacementPartNumber: null,
    poNumber: sample.poNumber,
    description: l.description,
    quantity: l.quantity,
    price: l.priceCents / 100,
    extendedPrice: l.extendedPriceCents / 100,
    statusName: sample.status, // every line of a demo order has the order's status
    shippedQuantity: l.quantity, // the sample shipped in full
    promisedShipDate: null,
    expectedShipDate: null,
    statusReason: null,
    deliveredAt: null,
    contractPrice: null,
    confirmationCode: null,
    pendingChange: null,
  }));
  const expectedShipping = sample.shippingDocuments.map((d) => ({
    shippingDocId: d.id,
    lineItemIds: d.lineIds,
    lines: d.lineIds.map((lineId) => ({ lineId, quantity: sample.lines.find((l) => l.id === lineId)!.quantity })),
    attentionTo: d.attentionTo,
    address1: d.address1,
    city: d.city,
    state: d.state,
    zip: d.zip,
    country: d.country,
    carrierName: d.carrierName,
    serviceLevel: d.serviceLevel,
    trackingNumber: d.trackingNumber,
    shippedAt: d.shippedAt,
  }));

  it("the sample really shipped: both parcels carry a tracking number and a ship date", () => {
    expect(sample.status).toBe("Shipped");
    expect(expectedShipping.every((d) => d.trackingNumber && d.shippedAt)).toBe(true);
  });

  it("omits both relations without include (absent, not null or empty)", async () => {
    const order = await get();
    expect(order).not.toHaveProperty("lineItems");
    expect(order).not.toHaveProperty("shippingInfo");
  });

  it("adds only the requested relations; names are case-sensitive and unknown ones ignored", async () => {
    const lines = await get("lineItems");
    expect(lines.lineItems).toEqual(expectedLines);
    expect(lines).not.toHaveProperty("shippingInfo");

    const shipping = await get("shippingInfo");
    expect(shipping.shippingInfo).toEqual(expectedShipping);
    expect(shipping).not.toHaveProperty("lineItems");

    const both = await get("shippingInfo,lineItems");
    expect(both.lineItems).toEqual(expectedLines);
    expect(both.shippingInfo).toEqual(expectedShipping);

    for (const ignored of ["lineitems", "LineItems,SHIPPINGINFO", "foo", "", ",,"]) {
      const order = await get(ignored);
      expect(order, ignored).not.toHaveProperty("lineItems");
      expect(order, ignored).not.toHaveProperty("shippingInfo");
    }
    expect(await get("bogus,lineItems")).toHaveProperty("lineItems");
  });

  it("loads the relations for every order of a page, each with its own lines and documents", async () => {
    const data = await searchData(await tokenFor(TENANT_A), "/orders/search", { include: "lineItems,shippingInfo", limit: 100 });
    expect(data.orders).toHaveLength(A.length);
    for (const order of data.orders) {
      const demo = A.find((o) => o.id === order.orderId)!;
      expect(order.lineItems.map((l: any) => l.lineId)).toEqual(demo.lines.map((l) => l.id));
      expect(order.shippingInfo.map((d: any) => d.lineItemIds)).toEqual(demo.shippingDocuments.map((d) => d.lineIds));
      if (demo.status === "Cancelled") expect(order.shippingInfo).toEqual([]);
    }
  });

  it("includes nothing extra on an empty page", async () => {
    const data = await searchData(await tokenFor(TENANT_A), "/orders/search", { q: "orderId:1", include: "lineItems,shippingInfo" });
    expect(data).toEqual({ orders: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } });
  });
});

describe("GET /orders/search: tenant isolation and injection", () => {
  it("each tenant sees only its own orders, whatever the query names", async () => {
    const B = tenantOrders(TENANT_B);
    expect(await orderIds(TENANT_B, "")).toEqual(idsOf(byDefaultSort(B)));
    expect(await orderIds(TENANT_B, `orderId:${demo(1)}`)).toEqual([]);
    expect(await orderIds(TENANT_B, "requesterId:50001")).toEqual([]);
    expect(await orderIds(TENANT_B, "companyId:101")).toEqual([]);
    expect(await orderIds(TENANT_B, 'requesterName:"John Smith"')).toEqual([]);
    expect(await orderIds(TENANT_B, `orderId<${demo(17)}`, { include: "lineItems,shippingInfo" })).toEqual([]);
    expect(await orderIds(3, "")).toEqual(idsOf(tenantOrders(3)));
    const everything = await searchData(await tokenFor(TENANT_B), "/orders/search", { include: "lineItems,shippingInfo", limit: 100 });
    const text = JSON.stringify(everything);
    for (const order of A) expect(text).not.toContain(order.orderNumber);
  });

  it("treats injection attempts in every value position as plain values", async () => {
    const token = await tokenFor(TENANT_A);
    const attacks = [
      `requesterName:"x' OR '1'='1"`,
      `requesterName~"' OR 1=1 --"`,
      `poNumber:"\\" OR \\"\\"=\\""`,
      `requesterName:"x\\" OR tenant_id=2 --"`,
      `partNumber~"%') OR 1=1 --"`,
      `status:"Ordered' OR 'a'='a"`,
      `orderDate:"2025-10-25' OR '1'='1"`,
    ];
    for (const q of attacks) {
      const res = await searchRaw(token, "/orders/search", { q });
      if (res.status === 200) expect((await json(res)).data.pagination.total, q).toBe(0);
      else expect((await expectProblem(res, 400)).title, q).toBe("Invalid search query");
    }
    for (const params of [
      { sortBy: "total; DROP TABLE orders" },
      { sortBy: "total desc, (select 1)" },
      { sortDir: "Asc; --" },
      { limit: "1 OR 1=1" },
      { offset: "0; DELETE FROM orders" },
    ]) {
      expect((await expectProblem(await searchRaw(token, "/orders/search", params), 400)).title).toBe("Validation failed");
    }
    const injectedInclude = await searchData(token, "/orders/search", { include: "lineItems') OR 1=1 --", q: `orderId:${demo(1)}` });
    expect(injectedInclude.orders).toHaveLength(1);
    // Every store still holds its tenant's orders.
    const perStore = await rowsOfEveryStore("select count(*) as n from orders");
    expect(perStore.reduce((sum, row) => sum + (row.n as number), 0)).toBe(ALL.length);
    expect(await storeRows(TENANT_A, "select count(*) as n from orders")).toEqual([{ n: A.length }]);
  });
});
