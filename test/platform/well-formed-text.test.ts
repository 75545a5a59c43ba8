import { describe, expect, it } from "vitest";
import { call, expectProblem, TENANT_A, tokenFor } from "../helpers/api";
import { issueQuote, JSMITH, lineFor, NOTHING_WRITTEN, orderBody, placeOrder, rowsWrittenBy, withoutFields } from "../helpers/orders";

/** Lone UTF-16 surrogates in JSON bodies are refused, not stored altered (a search by the sent value would miss). */

// The JSON escape an integrator's client sends for a broken string.
const LONE = "PO\\ud800X";

describe("ill-formed Unicode in request bodies", () => {
  it("POST /orders with a lone surrogate in poNumber is a 400 naming the field, writing nothing", async () => {
    const quote = await issueQuote("MP-0000020", JSMITH, withoutFields);
    const text = JSON.stringify(orderBody([lineFor(quote)], JSMITH, { poNumber: "PLACEHOLDER" })).replace("PLACEHOLDER", LONE);
    // JSON.stringify keeps a lone surrogate as the escape \ud800: the server receives exactly LONE.
    const { result, written } = await rowsWrittenBy(() => placeOrder(JSON.parse(text)));
    expect(written).toEqual(NOTHING_WRITTEN);
    const problem = await expectProblem(result, 400);
    expect(problem.errors).toEqual({ poNumber: [expect.stringContaining("lone UTF-16 surrogate")] });
  });

  it("anywhere in any JSON body: nested values, array items and keys; a well-formed pair passes", async () => {
    const token = await tokenFor(TENANT_A);
    const search = (raw: string) =>
      call(token, "/catalog/search", { method: "POST", headers: { "Content-Type": "application/json" }, body: raw });
    const nested = await expectProblem(await search('{"requesterId":50001,"facilityId":1001,"filters":{"query":"abc\\udc00"}}'), 400);
    expect(Object.keys(nested.errors)).toEqual(["filters.query"]);
    const key = await expectProblem(await search('{"requesterId":50001,"facilityId":1001,"\\ud801x":1}'), 400);
    expect(Object.keys(key.errors)).toEqual(["\ud801x"]);
    const pair = await search('{"requesterId":50001,"facilityId":1001,"filters":{"query":"\\ud83d\\ude00 battery"}}');
    expect(pair.status).toBe(200);
  });
});
