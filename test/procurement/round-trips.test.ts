import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseRoundTrips, RoundTripProbe, type RoundTrips } from "../../scripts/bench/probe";
import { productId } from "../../src/dev/seed/catalog";
import type { Bindings } from "../../src/env";
import { API, tokenFor } from "../helpers/api";
import { issueQuote, JSMITH, lineFor, orderBody, withoutFields } from "../helpers/orders";
import { CXML_URL, connect, orderRequest, requestDocument, setupRequest } from "../helpers/procurement";
import worker from "../helpers/worker";

/**
 * The gateway's targets in sequential round trips to storage (counted by the bench's probe, scripts/bench/probe.ts,
 * around the whole test Worker: the operator plane and the API calls it makes): a warm PunchOutSetupRequest takes one
 * D1 round trip to its StartPage; a warm OrderRequest takes no more than the POST /orders it makes; each shop page's
 * count is reported for docs/benchmarks.md.
 */

async function probed(request: Request): Promise<{ res: Response; trips: RoundTrips; depth: number; body: string }> {
  const probe = new RoundTripProbe(0);
  const ctx = createExecutionContext();
  // The probed bindings as own properties: the test Worker copies the bindings object (spread), which drops inherited ones.
  const wrapped = probe.wrap(env as unknown as Bindings);
  const bindings = { ...env } as unknown as Record<string, unknown>;
  for (const name of ["DB", "CATALOG", "QUOTES", "RATE_LIMITER", "TENANT_STORE"] as const) bindings[name] = wrapped[name];
  const res = await worker.fetch!(request as Parameters<NonNullable<typeof worker.fetch>>[0], bindings as unknown as Bindings, ctx);
  const trips = parseRoundTrips(probe.summary());
  const depth = probe.depth();
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, trips, depth, body };
}

const cxmlRequest = (document: string) =>
  new Request(CXML_URL, { method: "POST", headers: { "Content-Type": "text/xml" }, body: document });

describe("round trips of the procurement gateway", () => {
  it("a warm PunchOutSetupRequest reaches its StartPage in one D1 round trip", async () => {
    const connection = await connect();
    await probed(cxmlRequest(requestDocument(connection, setupRequest())));
    const warm = await probed(cxmlRequest(requestDocument(connection, setupRequest())));
    expect(warm.body).toContain("<StartPage>");
    expect(warm.trips).toEqual({ d1: 1, kv: 0, do: 0 });
  });

  it("a warm OrderRequest takes no more round trips than the POST /orders it makes", async () => {
    const connection = await connect();
    const cxmlOrder = async () => {
      const quote = await issueQuote(productId(9), JSMITH, withoutFields);
      const line = { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2) };
      return probed(cxmlRequest(requestDocument(connection, orderRequest(`PO-${crypto.randomUUID().slice(0, 8)}`, [line]))));
    };
    await cxmlOrder();
    const viaCxml = await cxmlOrder();
    expect(viaCxml.body).toContain('code="200"');

    const token = await tokenFor(1);
    const jsonOrder = async () => {
      const quote = await issueQuote(productId(9), JSMITH, withoutFields);
      return probed(
        new Request(`${API}/orders`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
          body: JSON.stringify(orderBody([lineFor(quote)])),
        }),
      );
    };
    await jsonOrder();
    const direct = await jsonOrder();
    expect(direct.res.status).toBe(201);
    console.log(JSON.stringify({ roundTrips: { orderRequest: viaCxml.trips, postOrders: direct.trips } }));
    expect(viaCxml.trips.d1).toBeLessThanOrEqual(direct.trips.d1);
    expect(viaCxml.trips.do).toBeLessThanOrEqual(direct.trips.do);
    expect(viaCxml.trips.kv).toBeLessThanOrEqual(direct.trips.kv);
  });

  it("shop pages: one round trip each once warm, each under 60 KB", async () => {
    const connection = await connect();
    const setup = await probed(cxmlRequest(requestDocument(connection, setupRequest())));
    const start = new URL(/<URL>([^<]+)<\/URL>/.exec(setup.body.split("<StartPage>")[1]!)![1]!);
    const opened = await probed(new Request(start));
    const cookie = opened.res.headers.get("Set-Cookie")!.split(";")[0]!;
    const page = (path: string) => probed(new Request(`${start.origin}${path}`, { headers: { Cookie: cookie } }));
    await page("/punchout/shop?q=pump");
    const pages = {
      start: opened,
      search: await page("/punchout/shop?q=pump"),
      product: await page(`/punchout/shop/products/${productId(9)}`),
      cart: await page("/punchout/shop/cart"),
    };
    const report = Object.fromEntries(Object.entries(pages).map(([name, p]) => [name, { bytes: p.body.length, ...p.trips }]));
    console.log(JSON.stringify({ shopPages: report }));
    for (const [name, p] of Object.entries(pages)) expect(new TextEncoder().encode(p.body).byteLength, name).toBeLessThan(60 * 1024);
    // Once the session is known to the isolate, a page reads its cart at the same time as its API call: one round trip.
    // The catalog's pages check the requester's access in the tenant's store beside their catalog read (one DO call).
    expect(pages.cart.trips, "cart").toEqual({ d1: 1, kv: 0, do: 0 });
    for (const name of ["search", "product"] as const) expect(pages[name].trips, name).toEqual({ d1: 1, kv: 0, do: 1 });
    for (const name of ["search", "product", "cart"] as const) expect(pages[name].depth, name).toBe(1);
  });
});
