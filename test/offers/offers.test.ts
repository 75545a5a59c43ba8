import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { jsonGroups } from "../../src/db/bulk-insert";
import { productId } from "../../src/dev/seed/catalog";
import { call, expectProblem, json, TENANT_A, vendorTokenFor } from "../helpers/api";
import { issueQuotes, JSMITH, lineFor, orderBody, placeOrder } from "../helpers/orders";
import { storeRows } from "../helpers/stores";

/** A vendor of the demo data with offers of its own (src/dev/seed/catalog.ts); another to attack it. */
const VENDOR = 6;
const OTHER_VENDOR = 2;

const offer = (extra: Record<string, unknown> = {}) => ({
  productId: productId(40),
  condition: "New OEM",
  purchaseChoice: "Buy",
  warranty: "24 months",
  price: 321.5,
  leadTimeDays: 4,
  ...extra,
});

const put = async (sku: string, body: unknown, vendor = VENDOR) =>
  call(await vendorTokenFor(vendor), `/vendor/api/offers/${sku}`, { method: "PUT", json: body });
const get = async (path: string, vendor = VENDOR) => call(await vendorTokenFor(vendor), `/vendor/api${path}`);
const batch = async (offers: unknown[], vendor = VENDOR) =>
  call(await vendorTokenFor(vendor), "/vendor/api/offers/batch", { method: "POST", json: { offers } });

/** The option of `sku`'s offer in a fresh catalog detail for jsmith. */
async function optionOf(product: string, sku: string) {
  return (await issueQuotes(product)).find((q) => (q as unknown as { vendorSku: string }).vendorSku === sku);
}

