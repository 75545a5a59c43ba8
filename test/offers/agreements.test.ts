import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { call, expectProblem, json, operatorTokenFor, TENANT_A, TENANT_B, vendorTokenFor } from "../helpers/api";
import { issueQuotes, JSMITH, KJOHNSON, lineFor, orderBody, placeOrder } from "../helpers/orders";

const VENDOR = 3;
const OTHER_VENDOR = 1;
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

const vendorCall = async (method: string, path: string, body?: unknown, vendor = VENDOR) =>
  call(await vendorTokenFor(vendor), `/vendor/api${path}`, { method, ...(body === undefined ? {} : { json: body }) });

/** An offer of the vendor on `product` at a list price of 500.00; its SKU. */
async function offerOn(product: string, sku: string): Promise<string> {
  const res = await vendorCall("PUT", `/offers/${sku}`, {
    productId: product,
    condition: "New OEM",
    purchaseChoice: "Buy",
    warranty: "12 months",
    price: 500,
    leadTimeDays: 2,
  });
  expect(res.status).toBeLessThan(300);
  return sku;
}

const agreement = (extra: Record<string, unknown>) => ({
  reference: "CONTRACT-1",
  scope: { kind: "tenant", tenantId: TENANT_A },
  effectiveFrom: at(-1),
  ...extra,
});

/** The option of the SKU in a fresh detail for `who`. */
async function optionOf(product: string, sku: string, who = JSMITH) {
  return (await issueQuotes(product, who)).find((q) => (q as unknown as { vendorSku: string }).vendorSku === sku) as unknown as
    | { price: number; priceSource: string; agreementId: number | null; agreementReference: string | null; listPrice: number }
    | undefined;
}

describe("price agreements: the buyer's eligible price", () => {
  it("a tenant agreement prices that tenant's quotes (and orders), not another tenant's; ending it restores the list price", async () => {
    const product = productId(80);
    const sku = await offerOn(product, "T-AGR-1");
    const created = await vendorCall("POST", "/agreements", agreement({ reference: "HS-2026-1", prices: [{ sku, price: 412.25 }] }));
    expect(created.status).toBe(201);
    const { data } = await json(created);
    expect(created.headers.get("Location")).toBe(`/vendor/api/agreements/${data.agreementId}`);
    expect(data).toMatchObject({ reference: "HS-2026-1", status: "active", scope: { kind: "tenant", tenantId: TENANT_A } });
    expect(data.prices).toEqual([{ sku, productId: product, price: 412.25 }]);

    const mine = (await optionOf(product, sku))!;
    expect(mine).toMatchObject({
      price: 412.25,
      priceSource: "contract",
      agreementId: data.agreementId,
      agreementReference: "HS-2026-1",
      listPrice: 500,
    });
    expect(await optionOf(product, sku, KJOHNSON)).toMatchObject({ price: 500, priceSource: "list", agreementId: null });
    const quote = (await issueQuotes(product)).find((q) => q.price === 412.25)!;
    expect((await placeOrder(orderBody([lineFor(quote)]))).status).toBe(201);

    expect((await vendorCall("DELETE", `/agreements/${data.agreementId}`)).status).toBe(204);
    expect((await json(await vendorCall("GET", `/agreements/${data.agreementId}`))).data.status).toBe("ended");
    expect(await optionOf(product, sku)).toMatchObject({ price: 500, priceSource: "list" });
  });

  it("a facilities agreement prices those facilities only; a product line covers every offer of the vendor for the product", async () => {
    const product = productId(81);
    const sku = await offerOn(product, "T-AGR-2");
    const res = await vendorCall(
      "POST",
      "/agreements",
      agreement({
        scope: { kind: "facilities", tenantId: TENANT_A, facilityIds: [JSMITH.facilityId] },
        prices: [{ productId: product, price: 333 }],
      }),
    );
    expect(res.status).toBe(201);
    expect((await optionOf(product, sku))!.price).toBe(333);
    expect((await optionOf(product, sku, { ...JSMITH, facilityId: 1002 }))!.price).toBe(500);
  });

  it("a tier agreement prices the tenants the operator puts in the tier, and stops when one is taken out", async () => {
    const product = productId(82);
    const sku = await offerOn(product, "T-AGR-3");
    const operator = await operatorTokenFor();
    const tier = (await json(await call(operator, "/admin/api/tiers", { method: "POST", json: { name: "Agreement test tier" } }))).data;
    expect(
      (await vendorCall("POST", "/agreements", agreement({ scope: { kind: "tier", tierId: tier.tierId }, prices: [{ sku, price: 250 }] })))
        .status,
    ).toBe(201);
    expect((await optionOf(product, sku))!.price).toBe(500);
    expect((await call(operator, `/admin/api/tiers/${tier.tierId}/tenants/${TENANT_A}`, { method: "PUT" })).status).toBe(204);
    expect((await optionOf(product, sku))!.price).toBe(250);
    expect((await optionOf(product, sku, KJOHNSON))!.price).toBe(500);
    expect((await call(operator, `/admin/api/tiers/${tier.tierId}/tenants/${TENANT_A}`, { method: "DELETE" })).status).toBe(204);
    expect((await optionOf(product, sku))!.price).toBe(500);
  });

  it("an agreement not yet in effect, or past its end, is not applied", async () => {
    const product = productId(83);
    const sku = await offerOn(product, "T-AGR-4");
    await vendorCall(
      "POST",
      "/agreements",
      agreement({ scope: { kind: "tenant", tenantId: TENANT_B }, effectiveFrom: at(3), prices: [{ sku, price: 1 }] }),
    );
    await vendorCall("POST", "/agreements", agreement({ effectiveFrom: at(-10), effectiveTo: at(-2), prices: [{ sku, price: 2 }] }));
    expect((await optionOf(product, sku))!.price).toBe(500);
    expect((await optionOf(product, sku, KJOHNSON))!.price).toBe(500);
  });
});

