import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankOf } from "../../src/api/returns/steps";
import { json, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { runs } from "../helpers/depth";
import { eventsOf } from "../helpers/orders";
import { boughtOption, orderOf } from "../helpers/returns";
import { storeRows } from "../helpers/stores";
import { tomorrow, vendorCall, vendorOf } from "../helpers/vendors";

/**
 * Returns of bought units driven by random sequences of the buyer's and the vendor's steps through the API (docs/api.md,
 * "Returns of bought units"): the units in returns never exceed those delivered, a request is refused exactly when it
 * would, no return's status goes back, and every step taken writes exactly one event, a refused one none.
 */

type Action = { kind: "request"; quantity: number } | { kind: "authorize" | "decline" | "ship" | "receive"; pick: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("request" as const), quantity: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constantFrom("authorize" as const, "decline" as const, "ship" as const, "receive" as const), pick: fc.nat(5) }),
);

const buyer = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
  contractCall(await tokenFor(TENANT_A), path, { method: "POST", json: body, headers });

/** A delivered line of `quantity` units bought outright: its order, line and vendor. */
async function deliveredLine(quantity: number) {
  const { orderNumber, lineId } = await orderOf(await boughtOption(), quantity);
  const vendorId = await vendorOf(lineId);
  for (const [move, body] of [
    ["acknowledge", { promisedShipDate: tomorrow() }],
    ["ship", { trackingNumber: `1Z${crypto.randomUUID().slice(0, 8)}` }],
    ["deliver", {}],
  ] as const) {
    expect((await vendorCall(vendorId, `/order-lines/${lineId}/${move}`, { method: "POST", json: body })).status).toBe(200);
  }
  return { orderNumber, lineId, vendorId };
}

const returnEvents = async (orderNumber: string) =>
  (await eventsOf(orderNumber)).filter((event) => event.type.startsWith("return.")).length;

describe("returns of bought units under random step sequences", () => {
  it("never more units in returns than delivered, no status backwards, one event per step taken", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(action, { minLength: 3, maxLength: 9 }), async (delivered, actions) => {
        const { orderNumber, lineId, vendorId } = await deliveredLine(delivered);
        const returns: { id: number; quantity: number; status: string }[] = [];
        let steps = 0;
        for (const next of actions) {
          const inReturns = returns.filter((r) => r.status !== "declined").reduce((sum, r) => sum + r.quantity, 0);
          if (next.kind === "request") {
            const res = await buyer(
              `/orders/${orderNumber}/lines/${lineId}/returns`,
              { quantity: next.quantity, reason: "not_needed" },
              { "Idempotency-Key": crypto.randomUUID() },
            );
            if (next.quantity <= delivered - inReturns) {
              expect(res.status).toBe(201);
              const made = (await json(res)).data.return;
              returns.push({ id: made.returnId, quantity: made.quantity, status: made.status });
              steps++;
            } else expect(res.status).toBe(400);
            continue;
          }
          const target = returns[next.pick % Math.max(1, returns.length)];
          if (!target) continue;
          const allowed = {
            authorize: target.status === "requested",
            decline: target.status === "requested",
            ship: target.status === "authorized",
            receive: target.status === "shipped",
          }[next.kind];
          const res =
            next.kind === "ship"
              ? await buyer(`/returns/${target.id}/ship`, { carrierName: "UPS", trackingNumber: `1Z${crypto.randomUUID().slice(0, 8)}` })
              : await vendorCall(vendorId, `/returns/${target.id}/${next.kind}`, {
                  method: "POST",
                  json:
                    next.kind === "authorize"
                      ? { rmaNumber: `RMA-${target.id}`, returnBy: tomorrow() }
                      : next.kind === "decline"
                        ? { reason: "No" }
                        : {},
                });
          // A step already in place (the same RMA number, a decline or receipt again) answers as done: no step, no event.
          const repeat = {
            authorize: target.status === "authorized",
            decline: target.status === "declined",
            ship: false,
            receive: target.status === "received",
          }[next.kind];
          expect(res.status, `${next.kind} from ${target.status}`).toBe(allowed || repeat ? 200 : 409);
          if (repeat) expect((await json(res)).data.eventId).toBeNull();
          if (!allowed) continue;
          const after = (await json(res)).data.return;
          expect(rankOf("rma", after.status)).toBeGreaterThan(rankOf("rma", target.status));
          target.status = after.status;
          steps++;
        }
        const [stored] = await storeRows(
          TENANT_A,
          "SELECT sum(quantity) AS n FROM unit_returns WHERE line_id = ? AND kind = 'rma' AND status != 'declined'",
          lineId,
        );
        expect((stored!.n as number | null) ?? 0).toBeLessThanOrEqual(delivered);
        expect(await returnEvents(orderNumber)).toBe(steps);
      }),
      { numRuns: runs({ quick: 3, deep: 20 }) },
    );
  });
});
