import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { call, expectProblem, json, operatorTokenFor, scim, scimTokenFor, tokenFor } from "../helpers/api";
import { eventually } from "../helpers/platform";
import { forgetStores, storeRows } from "../helpers/stores";
import { vendorCall } from "../helpers/vendors";

/**
 * A tenant the operator creates lives in its stores from the start (docs/tenant-stores.md): its onboarding through the
 * operator plane and SCIM reaches its store, its first order commits there, and the vendor sees the line.
 */

const USER_EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:User";
const externalId = () => `new-tenant-${crypto.randomUUID()}`;

async function admin(path: string, body: Record<string, unknown>) {
  const res = await call(await operatorTokenFor(), path, { method: "POST", json: { externalId: externalId(), ...body } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data;
}

describe("a tenant created by the operator", () => {
  afterAll(forgetStores);

  it("is served from its stores from its first request: onboarding, an order, the vendor's list", async () => {
    const { tenantId } = await admin("/admin/api/tenants", { name: "Harbor Health" });
    // In the registry of stores from the batch that created it.
    expect(await env.DB.prepare("SELECT state FROM tenant_stores WHERE tenant_id = ?").bind(tenantId).first("state")).toBe("store");
    const { companyId } = await admin("/admin/api/companies", { tenantId, name: "Harbor General" });
    const { facilityId } = await admin("/admin/api/facilities", { companyId, name: "Harbor Main OR" });
    const address = { line1: "1 Harbor Way", city: "Seaside", state: "OR", zip: "97138", country: "US" };
    const { addressId: shippingAddressId } = await admin("/admin/api/addresses", { companyId, kind: "shipping", ...address });
    const { addressId: billingAddressId } = await admin("/admin/api/addresses", { companyId, kind: "billing", ...address });

    // The identity provider provisions a nurse and grants her the facility through a group named after it.
    const scimToken = await scimTokenFor(tenantId);
    const created = await scim(scimToken, "/Users", {
      method: "POST",
      body: { userName: "nurse@harbor.example", name: { givenName: "Nia", familyName: "Shore" } },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = await created.json<Record<string, any>>();
    const group = await scim(scimToken, "/Groups", {
      method: "POST",
      body: { displayName: "Harbor Main OR", members: [{ value: user.id }] },
    });
    expect(group.status, await group.clone().text()).toBe(201);
    const requesterId = user[USER_EXTENSION].contactId as number;
    expect(await storeRows(tenantId, "SELECT count(*) AS n FROM users WHERE id = ?", Number(user.id))).toEqual([{ n: 1 }]);

    const token = await tokenFor(tenantId);
    const detail = await call(token, "/catalog/detail", { method: "POST", json: { productId: "MP-0000041", requesterId, facilityId } });
    expect(detail.status, await detail.clone().text()).toBe(200);
    const option = (
      (await json(detail)).data.options as { priceOptionId: string; price: number; customFields: { isRequired: boolean }[] }[]
    ).find((o) => o.customFields.every((field) => !field.isRequired))!;
    const ordered = await call(token, "/orders", {
      method: "POST",
      headers: { "Idempotency-Key": crypto.randomUUID() },
      json: {
        requesterId,
        userId: Number(user.id),
        facilityId,
        shippingAddressId,
        billingAddressId,
        shippingMethod: "GROUND",
        quoteItems: [{ priceOptionId: option.priceOptionId, productId: "MP-0000041", quantity: 1, price: option.price }],
      },
    });
    expect(ordered.status, await ordered.clone().text()).toBe(201);
    const { orderNumber } = (await json(ordered)).data;
    const [line] = await storeRows(
      tenantId,
      "SELECT l.id, l.vendor_id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_number = ?",
      orderNumber,
    );
    expect(line).toBeDefined();
    // The control database has no table to hold it (test/tenants/one-home.test.ts).
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'orders'").first("n")).toBe(0);
    const listed = await eventually(
      () => vendorCall(line!.vendor_id as number, `/order-lines?orderNumber=${orderNumber}`).then(json),
      (body) => body.data.lines.length > 0,
      10_000,
    );
    expect(listed.data.lines[0]).toMatchObject({ lineId: line!.id, orderNumber });
    // Another tenant's token never reaches it.
    await expectProblem(await call(await tokenFor(1), `/orders/${orderNumber}`), 404);
  });
});
