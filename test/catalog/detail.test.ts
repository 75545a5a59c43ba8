import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEMO_CASE_QUANTITY, generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { isGtin } from "../../src/shared/catalog/gtin";
import { readPriceOption } from "../../src/shared/catalog/price-option-ids";
import { priceOptionKeys } from "../../src/shared/catalog/quotes";
import { call, expectProblem, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { detailRaw, JSMITH } from "../helpers/catalog";
import { countsInEveryStore } from "../helpers/stores";

/** Quotes stored in the tenants' stores and KV (before signed ids): detail adds none. */
const storedQuotes = async () => ({
  stores: (await countsInEveryStore({ n: "SELECT count(*) AS n FROM quotes" })).n,
  kv: (await env.QUOTES.list({ prefix: "quote:" })).keys.length,
});

async function detail(productId: string) {
  const res = await detailRaw({ productId });
  const body = await res.json<any>();
  if (res.status !== 200) throw new Error(`detail failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The vendor offers of a product as stored, cheapest first (the order options are listed in). */
async function offersOf(productId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, vendor_id, sku, product_id, price_cents, condition, purchase_choice, warranty FROM vendor_offers WHERE product_id = ? AND replaced_at IS NULL AND withdrawn_at IS NULL ORDER BY price_cents, id",
  )
    .bind(productId)
    .all<{
      id: number;
      vendor_id: number;
      sku: string;
      product_id: string;
      price_cents: number;
      condition: string;
      purchase_choice: string;
      warranty: string;
    }>();
  return results;
}

describe("POST /catalog/detail", () => {
  it("returns the product and one price option per vendor offer", async () => {
    const body = await detail("MP-0000003");
    expect(body).toMatchObject({ success: true, correlationId: expect.any(String), timestamp: expect.any(String) });
    expect(body.data.product).toEqual({
      id: "MP-0000003",
      partNumber: "SH115838A",
      title: "Siemens Healthineers Monitor Mounting Bracket",
      description: expect.stringContaining("OEM part SH-115-838 A"),
      manufacturer: "Siemens Healthineers",
      status: "active",
      deviceIdentifiers: generateDeviceIdentifiers(2).map(({ agency, deviceId, containsDeviceId, quantity }) => ({
        agency,
        deviceId,
        containsDeviceId,
        quantity,
      })),
    });
    const offers = await offersOf("MP-0000003");
    expect(offers.length).toBeGreaterThanOrEqual(2);
    expect(body.data.options.map((o: any) => [o.price, o.condition, o.purchaseChoice, o.warranty])).toEqual(
      offers.map((o) => [o.price_cents / 100, o.condition, o.purchase_choice, o.warranty]),
    );
    for (const option of body.data.options) {
      expect(option).toMatchObject({ vendorName: expect.any(String), leadTimeDays: expect.any(Number), returnPolicy: expect.any(String) });
      expect(option.priceOptionId).toMatch(/^po_[A-Za-z0-9_-]{68}$/);
    }
    expect(new Set(body.data.options.map((o: any) => o.vendorName)).size).toBe(offers.length);
  });

  it("shows the product's device identifiers: a GTIN-14 unit, and a case holding N units of it", async () => {
    const { product } = (await detail("MP-0000001")).data;
    expect(product.deviceIdentifiers).toHaveLength(2);
    const [unit, box] = product.deviceIdentifiers;
    expect(unit).toMatchObject({ agency: "GS1", containsDeviceId: null, quantity: null });
    expect(box).toMatchObject({ agency: "GS1", containsDeviceId: unit.deviceId, quantity: DEMO_CASE_QUANTITY });
    for (const { deviceId } of product.deviceIdentifiers) {
      expect(deviceId).toMatch(/^\d{14}$/);
      expect(isGtin(deviceId)).toBe(true);
    }
  });

  it("a withdrawn product is shown without options and is not quoted; a discontinued one still is", async () => {
    await env.CATALOG.prepare("UPDATE products SET status = 'discontinued' WHERE id = 'MP-0000004'").run();
    const discontinued = (await detail("MP-0000004")).data;
    expect(discontinued.product.status).toBe("discontinued");
    expect(discontinued.options.length).toBeGreaterThan(0);
    await env.CATALOG.prepare("UPDATE products SET status = 'withdrawn' WHERE id = 'MP-0000004'").run();
    const withdrawn = (await detail("MP-0000004")).data;
    expect(withdrawn.product.status).toBe("withdrawn");
    expect(withdrawn.options).toEqual([]);
    await env.CATALOG.prepare("UPDATE products SET status = 'active' WHERE id = 'MP-0000004'").run();
  });

  it("prices are JSON numbers with at most two decimal places", async () => {
    const text = await (await detailRaw({ productId: "MP-0000003" })).text();
    const prices = [...text.matchAll(/"price":([^,}]+)/g)].map((m) => m[1]!);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^\d+(\.\d{1,2})?$/);
  });

  it("lists the custom fields a vendor needs (exchange: core serial number)", async () => {
    const { data } = await detail("MP-0000003");
    const exchange = data.options.find((o: any) => o.purchaseChoice === "Exchange");
    expect(exchange.customFields).toContainEqual({
      fieldId: "coreSerialNumber",
      prompt: "Serial number of the unit being exchanged",
      isRequired: true,
      formatRegex: "^[A-Z0-9-]{6,20}$",
      errorMessage: expect.any(String),
    });
    expect(new RegExp(exchange.customFields[0].formatRegex).test("SN-123456")).toBe(true);
    const newOem = data.options.find((o: any) => o.condition === "New OEM");
    expect(newOem.customFields).toEqual([]);
  });

  it("issues fresh quotes on every call, storing nothing: each id carries its scope, price, offer and issue time (30 days)", async () => {
    const storedBefore = await storedQuotes();
    const before = Math.floor(Date.now() / 1000);
    const first = (await detail("MP-0000007")).data.options;
    const second = (await detail("MP-0000007")).data.options;
    const after = Math.ceil(Date.now() / 1000);
    const firstIds = first.map((o: any) => o.priceOptionId);
    expect(new Set([...firstIds, ...second.map((o: any) => o.priceOptionId)]).size).toBe(first.length * 2);

    const offers = await offersOf("MP-0000007");
    for (const option of first) {
      const terms = (await readPriceOption(priceOptionKeys(env), option.priceOptionId))!;
      expect(terms).toMatchObject({
        tenantId: 1,
        requesterContactId: JSMITH.requesterId,
        facilityId: JSMITH.facilityId,
        priceCents: Math.round(option.price * 100),
        agreementId: 0,
      });
      const offer = offers.find((o) => o.id === terms.offerId)!;
      expect(offer).toMatchObject({ product_id: "MP-0000007", condition: option.condition, warranty: option.warranty });
      expect(terms.issuedAt).toBeGreaterThanOrEqual(before);
      expect(terms.issuedAt).toBeLessThanOrEqual(after);
      expect(Date.parse(option.expiresAt) / 1000 - terms.issuedAt).toBe(30 * 86_400);
      expect(option).toMatchObject({ priceSource: "list", agreementId: null, listPrice: option.price, vendorSku: offer.sku });
    }
    expect(await storedQuotes()).toEqual(storedBefore);
  });

  it("a product with many offers gets a quote for each, each id its own", async () => {
    const insert = env.DB.prepare(
      "INSERT INTO vendor_offers (id, product_id, vendor_id, condition, purchase_choice, warranty, price_cents, lead_time_days, sku) VALUES (?, 'MP-0000010', ?, 'Aftermarket', 'Buy', '30 days', ?, 3, ?)",
    );
    await env.DB.batch(Array.from({ length: 10 }, (_, i) => insert.bind(9_000_000 + i, (i % 6) + 1, 1000 + i, `MANY-${i}`)));
    const offers = await offersOf("MP-0000010");
    expect(offers.length).toBeGreaterThanOrEqual(12);
    const { data } = await detail("MP-0000010");
    expect(data.options).toHaveLength(offers.length);
    const terms = await Promise.all(
      data.options.map((o: { priceOptionId: string }) => readPriceOption(priceOptionKeys(env), o.priceOptionId)),
    );
    expect(new Set(terms.map((t) => t!.offerId))).toEqual(new Set(offers.map((o) => o.id)));
  });

  it("an unknown product is 404", async () => {
    const body = await expectProblem(await detailRaw({ productId: "MP-9999999" }), 404);
    expect(body.detail).toContain("MP-9999999");
  });

  it("without facility access, an unknown product is a 403 too: the access check's answer comes first, though both run side by side", async () => {
    for (let i = 0; i < 5; i++) {
      const body = await expectProblem(await detailRaw({ productId: "MP-9999999", requesterId: 50004 }), 403);
      expect(body.detail).not.toContain("MP-9999999");
    }
  });

  it("a bad body is a 400 naming each field", async () => {
    const body = await expectProblem(await detailRaw({ productId: 5, facilityId: "1001", requesterId: -1 }), 400);
    expect(Object.keys(body.errors).sort()).toEqual(["facilityId", "productId", "requesterId"]);
    const missing = await expectProblem(await detailRaw({ productId: undefined }), 400);
    expect(Object.keys(missing.errors)).toEqual(["productId"]);
    const unknown = await expectProblem(await detailRaw({ productId: "MP-0000001", productID: "MP-0000002" }), 400);
    expect(unknown.errors).toEqual({ productID: ["Unknown field; did you mean productId?"] });
  });

  it("malformed JSON is a 400", async () => {
    const res = await call(await tokenFor(TENANT_A), "/catalog/detail", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{ not json",
    });
    await expectProblem(res, 400);
  });

  it("is 403, with no price option in the answer, without facility access or across tenants", async () => {
    for (const res of [
      await detailRaw({ productId: "MP-0000001", requesterId: 50004 }),
      await detailRaw({ productId: "MP-0000001", facilityId: 2001 }),
      await detailRaw({ productId: "MP-0000001" }, await tokenFor(TENANT_B)),
    ]) {
      const body = await expectProblem(res, 403);
      expect(JSON.stringify(body)).not.toContain("po_");
    }
  });

  it("binds tenant-2 quotes to tenant 2", async () => {
    const res = await detailRaw({ productId: "MP-0000001", requesterId: 60001, facilityId: 2002 }, await tokenFor(TENANT_B));
    expect(res.status).toBe(200);
    const { data } = await res.json<any>();
    const terms = await readPriceOption(priceOptionKeys(env), data.options[0].priceOptionId);
    expect(terms).toMatchObject({ tenantId: 2, requesterContactId: 60001, facilityId: 2002 });
  });
});
