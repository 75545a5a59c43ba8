import { describe, expect, it } from "vitest";
import {
  isCardLike,
  loggableBody,
  loggableProblem,
  MAX_LOGGED_BODY_CHARS,
  MAX_LOGGED_FIELD_ERRORS,
  MAX_LOGGED_PROBLEM_CHARS,
  passesLuhn,
  REDACTED,
  scrubText,
} from "../../src/shared/request-logs/redact";

/** Payment card test numbers the card schemes publish for their sandboxes (Stripe's, Adyen's lists). */
const TEST_CARDS = ["4111111111111111", "4242424242424242", "5555555555554444", "2223003122003222", "378282246310005", "6011111111111117"];

describe("what a request log keeps of a body", () => {
  it("knows card numbers by Luhn and their first digit", () => {
    for (const card of TEST_CARDS) expect(isCardLike(card), card).toBe(true);
    expect(passesLuhn("79927398713")).toBe(true); // the Luhn algorithm's own example
    expect(passesLuhn("79927398710")).toBe(false);
    expect(isCardLike("4111111111111112")).toBe(false); // fails Luhn
    expect(isCardLike("1234567812345670")).toBe(false); // passes Luhn, no card starts with 1
    expect(isCardLike("00812345678906")).toBe(false); // a GTIN-14
    expect(isCardLike("411111111111")).toBe(false); // 12 digits
  });

  it("redacts card-like numbers however they are written, and keeps other digits", () => {
    expect(scrubText("card 4111 1111 1111 1111 exp 12/30")).toBe(`card ${REDACTED} exp 12/30`);
    expect(scrubText("pan=5555-5555-5555-4444")).toBe(`pan=${REDACTED}`);
    expect(scrubText("gtin 00812345678906, lot 4111111111111112")).toBe("gtin 00812345678906, lot 4111111111111112");
    expect(scrubText("order MP-4111111111111111")).toBe(`order MP-${REDACTED}`);
    // A card beside other digits: followed by its CVC, after another number.
    expect(scrubText("card 4111 1111 1111 1111 123 ok")).toBe(`card ${REDACTED} ok`);
    expect(scrubText("4111111111111111 123")).toBe(REDACTED);
    expect(scrubText("order 12 4111111111111111")).toBe(`order ${REDACTED}`);
    // In a query string or a path.
    expect(scrubText("access_token=eyJabc.def&limit=5")).toBe(`access_token=${REDACTED}&limit=5`);
  });

  it("redacts secrets by key, by form field and by their issued prefixes", () => {
    const body = {
      client_secret: "s3cret",
      nested: { clientSecret: "x", password: "p", accessToken: "t", list: [{ apiKey: "k" }], keep: "visible" },
      secret: "whsec_abcdefghijklmnop",
      note: "signing with whsec_abcdefghijklmnop and mpscim_zyxwvutsrqponm",
      amount: 4111111111111111,
      quantity: 3,
      none: null,
    };
    const kept = JSON.parse(loggableBody(JSON.stringify(body)).body!);
    expect(kept).toEqual({
      client_secret: REDACTED,
      nested: { clientSecret: REDACTED, password: REDACTED, accessToken: REDACTED, list: [{ apiKey: REDACTED }], keep: "visible" },
      secret: REDACTED,
      note: `signing with ${REDACTED} and ${REDACTED}`,
      amount: REDACTED,
      quantity: 3,
      none: null,
    });
    // A 19-digit card as a JSON number: judged on its literal (as a double it would lose its last digits).
    expect(JSON.parse(loggableBody('{"pan":6212345678901234569,"n":6212345678901234568}').body!)).toEqual({
      pan: REDACTED,
      n: expect.any(Number), // not a card (Luhn): kept, as the double it is
    });
    expect(loggableBody("grant_type=client_credentials&client_secret=abc&scope=x").body).toBe(
      `grant_type=client_credentials&client_secret=${REDACTED}&scope=x`,
    );
  });

  it("cuts long bodies and says so; keeps nothing of an empty one", () => {
    const long = JSON.stringify({ text: "a".repeat(MAX_LOGGED_BODY_CHARS * 2) });
    const kept = loggableBody(long);
    expect(kept.truncated).toBe(true);
    expect(kept.body).toHaveLength(MAX_LOGGED_BODY_CHARS);
    expect(loggableBody("")).toEqual({ body: null, truncated: false });
    expect(loggableBody(null)).toEqual({ body: null, truncated: false });
    expect(loggableBody('{"a":1}')).toEqual({ body: '{"a":1}', truncated: false });
  });

  it("keeps a problem document whole, its field errors capped, in either form, and its size bounded", () => {
    const errors = Array.from({ length: 200 }, (_, i) => ({ field: `f${i}`, detail: "bad" }));
    const kept = JSON.parse(loggableProblem({ type: "x", status: 400, errors }));
    expect(kept.errors).toHaveLength(MAX_LOGGED_FIELD_ERRORS);
    expect(kept.errors[0]).toEqual({ field: "f0", detail: "bad" });
    // The form before 2026-12-07: a map of fields to messages.
    const map = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, ["bad"]]));
    expect(Object.keys(JSON.parse(loggableProblem({ type: "x", status: 400, errors: map })).errors)).toHaveLength(MAX_LOGGED_FIELD_ERRORS);
    const huge = loggableProblem({ type: "x", title: "T", status: 422, detail: "d".repeat(100_000) });
    expect(huge.length).toBeLessThanOrEqual(MAX_LOGGED_PROBLEM_CHARS);
    expect(JSON.parse(huge)).toMatchObject({ type: "x", title: "T", status: 422, truncated: true });
  });
});
