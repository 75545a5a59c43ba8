import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  ControlNumbersExhausted,
  MAX_CONTROL_NUMBER,
  reserveControlNumbers as reserveWithTime,
} from "../../src/operator/edi/control-numbers";
import { call, json, operatorTokenFor } from "../helpers/api";
import { counters, partnerInput } from "../helpers/edi";

async function newPartner(): Promise<number> {
  const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", { method: "POST", json: { vendorId: 1, ...partnerInput() } });
  expect(res.status).toBe(201);
  return (await json(res)).data.id;
}

/** The numbers reserved, without the reservation's time (checked on its own below). */
async function reserveControlNumbers(...args: Parameters<typeof reserveWithTime>) {
  const { reservedAt, ...numbers } = await reserveWithTime(...args);
  expect(Date.parse(reservedAt)).not.toBeNaN();
  return numbers;
}

describe("X12 control numbers per partner", () => {
  it("numbers each interchange, group and set in turn from 1, per partner; a reference reserved again gets its numbers again; a TA1-only interchange takes no group", async () => {
    const [acme, other] = [await newPartner(), await newPartner()];
    expect(await reserveControlNumbers(env.DB, acme, "event-1", 1)).toEqual({ interchange: 1, group: 1, firstSet: 1, sets: 1 });
    expect(await reserveControlNumbers(env.DB, acme, "event-2", 3)).toEqual({ interchange: 2, group: 2, firstSet: 2, sets: 3 });
    expect(await reserveControlNumbers(env.DB, other, "event-2", 2)).toEqual({ interchange: 1, group: 1, firstSet: 1, sets: 2 });
    expect(await reserveControlNumbers(env.DB, acme, "event-3", 1)).toEqual({ interchange: 3, group: 3, firstSet: 5, sets: 1 });
    // The retry of a reservation whose answer was lost: the same numbers, nothing moved.
    expect(await reserveControlNumbers(env.DB, acme, "event-2", 3)).toEqual({ interchange: 2, group: 2, firstSet: 2, sets: 3 });
    expect(await counters(acme)).toEqual({ interchange: 3, group: 3, set: 5 });
    // An interchange that carries only a TA1 takes an interchange number alone.
    expect(await reserveControlNumbers(env.DB, acme, "ta1-only", 0)).toEqual({ interchange: 4, group: null, firstSet: null, sets: 0 });
    expect(await counters(acme)).toEqual({ interchange: 4, group: 3, set: 5 });
    expect(await reserveControlNumbers(env.DB, acme, "event-4", 1)).toEqual({ interchange: 5, group: 4, firstSet: 6, sets: 1 });
    await expect(reserveControlNumbers(env.DB, acme, "event-5", -1)).rejects.toThrow(RangeError);
    await expect(reserveControlNumbers(env.DB, acme, "event-5", 1.5)).rejects.toThrow(RangeError);
  });

  it("reservations at once take every number once, with no gap", async () => {
    const partner = await newPartner();
    const reserved = await Promise.all(Array.from({ length: 25 }, (_, i) => reserveControlNumbers(env.DB, partner, `event-${i}`, 2)));
    expect(reserved.map((r) => r.interchange).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(reserved.map((r) => r.firstSet ?? 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => 2 * i + 1));
    expect(await counters(partner)).toEqual({ interchange: 25, group: 25, set: 50 });
  });

  it("a reservation that fails takes no number: the next one takes the number it would have", async () => {
    const partner = await newPartner();
    await reserveControlNumbers(env.DB, partner, "before", 1);
    // An injected fault in the interchange's insert, after the counters' update in the same batch.
    await env.DB.prepare(
      "CREATE TRIGGER edi_fault BEFORE INSERT ON edi_interchanges WHEN NEW.reference = 'faulty' BEGIN SELECT RAISE(ABORT, 'injected fault'); END",
    ).run();
    try {
      await expect(reserveControlNumbers(env.DB, partner, "faulty", 4)).rejects.toThrow(/injected fault/);
    } finally {
      await env.DB.prepare("DROP TRIGGER edi_fault").run();
    }
    expect(await counters(partner)).toEqual({ interchange: 1, group: 1, set: 1 });
    expect(await reserveControlNumbers(env.DB, partner, "faulty", 4)).toEqual({ interchange: 2, group: 2, firstSet: 2, sets: 4 });
  });

  it("a partner that used every nine-digit number is refused, never wrapped around, and nothing is taken", async () => {
    const partner = await newPartner();
    await reserveControlNumbers(env.DB, partner, "first", 1);
    await env.DB.prepare("UPDATE edi_control_numbers SET last = ? WHERE partner_id = ? AND kind = 'interchange'")
      .bind(MAX_CONTROL_NUMBER, partner)
      .run();
    await expect(reserveControlNumbers(env.DB, partner, "one too many", 1)).rejects.toThrow(ControlNumbersExhausted);
    expect(await counters(partner)).toEqual({ interchange: MAX_CONTROL_NUMBER, group: 1, set: 1 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM edi_interchanges WHERE partner_id = ?").bind(partner).first("n")).toBe(1);
    await expect(reserveControlNumbers(env.DB, 999_999, "nobody", 1)).rejects.toThrow(/FOREIGN KEY/);
  });
});
