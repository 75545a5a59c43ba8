import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storedLineNow, type VendorOrderLine } from "../../src/api/vendors/lines";
import { amountAsNumber, amountAsText, amountPaths, rewriteAmounts } from "../../src/platform/amount-paths";
import { type FieldErrors, problemErrors } from "../../src/platform/errors";
import { centsToDecimal, centsToText, decimalToCents, textToCents } from "../../src/platform/money";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { renderEvent } from "../../src/platform/versions/middleware";
import { VERSION_CHANGES } from "../../src/versions";
import { formerError } from "../../src/versions/changes/2026-12-07-one-error-form";
import { orderCreatedOnce } from "../../src/versions/changes/2026-12-07-order-created-once";
import { AT_LATEST, call, json, TENANT_A, tokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { issueQuote, lineFor, orderBody, withoutFields } from "../helpers/orders";

/**
 * Version 2026-12-07 (issue 71): one error form and one money form. Its transforms are exact both ways on every value
 * the API gives (property tests), and the real app answers each version in its own form.
 */

const cents = fc.integer({ min: 0, max: 999_999_999_999_999 });
const VERSION = "Medparts-Version";
const BEFORE = "2026-11-29";

describe("2026-12-07 money as decimal strings: the transforms are exact", () => {
  it("an answer's decimal string is the JSON number the versions before gave for the same cents, and back", () => {
    fc.assert(
      fc.property(cents, (amount) => {
        const now = centsToText(amount);
        const before = amountAsNumber(now);
        expect(before).toBe(centsToDecimal(amount)); // what the earlier versions wrote for these cents
        expect(textToCents(amountAsText(before) as string)).toBe(amount); // and a request of theirs gives them back
      }),
      { numRuns: 2000 },
    );
  });

  it("a request's JSON number of two places at most is read as the same cents as the versions before read it", () => {
    fc.assert(
      fc.property(
        cents.map((c) => c / 100),
        (number) => {
          expect(textToCents(amountAsText(number) as string)).toBe(decimalToCents(number));
        },
      ),
      { numRuns: 2000 },
    );
    // Numbers those versions refused stay refused: as text they are not decimal strings of two places.
    for (const refused of [12.345, -1, 1e21, 5e-324, 0.30000000000000004]) {
      expect(textToCents(amountAsText(refused) as string), String(refused)).toBeNull();
    }
  });

  it("rewrites exactly the amounts its paths name, in arrays and nested objects, and nothing else", () => {
    const paths = amountPaths("total", "lineItems[].price", "lineItems[].terms.fee");
    const body = { total: "10.50", other: "10.50", lineItems: [{ price: "1.25", terms: { fee: "0.07" }, note: "2.00" }, { price: null }] };
    rewriteAmounts(body, paths, amountAsNumber);
    expect(body).toEqual({
      total: 10.5,
      other: "10.50",
      lineItems: [{ price: 1.25, terms: { fee: 0.07 }, note: "2.00" }, { price: null }],
    });
    const fields: string[] = [];
    rewriteAmounts(body, paths, (amount, field) => {
      fields.push(field);
      return amount;
    });
    expect(fields).toEqual(["total", "lineItems[0].price", "lineItems[0].terms.fee"]);
  });

  it("renders an order.created event at each version; one stored before the release reads as the latest's", () => {
    const event = {
      id: "e1",
      type: "order.created",
      data: { total: "240.00", currency: "USD", lines: [{ price: "120.00", extendedPrice: "240.00" }] },
    };
    expect(renderEvent(VERSION_CHANGES, LATEST_VERSION, event)).toBe(event);
    const before = renderEvent(VERSION_CHANGES, BEFORE, event);
    expect(before.data).toEqual({ total: 240, currency: "USD", lines: [{ price: 120, extendedPrice: 240 }] });
    expect(event.data.total).toBe("240.00"); // the stored event is never changed
    // An event stored before the release, with JSON numbers and no currency: at the latest version, as it writes one.
    const stored = { ...event, data: { total: 240, lines: [{ price: 120.5, extendedPrice: 240 }] } };
    expect(renderEvent(VERSION_CHANGES, LATEST_VERSION, stored).data).toEqual({
      total: "240.00",
      lines: [{ price: "120.50", extendedPrice: "240.00" }],
      currency: "USD",
    });
    expect(renderEvent(VERSION_CHANGES, BEFORE, stored).data).toEqual({ ...stored.data, currency: "USD" });
    expect(stored.data).not.toHaveProperty("currency");
    // A return's event and a confirmed line's prices get the currency their events have now.
    const returned = renderEvent(VERSION_CHANGES, LATEST_VERSION, {
      id: "e2",
      type: "core.charged",
      data: { returnId: 1, amount: "450.00" },
    });
    expect(returned.data).toEqual({ returnId: 1, amount: "450.00", currency: "USD" });
    const confirmed = renderEvent(VERSION_CHANGES, LATEST_VERSION, {
      id: "e3",
      type: "order.confirmed",
      data: { lines: [{ lineId: 1, unitPrice: "125.00", previousUnitPrice: "120.00" }, { lineId: 2 }] },
    });
    expect(confirmed.data.lines).toEqual([{ lineId: 1, unitPrice: "125.00", previousUnitPrice: "120.00", currency: "USD" }, { lineId: 2 }]);
  });

  it("a vendor's line its projection holds from before the release reads as the latest version gives it", () => {
    const before = { lineId: 1, price: 12.5, extendedPrice: 25, contractPrice: null } as unknown as VendorOrderLine;
    expect(storedLineNow(before)).toEqual({ lineId: 1, price: "12.50", extendedPrice: "25.00", contractPrice: null, currency: "USD" });
    const now = {
      lineId: 1,
      price: "12.50",
      extendedPrice: "25.00",
      contractPrice: "11.00",
      currency: "USD",
    } as unknown as VendorOrderLine;
    expect(storedLineNow(now)).toBe(now);
  });
});

describe("2026-12-07 one error form: the transforms are exact", () => {
  const problem = (slug: string, errors: unknown[]) => ({
    type: `https://api.example.com/docs/errors/${slug}`,
    title: "T",
    status: 400,
    detail: "D",
    instance: "/x",
    correlationId: "c",
    timestamp: "t",
    service: "s",
    errors,
  });
  const fieldErrors = fc
    .dictionary(fc.string({ minLength: 1 }), fc.array(fc.string(), { minLength: 1, maxLength: 3 }), { minKeys: 1 })
    .map((map) => Object.assign(Object.create(null), map) as FieldErrors);

  it("a validation problem's field map becomes entries and comes back as the same map, in the same order", () => {
    fc.assert(
      fc.property(fieldErrors, (map) => {
        const now = problem("validation", problemErrors(map));
        const before = formerError(now);
        expect(Object.entries(before.errors as FieldErrors)).toEqual(Object.entries(map));
        expect(problemErrors(before.errors as FieldErrors)).toEqual(now.errors); // and forward again
        const { errors: _a, ...rest } = before;
        const { errors: _b, ...same } = now;
        expect(rest).toEqual(same);
      }),
      { numRuns: 500 },
    );
  });

  it("a problem's messages become entries without a field and come back as the same strings; none is no errors", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (messages) => {
        const before = formerError(problem("unprocessable", problemErrors(messages)));
        expect(before.errors).toEqual(messages);
        expect(problemErrors(before.errors as string[])).toEqual(messages.map((detail) => ({ detail })));
      }),
      { numRuns: 500 },
    );
    expect(formerError(problem("not-found", []))).not.toHaveProperty("errors");
    // An invalid transition always listed the steps allowed, none from a final status.
    expect(formerError(problem("invalid-transition", []))).toHaveProperty("errors", []);
  });

  it("a business rule is the spec's controller form, and an idempotency conflict its { error }", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), fc.string(), (messages, detail) => {
        const business = { ...problem("business-rule", problemErrors(messages)), status: 422 };
        expect(formerError(business)).toEqual({ success: false, errors: messages, correlationId: "c", timestamp: "t" });
        expect(formerError({ ...problem("idempotency-conflict", []), status: 409, detail })).toEqual({ error: detail });
      }),
      { numRuns: 200 },
    );
  });

  it("the create-order answer gets its second success back before, in its place", async () => {
    const latest = { success: true, data: { orderNumber: "O", createdAt: "t", eventId: "e" }, correlationId: "c", timestamp: "t" };
    const exchange = { operation: "post /customer/api/orders", params: {}, correlationId: "c" };
    const before = await orderCreatedOnce.response!(new Response(JSON.stringify(latest), { status: 201 }), exchange);
    expect(await before.text()).toBe(
      JSON.stringify({ ...latest, data: { orderNumber: "O", createdAt: "t", success: true, eventId: "e" } }),
    );
  });
});

