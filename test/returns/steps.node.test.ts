import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkStep,
  daysLate,
  FINAL_STATUSES,
  RETURN_KINDS,
  type ReturnActor,
  type ReturnStep,
  rankOf,
  STATUS_ORDER,
  STEPS,
} from "../../src/api/returns/steps";
import type { ReturnKind } from "../../src/db/schema";

/**
 * The state machines of returns (src/api/returns/steps.ts), held by properties over random sequences of steps: no step
 * leads to an earlier status, every step taken writes exactly one event of its kind, a final status takes no step of
 * the buyer or the vendor, and late fees are whole days of integer money. test/returns/returns.test.ts drives the same
 * steps through the API, on DB and on a tenant's store.
 */

const ACTORS: ReturnActor[] = ["buyer", "vendor", "system"];
const stepsOf = (kind: ReturnKind) => Object.keys(STEPS[kind]) as ReturnStep[];
/** Where a return of each kind starts: the `to` of its creating step, or a repair's awaiting_unit. */
const startOf = (kind: ReturnKind) => STATUS_ORDER[kind][0]!;

describe("the state machines of returns", () => {
  it("random step sequences: a status never goes back, each step taken is one event of the kind, refused steps change nothing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RETURN_KINDS),
        fc.array(fc.tuple(fc.nat(20), fc.constantFrom(...ACTORS)), { maxLength: 30 }),
        (kind, attempts) => {
          let status = startOf(kind);
          const events: string[] = [];
          let taken = 0;
          for (const [pick, actor] of attempts) {
            const steps = stepsOf(kind);
            const step = steps[pick % steps.length]!;
            const check = checkStep(kind, status, step, actor);
            if (!check.ok) {
              // The answer lists only steps the actor may take from here.
              for (const allowed of check.allowed) expect(checkStep(kind, status, allowed, actor).ok).toBe(true);
              continue;
            }
            expect(rankOf(kind, check.rule.to)).toBeGreaterThanOrEqual(rankOf(kind, status));
            status = check.rule.to;
            events.push(check.rule.event);
            taken++;
          }
          expect(events).toHaveLength(taken);
          const prefix = { core: "core.", loaner: "loaner.", repair: "repair.", rma: "return." }[kind];
          for (const event of events) expect(event.startsWith(prefix)).toBe(true);
          expect(STATUS_ORDER[kind]).toContain(status);
        },
      ),
    );
  });

  it("every status is reachable, and a final one takes no step of the buyer or the vendor", () => {
    for (const kind of RETURN_KINDS) {
      const reached = new Set([startOf(kind)]);
      for (let round = 0; round < 10; round++) {
        for (const rule of Object.values(STEPS[kind])) if (rule.from.some((s) => reached.has(s))) reached.add(rule.to);
      }
      expect([...reached].sort()).toEqual([...STATUS_ORDER[kind]].sort());
      for (const final of FINAL_STATUSES[kind]) {
        for (const actor of ["buyer", "vendor"] as const) {
          for (const step of stepsOf(kind)) expect(checkStep(kind, final, step, actor).ok, `${kind} ${final} ${step}`).toBe(false);
        }
      }
    }
  });

  it("each step of a kind writes its own event type", () => {
    for (const kind of RETURN_KINDS) {
      const events = Object.values(STEPS[kind]).map((rule) => rule.event);
      expect(new Set(events).size).toBe(events.length);
    }
  });
});

describe("late fees", () => {
  const DAY = 86_400_000;
  it("are whole days after the due day, never negative, growing with the day the unit left; the fee is integer cents", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3650 }),
        fc.integer({ min: -40, max: 400 }),
        fc.integer({ min: 0, max: DAY - 1 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 50 }),
        (dayNumber, offsetDays, timeOfDay, feeCents, units) => {
          const dueAt = new Date(Date.UTC(2026, 0, 1) + dayNumber * DAY).toISOString();
          const shippedAt = new Date(Date.parse(dueAt) + offsetDays * DAY + timeOfDay).toISOString();
          const days = daysLate(dueAt, shippedAt);
          expect(days).toBe(Math.max(0, offsetDays));
          expect(Number.isSafeInteger(days * units * feeCents)).toBe(true);
          const later = new Date(Date.parse(shippedAt) + DAY).toISOString();
          expect(daysLate(dueAt, later)).toBeGreaterThanOrEqual(days);
        },
      ),
    );
  });
});