describe("vendor offers: publish, change, withdraw", () => {
  it("PUT creates (201) and the same body again changes nothing (200, same revision and updatedAt)", async () => {
    const created = await put("T-OFF-1", offer());
    expect(created.status).toBe(201);
    expect(created.headers.get("Location")).toBe("/vendor/api/offers/T-OFF-1");
    const first = (await json(created)).data;
    expect(first).toMatchObject({
      sku: "T-OFF-1",
      productId: productId(40),
      price: 321.5,
      unitOfMeasure: "EA",
      packQuantity: 1,
      status: "active",
    });
    const again = await put("T-OFF-1", offer());
    expect(again.status).toBe(200);
    expect((await json(again)).data).toEqual(first);
    expect((await json(await get("/offers/T-OFF-1"))).data).toEqual(first);
  });

  it("a new price is the same revision and shows in the next quote at once; new terms are a new revision", async () => {
    await put("T-OFF-2", offer({ productId: productId(41) }));
    const before = (await json(await get("/offers/T-OFF-2"))).data;
    const repriced = (await json(await put("T-OFF-2", offer({ productId: productId(41), price: 299.99 })))).data;
    expect(repriced).toMatchObject({ price: 299.99, revision: before.revision });
    expect((await optionOf(productId(41), "T-OFF-2"))!.price).toBe(299.99);
    const rewarrantied = (await json(await put("T-OFF-2", offer({ productId: productId(41), price: 299.99, warranty: "36 months" })))).data;
    expect(rewarrantied.revision).not.toBe(before.revision);
    const current = await env.DB.prepare(
      "SELECT count(*) AS n FROM vendor_offers WHERE vendor_id = ? AND sku = 'T-OFF-2' AND replaced_at IS NULL",
    )
      .bind(VENDOR)
      .first<{ n: number }>();
    expect(current!.n).toBe(1);
  });

  it("an issued quote keeps its terms: ordered at its price after a price change, and after the offer is withdrawn", async () => {
    const product = productId(42);
    await put("T-OFF-3", offer({ productId: product, price: 100 }));
    const quote = (await optionOf(product, "T-OFF-3"))!;
    await put("T-OFF-3", offer({ productId: product, price: 150, warranty: "6 months" }));
    expect((await call(await vendorTokenFor(VENDOR), "/vendor/api/offers/T-OFF-3", { method: "DELETE" })).status).toBe(204);
    expect(await optionOf(product, "T-OFF-3")).toBeUndefined();
    const stale = await placeOrder(orderBody([{ ...lineFor(quote), price: 150 }]));
    expect(stale.status).toBe(422);
    const ordered = await placeOrder(orderBody([lineFor(quote)]));
    expect(ordered.status).toBe(201);
    const [line] = await storeRows(TENANT_A, "SELECT price_cents FROM order_lines WHERE quote_id = ?", quote.priceOptionId);
    expect(line!.price_cents).toBe(10000);
  });

  it("DELETE withdraws (no new quotes), again is 204; publishing it again makes it active; an unknown SKU is 404", async () => {
    await put("T-OFF-4", offer({ productId: productId(43) }));
    const token = await vendorTokenFor(VENDOR);
    expect((await call(token, "/vendor/api/offers/T-OFF-4", { method: "DELETE" })).status).toBe(204);
    expect((await call(token, "/vendor/api/offers/T-OFF-4", { method: "DELETE" })).status).toBe(204);
    expect((await json(await get("/offers/T-OFF-4"))).data.status).toBe("withdrawn");
    expect(await optionOf(productId(43), "T-OFF-4")).toBeUndefined();
    expect((await put("T-OFF-4", offer({ productId: productId(43) }))).status).toBe(200);
    expect(await optionOf(productId(43), "T-OFF-4")).toBeDefined();
    await expectProblem(await call(token, "/vendor/api/offers/T-NONE", { method: "DELETE" }), 404);
  });

  it("names the product by GTIN or by manufacturer and part number as well as by id", async () => {
    const gtin = await env.CATALOG.prepare("SELECT device_id FROM device_identifiers WHERE product_id = ? AND contains_device_id IS NULL")
      .bind(productId(44))
      .first<{ device_id: string }>();
    const byGtin = await put("T-OFF-5", { ...offer(), productId: undefined, gtin: gtin!.device_id });
    expect((await json(byGtin)).data.productId).toBe(productId(44));
    const product = await env.CATALOG.prepare(
      "SELECT p.part_number, m.name FROM products p JOIN manufacturers m ON m.id = p.manufacturer_id WHERE p.id = ?",
    )
      .bind(productId(45))
      .first<{ part_number: string; name: string }>();
    const byPart = await put("T-OFF-6", {
      ...offer(),
      productId: undefined,
      manufacturer: product!.name.toUpperCase(),
      partNumber: product!.part_number,
    });
    expect((await json(byPart)).data.productId).toBe(productId(45));
  });

  it("effective dates and a future price: not quoted before effectiveFrom; the future price once it is in effect", async () => {
    const product = productId(46);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await put("T-OFF-7", offer({ productId: product, effectiveFrom: tomorrow }));
    expect(await optionOf(product, "T-OFF-7")).toBeUndefined();
    await put("T-OFF-7", offer({ productId: product, futurePrice: { price: 77, effectiveFrom: yesterday } }));
    expect((await optionOf(product, "T-OFF-7"))!.price).toBe(77);
    await put("T-OFF-7", offer({ productId: product, futurePrice: { price: 77, effectiveFrom: tomorrow } }));
    expect((await optionOf(product, "T-OFF-7"))!.price).toBe(321.5);
  });
});

