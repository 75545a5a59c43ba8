import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type CallOptions, requestInit } from "../../src/dev/client/request";
import { fetchWithRetry, type RetryEvent } from "../../src/dev/client/retry";
import { API, BASE_URL, newClient, TENANT_A } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";

/**
 * The integrator flow of the spec (section 1), end to end over HTTP as an integrator's code runs it:
 * every call goes through the retry helper an integrator is given (src/dev/client/retry.ts), with the
 * Worker's fetch injected. Only the client credentials are provisioned out of band, as an admin would.
 * Every response is also checked against the served OpenAPI document.
 */

const retries: RetryEvent[] = [];

async function send(method: string, url: string, options: CallOptions = {}) {
  const res = await fetchWithRetry(url, requestInit(method, options), {
    fetch: (input, requestInit) => SELF.fetch(input, requestInit),
    baseDelayMs: 50,
    onRetry: (event) => retries.push(event),
  });
  await expectMatchesContract(res, method, url);
  return res;
}

describe("integrator flow: token -> lookup -> catalog search -> detail -> order (+ retry) -> order search", () => {
  it("places an order once, replays the retry, and finds it with its lines and shipping", async () => {
    const { clientId, clientSecret } = await newClient(TENANT_A);

    // 1. Token (OAuth 2.0 client credentials).
    const tokenRes = await send("POST", `${BASE_URL}/auth/oauth2/token`, {
      form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: token, token_type } = await tokenRes.json<{ access_token: string; token_type: string }>();
    expect(token_type).toBe("Bearer");

    // 2. The buyer: contact id, a facility and its company's addresses.
    const lookupRes = await send("GET", `${API}/users/lookup?loginUserId=jsmith`, { token });
    expect(lookupRes.status).toBe(200);
    const user = (await lookupRes.json<any>()).data;
    const company = user.companies.find(
      (c: any) => c.facilities.length > 0 && c.shippingAddresses.length > 0 && c.billingAddresses.length > 0,
    );
    const facility = company.facilities[0];
    const shipTo = company.shippingAddresses[0];
    const billTo = company.billingAddresses[0];
    const ids = { requesterId: user.contactId, facilityId: facility.id };
    expect(ids).toEqual({ requesterId: 50001, facilityId: 1001 });

    // 3. Catalog search.
    const searchRes = await send("POST", `${API}/catalog/search`, {
      token,
      json: { filters: { query: "Siemens" }, pagination: { limit: 10 }, ...ids },
    });
    expect(searchRes.status).toBe(200);
    const items = (await searchRes.json<any>()).data.items as { id: string; partNumber: string; oem: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.oem === "Siemens Healthineers")).toBe(true);

    // 4. Detail of the first result with an option that needs no custom field values.
    let chosen: { product: any; option: any } | undefined;
    for (const item of items) {
      const detailRes = await send("POST", `${API}/catalog/detail`, { token, json: { productId: item.id, ...ids } });
      expect(detailRes.status).toBe(200);
      const { product, options } = (await detailRes.json<any>()).data;
      const option = options.find((o: any) => !o.customFields.some((f: any) => f.isRequired));
      if (option) {
        chosen = { product, option };
        break;
      }
    }
    expect(chosen, "a search result with an option needing no custom fields").toBeDefined();
    const { product, option } = chosen!;

    // 5. The order, with an Idempotency-Key.
    const poNumber = `FLOW-${crypto.randomUUID().slice(0, 8)}`;
    const order = {
      requesterId: user.contactId,
      userId: user.userId,
      facilityId: facility.id,
      shippingAddressId: shipTo.id,
      billingAddressId: billTo.id,
      shippingMethod: "GROUND",
      quoteItems: [{ priceOptionId: option.priceOptionId, productId: product.id, quantity: 3, price: option.price }],
      payment: { paymentMethod: "PO", poNumber },
    };
    const key = crypto.randomUUID();
    const created = await send("POST", `${API}/orders`, { token, json: order, headers: { "Idempotency-Key": key } });
    expect(created.status).toBe(201);
    expect(created.headers.get("X-Idempotency-Cached")).toBeNull();
    const createdText = await created.text();
    const { orderNumber } = JSON.parse(createdText).data;

    // 6. The integrator retries the same request (e.g. after a lost response): the cached result, no second order.
    const replay = await send("POST", `${API}/orders`, { token, json: order, headers: { "Idempotency-Key": key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("X-Idempotency-Cached")).toBe("true");
    expect(await replay.text()).toBe(createdText);

    // 7. Order search finds exactly that order, with its line and shipping document.
    const q = encodeURIComponent(`poNumber:"${poNumber}"`);
    const foundRes = await send("GET", `${API}/orders/search?q=${q}&include=lineItems,shippingInfo`, { token });
    expect(foundRes.status).toBe(200);
    const found = (await foundRes.json<any>()).data;
    expect(found.pagination.total).toBe(1);
    const [record] = found.orders;
    expect(record).toMatchObject({ orderNumber, poNumber, facilityId: facility.id, requesterId: user.contactId, shippingMethod: "GROUND" });
    expect(record.total).toBeCloseTo(option.price * 3, 2);
    expect(record.lineItems).toHaveLength(1);
    expect(record.lineItems[0]).toMatchObject({ partNumber: product.partNumber, quantity: 3, price: option.price, statusName: "Ordered" });
    expect(record.lineItems[0].extendedPrice).toBeCloseTo(option.price * 3, 2);
    expect(record.shippingInfo).toHaveLength(1);
    expect(record.shippingInfo[0]).toMatchObject({
      lineItemIds: [record.lineItems[0].lineId],
      address1: shipTo.line1,
      city: shipTo.city,
      state: shipTo.state,
      zip: shipTo.zip,
      carrierName: "UPS",
    });

    // Nothing on the way needed a retry: the helper passed every answer straight through.
    expect(retries).toEqual([]);
  });
});
