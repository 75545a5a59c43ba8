import { describe, expect, it } from "vitest";
import {
  isCardLike,
  loggableBody,
  loggableProblem,
  MAX_LOGGED_BODY_CHARS,
  MAX_LOGGED_FIELD_ERRORS,
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

  it("keeps a problem document whole, its field errors capped", () => {
    const errors = Array.from({ length: 200 }, (_, i) => ({ field: `f${i}`, detail: "bad" }));
    const kept = JSON.parse(loggableProblem({ type: "x", status: 400, errors }));
    expect(kept.errors).toHaveLength(MAX_LOGGED_FIELD_ERRORS);
    expect(kept.errors[0]).toEqual({ field: "f0", detail: "bad" });
  });
});
