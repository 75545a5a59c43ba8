import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forgetQuotedReferences } from "../../src/shared/catalog/quoted-references";
import { expectProblem, json, TENANT_A } from "../helpers/api";
import { issueQuotes, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { FAULT_HEADER } from "../helpers/worker";

/**
 * A tenant's POST /orders is one call to its store (docs/tenant-stores.md, "Order creation"): the key's lock,
 * the checks against its directory and the write, with the quotes' offers and the products the isolate remembers
 * from issuing the quotes. Shown by making DB or the catalog fail for the order's request: it still commits.
 */

const inStore = (sql: string, ...params: (string | number)[]) => storeRows(TENANT_A, sql, ...params);

/** A fresh quote without required fields of the demo product `n`. */
async function quoteOf(n: number) {
  const quote = (await issueQuotes(`MP-${String(n).padStart(7, "0")}`)).find(withoutFields);
  if (!quote) throw new Error(`no quote without fields for product ${n}`);
  return quote;
}

const withFault = (fault: string) => ({ [FAULT_HEADER]: fault });

describe("order creation of a tenant served from its stores: one call to the store", () => {
  it("orders quotes just issued with DB, then the catalog, failing: neither is read, and the line has the product as quoted", async () => {
    // The orders client's status, as the bearer check remembers it once read (CLIENT_STATUS_CACHE_SECONDS).
    expect((await placeOrder(orderBody([lineFor(await quoteOf(19))]))).status).toBe(201);
    for (const [n, fault] of [
      [21, "d1-unavailable"],
      [23, "catalog-unavailable"],
    ] as const) {
      const quote = await quoteOf(n);
      const res = await placeOrder(orderBody([lineFor(quote, 2)]), { headers: withFault(fault) });
      expect(res.status, `${fault}: ${await res.clone().text()}`).toBe(201);
      const { orderNumber } = (await json(res)).data;
      const [line] = await inStore(
        "SELECT l.product_id, l.part_number, l.description, l.quantity, l.price_cents FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_number = ?",
        orderNumber,
      );
      const product = await env.CATALOG.prepare("SELECT part_number, title FROM products WHERE id = ?1")
        .bind(quote.productId)
        .first<Record<string, string>>();
      expect(line).toEqual({
        product_id: quote.productId,
        part_number: product!.part_number,
        description: product!.title,
        quantity: 2,
        price_cents: quote.priceCents,
      });
    }
  });

  it("reads what the isolate does not remember before calling the store; their failure is a 5xx the key replays (spec 8, rule 6)", async () => {
    const quote = await quoteOf(25);
    forgetQuotedReferences();
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const failed = await expectProblem(await placeOrder(body, { key, headers: withFault("d1-unavailable") }), 503);
    expect(failed.type).toContain("service-unavailable");
    const replayed = await placeOrder(body, { key });
    expect(replayed.status).toBe(503);
    expect(replayed.headers.get("X-Idempotency-Cached")).toBe("true");
    // Under a new key the reads succeed, and are remembered: DB failing no longer matters to an order of that offer.
    expect((await placeOrder(body)).status).toBe(201);
    const again = await placeOrder(orderBody([lineFor(await quoteOf(25))]), { headers: withFault("d1-unavailable") });
    expect(again.status).toBe(201);
  });

  it("a retry of a committed order is replayed from the store even when the reads before it would fail", async () => {
    const quote = await quoteOf(35);
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    forgetQuotedReferences(); // another isolate, or later than the memory lasts
    const retry = await placeOrder(body, { key, headers: withFault("d1-unavailable") });
    expect(retry.status, await retry.clone().text()).toBe(201);
    expect(retry.headers.get("X-Idempotency-Cached")).toBe("true");
    expect((await json(retry)).data).toEqual((await json(first)).data);
    // Another body under the key is still the 409, not the reads' 503.
    const other = await quoteOf(37);
    forgetQuotedReferences();
    expect((await placeOrder(orderBody([lineFor(other)]), { key, headers: withFault("d1-unavailable") })).status).toBe(409);
  });

  it("checks in the spec's order inside the store (403, then 404, then 422) and frees the key after each", async () => {
    const quote = await quoteOf(27);
    const key = crypto.randomUUID();
    const forbidden = await expectProblem(await placeOrder(orderBody([lineFor(quote)], undefined, { requesterId: 987_654 }), { key }), 403);
    expect(forbidden.detail).toMatch(/requester/i);
    const unknown = await expectProblem(
      await placeOrder(orderBody([{ ...lineFor(quote), priceOptionId: `${quote.priceOptionId}x` }]), { key }),
      404,
    );
    expect(unknown.errors).toHaveLength(1);
    const mispriced = await placeOrder(orderBody([{ ...lineFor(quote), price: quote.price + 1 }]), { key });
    expect(mispriced.status).toBe(422);
    expect((await json(mispriced)).errors.join(" ")).toContain("price");
    expect(await inStore("SELECT count(*) AS n FROM idempotency_attempts WHERE idempotency_key = ?", key.toLowerCase())).toEqual([
      { n: 0 },
    ]);
    // The key is free for the corrected request, which commits once and replays.
    const fixed = await placeOrder(orderBody([lineFor(quote)]), { key });
    expect(fixed.status).toBe(201);
    const replayed = await placeOrder(orderBody([lineFor(quote)]), { key });
    expect(replayed.headers.get("X-Idempotency-Cached")).toBe("true");
    expect((await json(replayed)).data).toEqual((await json(fixed)).data);
  });

  it("a store failing in the middle of the write commits nothing and answers a 5xx, which the key replays (spec 8, rule 6)", async () => {
    const quote = await quoteOf(29);
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const before = await inStore("SELECT count(*) AS n FROM orders");
    // The fault: the store's SQLite refuses the order's shipping document, after the order and its lines were written.
    await inStore(
      "CREATE TRIGGER fail_shipping_documents BEFORE INSERT ON shipping_documents BEGIN SELECT RAISE(ABORT, 'SQLITE_IOERR: disk I/O error'); END",
    );
    try {
      const failed = await expectProblem(await placeOrder(body, { key }), 500);
      expect(failed.type).toContain("internal");
    } finally {
      await inStore("DROP TRIGGER fail_shipping_documents");
    }
    expect(await inStore("SELECT count(*) AS n FROM orders")).toEqual(before);
    expect(await inStore("SELECT count(*) AS n FROM order_lines WHERE quote_id = ?", quote.priceOptionId)).toEqual([{ n: 0 }]);
    const replayed = await placeOrder(body, { key });
    expect(replayed.status).toBe(500);
    expect(replayed.headers.get("X-Idempotency-Cached")).toBe("true");
    // A new key orders the same quote: nothing of the failed attempt holds it.
    expect((await placeOrder(body)).status).toBe(201);
  });
});