describe("price agreements: one per scope at a time", () => {
  it("an overlapping period for the same scope is a 409 naming the agreement; after its end is fine; PATCH keeps the rule", async () => {
    const product = productId(84);
    const sku = await offerOn(product, "T-AGR-5");
    const scope = { kind: "tenant", tenantId: 3 };
    const first = (
      await json(await vendorCall("POST", "/agreements", agreement({ scope, effectiveTo: at(30), prices: [{ sku, price: 400 }] })))
    ).data;
    const overlapping = await expectProblem(
      await vendorCall("POST", "/agreements", agreement({ scope, effectiveFrom: at(10), prices: [{ sku, price: 390 }] })),
      409,
    );
    expect(overlapping.detail).toContain(String(first.agreementId));
    const next = await vendorCall("POST", "/agreements", agreement({ scope, effectiveFrom: at(30), prices: [{ sku, price: 380 }] }));
    expect(next.status).toBe(201);
    await expectProblem(await vendorCall("PATCH", `/agreements/${first.agreementId}`, { effectiveTo: null }), 409);
    const end = at(20);
    const shortened = await vendorCall("PATCH", `/agreements/${first.agreementId}`, { effectiveTo: end });
    expect(shortened.status).toBe(200);
    expect((await json(shortened)).data.effectiveTo).toBe(end);
    // Another vendor's agreement for the same scope is its own business.
    await offerOn(product, "T-AGR-5B");
    const theirs = await vendorCall("POST", "/agreements", agreement({ scope, prices: [{ productId: product, price: 1 }] }), OTHER_VENDOR);
    expect(theirs.status).toBe(201);
  });

  it("10 concurrent creates of one scope and period: exactly one 201, the others 409, nothing half-written", async () => {
    const product = productId(85);
    const sku = await offerOn(product, "T-AGR-6");
    const body = agreement({
      scope: { kind: "facilities", tenantId: TENANT_B, facilityIds: [KJOHNSON.facilityId] },
      prices: [{ sku, price: 99 }],
    });
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => vendorCall("POST", "/agreements", body)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const listed = (await json(await vendorCall("GET", "/agreements?limit=100"))).data.agreements.filter(
      (a: { scope: { facilityIds?: number[] } }) => a.scope.facilityIds?.includes(KJOHNSON.facilityId),
    );
    expect(listed).toHaveLength(1);
    expect(listed[0].prices).toHaveLength(1);
  });
});