describe("vendor offers: bad input", () => {
  it("each bad field is a 400 naming it; nothing is written", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [offer({ price: 1.999 }), "price"],
      [offer({ price: 0 }), "price"],
      [offer({ price: -5 }), "price"],
      [offer({ price: 10_000_000 }), "price"],
      [offer({ effectiveFrom: "2027-02-01T00:00:00Z", effectiveTo: "2027-01-01T00:00:00Z" }), "effectiveTo"],
      [offer({ gtin: "00614100000015" }), "productId"],
      [offer({ quantityAvailable: 5 }), "quantityCountedAt"],
      [offer({ unitOfMeasure: "each" }), "unitOfMeasure"],
      [offer({ leadTime: 4 }), "leadTime"],
      [
        offer({ customFields: [{ fieldId: "serial", prompt: "Serial", isRequired: true, formatRegex: "^(a+)+$", errorMessage: "No." }] }),
        "customFields[0].formatRegex",
      ],
      [
        offer({ customFields: [{ fieldId: "serial", prompt: "Serial", isRequired: true, formatRegex: "([a-z", errorMessage: "No." }] }),
        "customFields[0].formatRegex",
      ],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await put("T-OFF-BAD", body), 400);
      expect(Object.keys(problem.errors), JSON.stringify(body)).toContain(field);
    }
    await expectProblem(await get("/offers/T-OFF-BAD"), 404);
  });

  it("an unknown product, a bad GTIN check digit or a withdrawn product is a 422 naming the field", async () => {
    const unknown = await expectProblem(await put("T-OFF-BAD", offer({ productId: "MP-9999999" })), 422);
    expect(unknown.errors).toEqual([expect.stringContaining("productId")]);
    const badCheck = await expectProblem(await put("T-OFF-BAD", { ...offer(), productId: undefined, gtin: "00614100000016" }), 422);
    expect(badCheck.errors).toEqual([expect.stringContaining("gtin")]);
    await env.CATALOG.prepare("UPDATE products SET status = 'withdrawn' WHERE id = ?").bind(productId(47)).run();
    const withdrawn = await expectProblem(await put("T-OFF-BAD", offer({ productId: productId(47) })), 422);
    expect(withdrawn.errors).toEqual([expect.stringContaining("withdrawn")]);
    await env.CATALOG.prepare("UPDATE products SET status = 'active' WHERE id = ?").bind(productId(47)).run();
  });

  it("refuses known ReDoS patterns and takes the demo catalog's own", async () => {
    const { formatRegexProblem } = await import("../../src/operator/offers/format-regex");
    for (const evil of [
      "(a+)+$",
      "^(a|a)*$",
      "^(\\w+\\s?)*$",
      "(x+x+)+y",
      "(a|aa)+$",
      "^(\\d+)*$",
      "(.*a){12}",
      "^(([a-z])+.)+[A-Z]([a-z])+$",
    ]) {
      expect(formatRegexProblem(evil), evil).not.toBeNull();
    }
    for (const safe of ["^[A-Z0-9-]{6,20}$", "^\\d{4}-\\d{2}-\\d{2}$", "^[0-9]{4,8}$", "^CC-\\d{4}$", "^(?:\\d{3}-)?\\d{3}-\\d{4}$"]) {
      expect(formatRegexProblem(safe), safe).toBeNull();
    }
    expect(formatRegexProblem("a".repeat(201))).toMatch(/200/);
  });
});

