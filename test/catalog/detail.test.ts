import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isGtin } from "../../src/catalog/gtin";
import { DEMO_CASE_QUANTITY, generateDeviceIdentifiers } from "../../src/seed/catalog";
import { call, expectProblem, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { detailRaw, JSMITH } from "../helpers/catalog";

const DAY_MS = 24 * 60 * 60 * 1000;
const QUOTE_TTL_SECONDS = 30 * 24 * 60 * 60;

async function detail(productId: string) {
  const res = await detailRaw({ productId });
  const body = await res.json<any>();
  if (res.status !== 200) throw new Error(`detail failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The vendor offers of a product as stored, cheapest first (the order options are listed in). */
async function offersOf(productId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, vendor_id, price_cents, condition, purchase_choice, warranty FROM vendor_offers WHERE product_id = ? ORDER BY price_cents, id",
  )
    .bind(productId)
    .all<{ id: number; vendor_id: number; price_cents: number; condition: string; purchase_choice: string; warranty: string }>();
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
      expect(option.priceOptionId).toMatch(/^po_[A-Za-z0-9_-]{32}$/);
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
    const quotesOf = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM quotes WHERE product_id = 'MP-0000004'").first<{ n: number }>())!.n;
    await env.CATALOG.prepare("UPDATE products SET status = 'discontinued' WHERE id = 'MP-0000004'").run();
    const discontinued = (await detail("MP-0000004")).data;
    expect(discontinued.product.status).toBe("discontinued");
    expect(discontinued.options.length).toBeGreaterThan(0);
    await env.CATALOG.prepare("UPDATE products SET status = 'withdrawn' WHERE id = 'MP-0000004'").run();
    const before = await quotesOf();
    const withdrawn = (await detail("MP-0000004")).data;
    expect(withdrawn.product.status).toBe("withdrawn");
    expect(withdrawn.options).toEqual([]);
    expect(await quotesOf()).toBe(before);
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

  it("issues fresh quotes on every call, stored in D1 and in KV with a 30-day expiry", async () => {
    const before = Date.now();
    const first = (await detail("MP-0000007")).data.options;
    const second = (await detail("MP-0000007")).data.options;
    const after = Date.now();
    const firstIds = first.map((o: any) => o.priceOptionId);
    expect(new Set([...firstIds, ...second.map((o: any) => o.priceOptionId)]).size).toBe(first.length * 2);

    for (const option of first) {
      const row = await env.DB.prepare("SELECT * FROM quotes WHERE id = ?").bind(option.priceOptionId).first<any>();
      expect(row).toMatchObject({
        tenant_id: 1,
        requester_contact_id: JSMITH.requesterId,
        facility_id: JSMITH.facilityId,
        product_id: "MP-0000007",
        price_cents: Math.round(option.price * 100),
        condition: option.condition,
        warranty: option.warranty,
        purchase_choice: option.purchaseChoice,
        used_by_order_id: null,
      });
      expect(JSON.parse(row.custom_fields)).toEqual(option.customFields);
      const created = Date.parse(row.created_at);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(after + 1000);
      expect(Date.parse(row.expires_at) - created).toBe(30 * DAY_MS);
      expect(option.expiresAt).toBe(row.expires_at);

      const key = `quote:${option.priceOptionId}`;
      const cached = await env.QUOTES.get<any>(key, "json");
      expect(cached).toMatchObject({
        priceOptionId: option.priceOptionId,
        tenantId: 1,
        priceCents: row.price_cents,
        expiresAt: row.expires_at,
      });
      const { keys } = await env.QUOTES.list({ prefix: key });
      expect(keys).toHaveLength(1);
      const ttl = keys[0]!.expiration! - after / 1000;
      expect(ttl).toBeGreaterThan(QUOTE_TTL_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(QUOTE_TTL_SECONDS + 1);
    }
  });

  it("a product with many offers gets a quote for each (beyond one D1 statement's parameter limit)", async () => {
    const insert = env.DB.prepare(
      "INSERT INTO vendor_offers (id, product_id, vendor_id, condition, purchase_choice, warranty, price_cents, lead_time_days) VALUES (?, 'MP-0000010', ?, 'Aftermarket', 'Buy', '30 days', ?, 3)",
    );
    await env.DB.batch(Array.from({ length: 10 }, (_, i) => insert.bind(9_000_000 + i, (i % 6) + 1, 1000 + i)));
    const offers = await offersOf("MP-0000010");
    expect(offers.length).toBeGreaterThanOrEqual(12);
    const { data } = await detail("MP-0000010");
    expect(data.options).toHaveLength(offers.length);
    const ids: string[] = data.options.map((o: { priceOptionId: string }) => o.priceOptionId);
    const stored = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM quotes WHERE product_id = 'MP-0000010' AND id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(ids))
      .first<{ n: number }>();
    expect(stored!.n).toBe(offers.length);
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

  it("is 403, issuing no quote, without facility access or across tenants", async () => {
    const count = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM quotes").first<{ n: number }>())!.n;
    const before = await count();
    await expectProblem(await detailRaw({ productId: "MP-0000001", requesterId: 50004 }), 403);
    await expectProblem(await detailRaw({ productId: "MP-0000001", facilityId: 2001 }), 403);
    await expectProblem(await detailRaw({ productId: "MP-0000001" }, await tokenFor(TENANT_B)), 403);
    expect(await count()).toBe(before);
  });

  it("binds tenant-2 quotes to tenant 2", async () => {
    const res = await detailRaw({ productId: "MP-0000001", requesterId: 60001, facilityId: 2002 }, await tokenFor(TENANT_B));
    expect(res.status).toBe(200);
    const { data } = await res.json<any>();
    const row = await env.DB.prepare("SELECT tenant_id, requester_contact_id, facility_id FROM quotes WHERE id = ?")
      .bind(data.options[0].priceOptionId)
      .first();
    expect(row).toEqual({ tenant_id: 2, requester_contact_id: 60001, facility_id: 2002 });
  });
});
