import { expect } from "vitest";
import { call, json, TENANT_A, testModeTokenFor } from "./api";
import { JSMITH, lineFor, orderBody, type Quote, withoutFields } from "./orders";

/** Test mode (the sandbox) as its integrators use it: tenant 1's test-mode client, jsmith's quotes and orders. */

/** A price option issued to the demo test-mode client (jsmith), one without custom fields: a test-mode order's. */
export async function testQuote(product = "MP-0000002"): Promise<Quote> {
  const res = await call(await testModeTokenFor(TENANT_A), "/catalog/detail", {
    method: "POST",
    json: { productId: product, requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
  });
  expect(res.status).toBe(200);
  const option = ((await json(res)).data.options as (Omit<Quote, "productId" | "priceCents"> & { customFields: unknown[] })[]).find((o) =>
    withoutFields({ ...o, productId: product, priceCents: 0 } as Quote),
  )!;
  return { ...option, productId: product, priceCents: Math.round(option.price * 100) } as Quote;
}

export async function testOrder(quantity = 4, headers: Record<string, string> = {}): Promise<{ orderNumber: string; eventId: string }> {
  const res = await call(await testModeTokenFor(TENANT_A), "/orders", {
    method: "POST",
    json: orderBody([lineFor(await testQuote(), quantity)]),
    headers: { "Idempotency-Key": crypto.randomUUID(), ...headers },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  expect(res.headers.get("Medparts-Mode")).toBe("test");
  return (await json(res)).data;
}
