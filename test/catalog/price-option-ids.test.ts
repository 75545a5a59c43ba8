import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PriceOptionTerms, readPriceOption, SIGNED_ID_LENGTH, signPriceOption } from "../../src/shared/catalog/price-option-ids";

const OLD = "old-quote-key-0123456789abcdef0123456789";
const NEW = "new-quote-key-fedcba9876543210fedcba9876";

const terms: PriceOptionTerms = {
  offerId: 123_456,
  tenantId: 1,
  requesterContactId: 50_001,
  facilityId: 1001,
  priceCents: 124_950,
  agreementId: 0,
  issuedAt: 1_795_000_000,
};

const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const termsArb = fc.record({
  offerId: u32,
  tenantId: u32,
  requesterContactId: u32,
  facilityId: u32,
  priceCents: u32,
  agreementId: u32,
  issuedAt: u32,
});

describe("price option ids: signed terms", () => {
  it("round-trips any terms, at a fixed length, and two ids of the same terms differ (the nonce)", async () => {
    await fc.assert(
      fc.asyncProperty(termsArb, async (t) => {
        const id = await signPriceOption({ current: NEW }, t);
        expect(id).toHaveLength(SIGNED_ID_LENGTH);
        expect(await readPriceOption({ current: NEW }, id)).toEqual(t);
      }),
      { numRuns: 200 },
    );
    const [a, b] = [await signPriceOption({ current: NEW }, terms), await signPriceOption({ current: NEW }, terms)];
    expect(a).not.toBe(b);
  });

  it("a rotation: the previous key still verifies its ids, the new key signs; without the previous key they are unknown", async () => {
    const issuedBefore = await signPriceOption({ current: OLD }, terms);
    const rotated = { current: NEW, previous: OLD };
    expect(await readPriceOption(rotated, issuedBefore)).toEqual(terms);
    const issuedAfter = await signPriceOption(rotated, terms);
    expect(await readPriceOption({ current: NEW }, issuedAfter)).toEqual(terms);
    expect(await readPriceOption({ current: OLD }, issuedAfter)).toBeNull();
    expect(await readPriceOption({ current: NEW }, issuedBefore)).toBeNull();
  });

  it("any single changed character, a truncation or an extension is unknown, never other terms", async () => {
    const id = await signPriceOption({ current: NEW }, terms);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let at = 0; at < id.length; at++) {
      const replacement = alphabet[(alphabet.indexOf(id[at]!) + 1) % alphabet.length]!;
      expect(await readPriceOption({ current: NEW }, `${id.slice(0, at)}${replacement}${id.slice(at + 1)}`), `at ${at}`).toBeNull();
    }
    for (const other of [id.slice(0, -1), `${id}A`, "", "po_", "po_unknown", id.replace("po_", "pq_")]) {
      expect(await readPriceOption({ current: NEW }, other)).toBeNull();
    }
  });

  it("refuses to sign a value that does not fit 32 bits", async () => {
    await expect(signPriceOption({ current: NEW }, { ...terms, priceCents: 2 ** 32 })).rejects.toThrow(RangeError);
    await expect(signPriceOption({ current: NEW }, { ...terms, offerId: -1 })).rejects.toThrow(RangeError);
  });
});