describe("2026-12-07 through the real app", () => {
  async function placing(version: string, price: (priceCents: number) => unknown, quantity = 1, key = crypto.randomUUID()) {
    const quote = await issueQuote("MP-0000041", undefined, withoutFields);
    const body = orderBody([{ ...lineFor(quote, quantity), price: price(quote.priceCents) as number }]);
    return {
      body,
      key,
      res: await call(await tokenFor(TENANT_A), "/orders", {
        method: "POST",
        json: body,
        headers: { [VERSION]: version, "Idempotency-Key": key },
      }),
    };
  }

  it("takes a price as a decimal string at the latest version and refuses a number, naming the field", async () => {
    const { res } = await placing(LATEST_VERSION, (c) => centsToText(c));
    expect(res.status, await res.clone().text()).toBe(201);
    await expectMatchesContract(res.clone(), "POST", "/orders");
    expect((await json(res)).data).not.toHaveProperty("success");
    const refused = await placing(LATEST_VERSION, (c) => c / 100);
    expect(refused.res.status).toBe(400);
    expect(refused.res.headers.get("Content-Type")).toBe("application/problem+json");
    expect((await json(refused.res)).errors).toEqual([{ field: "quoteItems[0].price", detail: expect.any(String) }]);
  });

  it("takes a number before it and refuses a string as that version did; an infinity is not read as null", async () => {
    const { res } = await placing(BEFORE, (c) => c / 100);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await json(res)).data.success).toBe(true);
    const refused = await placing(BEFORE, (c) => centsToText(c));
    expect(refused.res.status).toBe(400);
    expect((await json(refused.res)).errors).toEqual({ "quoteItems[0].price": ["Invalid input: expected number, received string"] });
    // poNumber 1e400 (Infinity): a JSON body walked forward is written back so that it still is one, never null.
    const quote = await issueQuote("MP-0000041", undefined, withoutFields);
    const text = JSON.stringify(orderBody([{ ...lineFor(quote), price: quote.priceCents / 100 }])).replace(
      '"poNumber":"PO-2024-0001"',
      '"poNumber":1e400',
    );
    const infinite = await call(await tokenFor(TENANT_A), "/orders", {
      method: "POST",
      body: text,
      headers: { "Content-Type": "application/json", [VERSION]: BEFORE, "Idempotency-Key": crypto.randomUUID() },
    });
    expect(infinite.status, await infinite.clone().text()).toBe(400);
    expect(Object.keys((await json(infinite)).errors)).toEqual(["poNumber"]);
  });

  it("answers every error form of the first version exactly as the specification's section 7.2, and one form at the latest", async () => {
    const token = await tokenFor(TENANT_A);
    const forms = async (version: string) => {
      const { body, key } = await placing(version, (c) => (version === LATEST_VERSION ? centsToText(c) : c / 100));
      const conflict = await call(token, "/orders", {
        method: "POST",
        json: { ...body, notes: "another body" },
        headers: { [VERSION]: version, "Idempotency-Key": key },
      });
      const business = await placing(version, (c) => (version === LATEST_VERSION ? centsToText(c + 1) : (c + 1) / 100));
      const validation = await placing(version, (c) => (version === LATEST_VERSION ? centsToText(c) : c / 100), 0);
      const unauthorized = await call(null, "/users/lookup?userId=1", { headers: { [VERSION]: version } });
      const malformed = await call(token, "/orders", {
        method: "POST",
        body: "{",
        headers: { "Content-Type": "application/json", [VERSION]: version, "Idempotency-Key": crypto.randomUUID() },
      });
      return { conflict, business: business.res, validation: validation.res, unauthorized, malformed };
    };
    const first = await forms(FIRST_VERSION);
    expect(first.conflict.status).toBe(409);
    expect(first.conflict.headers.get("Content-Type")).toBe("application/json");
    expect(Object.keys(await json(first.conflict))).toEqual(["error"]);
    expect(first.business.status).toBe(422);
    expect(first.business.headers.get("Content-Type")).toBe("application/json");
    expect(Object.keys(await json(first.business))).toEqual(["success", "errors", "correlationId", "timestamp"]);
    for (const res of [first.validation, first.malformed]) {
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(Array.isArray(body.errors)).toBe(false);
      expect(Object.values(body.errors).every((messages) => Array.isArray(messages))).toBe(true);
    }
    expect(await json(first.unauthorized)).not.toHaveProperty("errors");

    const latest = await forms(LATEST_VERSION);
    const types: Record<string, string> = {};
    for (const [name, res] of Object.entries(latest)) {
      expect(res.headers.get("Content-Type"), name).toBe("application/problem+json");
      const body = await json(res);
      types[name] = body.type;
      expect(Object.keys(body), name).toEqual([
        "type",
        "title",
        "status",
        "detail",
        "instance",
        "correlationId",
        "timestamp",
        "service",
        "errors",
      ]);
      expect(Array.isArray(body.errors), name).toBe(true);
    }
    expect(types.conflict).toMatch(/\/idempotency-conflict$/);
    expect(types.business).toMatch(/\/business-rule$/);
  });

  it("an error given before the bearer check learnt the pin (a body the platform refused) is in the client's version", async () => {
    const token = await tokenFor(TENANT_A); // pinned to 2026-11-29
    const notUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const refused = await call(token, "/orders", {
      method: "POST",
      body: notUtf8,
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get(VERSION)).toBe(BEFORE);
    expect(Array.isArray((await json(refused)).errors)).toBe(false);
    const latest = await call(token, "/orders", {
      method: "POST",
      body: notUtf8,
      headers: { ...AT_LATEST, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    });
    expect(Array.isArray((await json(latest)).errors)).toBe(true);
    // A version that does not exist is refused in the pin's form too, and says which version it is in.
    const unknown = await call(token, "/users/lookup?userId=1", { headers: { [VERSION]: "2026-13-01" } });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get(VERSION)).toBe(BEFORE);
    expect(Object.keys((await json(unknown)).errors)).toEqual([VERSION]);
  });
});
