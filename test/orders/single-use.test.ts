import { describe, expect, it } from "vitest";
import { expectProblem, json, TENANT_A } from "../helpers/api";
import { issueQuote, issueQuotes, lineFor, NOTHING_WRITTEN, orderBody, placeOrder, rowsWrittenBy, withoutFields } from "../helpers/orders";
import { storeRows } from "../helpers/stores";

/** Whether a line of tenant A (in its store) ordered the quote. */
const isUsed = async (priceOptionId: string) =>
  (await storeRows(TENANT_A, "SELECT 1 AS one FROM order_lines WHERE quote_id = ?", priceOptionId)).length > 0;

describe("POST /orders: a price option backs one order only", () => {
  it("a second order with a used quote is 409 naming the line and the order, and writes nothing", async () => {
    const quote = await issueQuote("MP-0000020", undefined, withoutFields);
    const first = await placeOrder(orderBody([lineFor(quote)]));
    expect(first.status).toBe(201);
    const { orderNumber } = (await json(first)).data;

    const fresh = await issueQuote("MP-0000021", undefined, withoutFields);
    const { result: second, written } = await rowsWrittenBy(() => placeOrder(orderBody([lineFor(fresh), lineFor(quote)])));
    expect(written).toEqual(NOTHING_WRITTEN);
    const problem = await expectProblem(second, 409);
    expect(problem.type).toMatch(/price-option-used$/);
    expect(problem.errors).toEqual([`quoteItems[1].priceOptionId "${quote.priceOptionId}" was already ordered in order ${orderNumber}.`]);
    expect(await isUsed(fresh.priceOptionId)).toBe(false);

    // The rejected order's other quote is still good.
    expect((await placeOrder(orderBody([lineFor(fresh)]))).status).toBe(201);
  });

  it("concurrent orders on the same quote (different keys) create exactly one order", async () => {
    const quote = await issueQuote("MP-0000022", undefined, withoutFields);
    const { result: responses, written } = await rowsWrittenBy(() =>
      Promise.all(Array.from({ length: 10 }, () => placeOrder(orderBody([lineFor(quote)])))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    expect(written).toEqual({ orders: 1, orderLines: 1, shippingDocuments: 1, shippingDocumentLines: 1, events: 1 });
  });

  it("concurrent orders sharing one of their quotes: one wins, the loser consumes none of its quotes", async () => {
    const [shared, a, b] = await issueQuotes("MP-0000023");
    const bodies = [orderBody([lineFor(shared!), lineFor(a!)]), orderBody([lineFor(b!), lineFor(shared!)])];
    const responses = await Promise.all(bodies.map((body) => placeOrder(body)));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    const loserOwnQuote = responses[0]!.status === 201 ? b! : a!;
    expect(await isUsed(loserOwnQuote.priceOptionId)).toBe(false);
    expect(await isUsed(shared!.priceOptionId)).toBe(true);
  });
});