describe("vendor offers: batch", () => {
  it("answers a result per row; valid rows are written, a bad field, a SKU twice, an unknown product rejected", async () => {
    const res = await batch([
      { sku: "T-BAT-1", ...offer({ productId: productId(50) }) },
      { sku: "T-BAT-2", ...offer({ productId: productId(51), price: 12.345 }) },
      { sku: "T-BAT-1", ...offer({ productId: productId(52) }) },
      { sku: "T-BAT-3", ...offer({ productId: "MP-9999999" }) },
      { sku: "T-BAT-4", ...offer({ productId: productId(53) }) },
      "not an object",
    ]);
    expect(res.status).toBe(200);
    const { results, counts } = (await json(res)).data;
    expect(results.map((r: { outcome: string }) => r.outcome)).toEqual([
      "created",
      "rejected",
      "rejected",
      "rejected",
      "created",
      "rejected",
    ]);
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, rejected: 4 });
    expect(results[1].errors).toEqual({ price: [expect.any(String)] });
    expect(results[2].errors.sku[0]).toContain("offers[0]");
    expect(results[3].errors).toEqual({ productId: [expect.any(String)] });
    expect(results[5]).toMatchObject({ sku: null, offer: null });
    expect(results[0].offer).toMatchObject({ sku: "T-BAT-1", productId: productId(50) });
    await expectProblem(await get("/offers/T-BAT-2"), 404);
    expect((await json(await get("/offers/T-BAT-4"))).data.productId).toBe(productId(53));
    const again = (await json(await batch([{ sku: "T-BAT-1", ...offer({ productId: productId(50) }) }]))).data;
    expect(again.results[0].outcome).toBe("unchanged");
  });

  it("a body that is not { offers: [1..1000] } is a 400", async () => {
    for (const body of [{}, { offers: [] }, { offers: Array.from({ length: 1001 }, () => ({})) }, { offers: [], extra: 1 }]) {
      await expectProblem(await call(await vendorTokenFor(VENDOR), "/vendor/api/offers/batch", { method: "POST", json: body }), 400);
    }
  });
});

describe("vendor offers: large writes are cut by bytes", () => {
  it("jsonGroups cuts rows into JSON arrays of at most the byte limit, in order, a larger row alone", () => {
    const rows = [{ a: "x".repeat(10) }, { a: "y".repeat(10) }, { a: "z".repeat(50) }, { a: "w" }];
    const groups = jsonGroups(rows, 40);
    expect(groups.flatMap((group) => JSON.parse(group))).toEqual(rows);
    expect(groups.map((group) => JSON.parse(group).length)).toEqual([2, 1, 1]);
    for (const group of groups.slice(0, 1)) expect(new TextEncoder().encode(group).length).toBeLessThanOrEqual(40);
  });
});

describe("vendor offers: list and isolation", () => {
  it("lists the vendor's own current offers with the q language", async () => {
    await put("T-LST-1", offer({ productId: productId(54), price: 5 }));
    await put("T-LST-2", offer({ productId: productId(55), price: 9.5 }));
    const page = (await json(await get(`/offers?q=${encodeURIComponent('sku~"T-LST" AND price<9.99')}`))).data;
    expect(page.offers.map((o: { sku: string }) => o.sku)).toEqual(["T-LST-1", "T-LST-2"]);
    expect(page.pagination).toMatchObject({ total: 2, hasMore: false });
    const bad = await expectProblem(await get(`/offers?q=${encodeURIComponent("warranty>3")}`), 400);
    expect(bad.title).toBe("Invalid search query");
  });

  it("another vendor neither sees nor changes a vendor's offer; the same SKU is its own", async () => {
    await put("T-ISO-1", offer({ productId: productId(56) }));
    await expectProblem(await get("/offers/T-ISO-1", OTHER_VENDOR), 404);
    await expectProblem(await call(await vendorTokenFor(OTHER_VENDOR), "/vendor/api/offers/T-ISO-1", { method: "DELETE" }), 404);
    const theirs = (await json(await get(`/offers?q=${encodeURIComponent('sku:"T-ISO-1"')}`, OTHER_VENDOR))).data;
    expect(theirs.offers).toEqual([]);
    expect((await put("T-ISO-1", offer({ productId: productId(57), price: 1 }), OTHER_VENDOR)).status).toBe(201);
    expect((await json(await get("/offers/T-ISO-1"))).data).toMatchObject({ productId: productId(56), price: 321.5 });
  });

  it("a buyer token or a token without offers:write is refused", async () => {
    const { tokenFor } = await import("../helpers/api");
    expect((await call(await tokenFor(JSMITH.tenantId), "/vendor/api/offers")).status).toBe(401);
    const readOnly = await vendorTokenFor(VENDOR, ["offers:read"]);
    expect((await call(readOnly, "/vendor/api/offers/T-OFF-X", { method: "PUT", json: offer() })).status).toBe(403);
  });
});