describe("price agreements: bad input", () => {
  it("bad fields are 400s naming them", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [agreement({ effectiveFrom: at(5), effectiveTo: at(1), prices: [{ productId: productId(1), price: 1 }] }), "effectiveTo"],
      [agreement({ prices: [{ productId: productId(1), sku: "X", price: 1 }] }), "prices[0].sku"],
      [agreement({ prices: [{ price: 1 }] }), "prices[0].sku"],
      [
        agreement({
          prices: [
            { productId: productId(1), price: 1 },
            { productId: productId(1), price: 2 },
          ],
        }),
        "prices[1]",
      ],
      [agreement({ prices: [{ productId: productId(1), price: 1.234 }] }), "prices[0].price"],
      [agreement({ prices: [{ productId: productId(1), price: 0 }] }), "prices[0].price"],
      [agreement({ prices: [] }), "prices"],
      [agreement({ scope: { kind: "region", tenantId: 1 }, prices: [{ productId: productId(1), price: 1 }] }), "scope.kind"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await vendorCall("POST", "/agreements", body), 400);
      expect(Object.keys(problem.errors), JSON.stringify(body)).toContain(field);
    }
  });

  it("references that do not hold are a 422 naming each: tenant, tier, another tenant's facility, SKU, product", async () => {
    const problem = await expectProblem(
      await vendorCall(
        "POST",
        "/agreements",
        agreement({
          scope: { kind: "facilities", tenantId: TENANT_A, facilityIds: [KJOHNSON.facilityId] },
          prices: [
            { sku: "NO-SUCH-SKU", price: 1 },
            { productId: "MP-9999999", price: 1 },
          ],
        }),
      ),
      422,
    );
    expect(problem.errors).toEqual([
      expect.stringContaining("scope.facilityIds"),
      expect.stringContaining("prices[0].sku"),
      expect.stringContaining("prices[1].productId"),
    ]);
    const tenant = await expectProblem(
      await vendorCall(
        "POST",
        "/agreements",
        agreement({ scope: { kind: "tenant", tenantId: 999 }, prices: [{ productId: productId(1), price: 1 }] }),
      ),
      422,
    );
    expect(tenant.errors).toEqual([expect.stringContaining("scope.tenantId")]);
    const tier = await expectProblem(
      await vendorCall(
        "POST",
        "/agreements",
        agreement({ scope: { kind: "tier", tierId: 999 }, prices: [{ productId: productId(1), price: 1 }] }),
      ),
      422,
    );
    expect(tier.errors).toEqual([expect.stringContaining("scope.tierId")]);
  });

  it("another vendor's agreement is a 404 like an unknown one, and is not listed", async () => {
    const product = productId(86);
    const sku = await offerOn(product, "T-AGR-7");
    const { data } = await json(
      await vendorCall(
        "POST",
        "/agreements",
        agreement({ scope: { kind: "facilities", tenantId: TENANT_A, facilityIds: [1002] }, prices: [{ sku, price: 7 }] }),
      ),
    );
    for (const [method, body] of [["GET"], ["PATCH", { effectiveTo: null }], ["DELETE"]] as const) {
      await expectProblem(await vendorCall(method, `/agreements/${data.agreementId}`, body, OTHER_VENDOR), 404);
    }
    const theirs = (await json(await vendorCall("GET", "/agreements?limit=100", undefined, OTHER_VENDOR))).data.agreements;
    expect(theirs.map((a: { agreementId: number }) => a.agreementId)).not.toContain(data.agreementId);
    expect((await json(await vendorCall("GET", `/agreements/${data.agreementId}`))).data.status).toBe("active");
  });
});

describe("price tiers (operator)", () => {
  it("creates tiers with unique names (ignoring case), lists them with their tenants, 404 for an unknown tier or tenant", async () => {
    const operator = await operatorTokenFor();
    const created = await call(operator, "/admin/api/tiers", { method: "POST", json: { name: "Premier GPO Tier 9" } });
    expect(created.status).toBe(201);
    const tier = (await json(created)).data;
    await expectProblem(await call(operator, "/admin/api/tiers", { method: "POST", json: { name: "premier gpo tier 9" } }), 409);
    expect((await call(operator, `/admin/api/tiers/${tier.tierId}/tenants/${TENANT_B}`, { method: "PUT" })).status).toBe(204);
    expect((await call(operator, `/admin/api/tiers/${tier.tierId}/tenants/${TENANT_B}`, { method: "PUT" })).status).toBe(204);
    const listed = (await json(await call(operator, "/admin/api/tiers"))).data.tiers.find(
      (t: { tierId: number }) => t.tierId === tier.tierId,
    );
    expect(listed.tenantIds).toEqual([TENANT_B]);
    await expectProblem(await call(operator, `/admin/api/tiers/999999/tenants/${TENANT_B}`, { method: "PUT" }), 404);
    await expectProblem(await call(operator, `/admin/api/tiers/${tier.tierId}/tenants/999999`, { method: "PUT" }), 404);
    expect((await call(await vendorTokenFor(VENDOR), "/admin/api/tiers")).status).toBe(401);
  });
});
