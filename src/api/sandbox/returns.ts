import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type ReturnKind, unitReturns } from "../../db/schema";
import { centsToText } from "../../platform/money";
import { takeDueSoon, takeOverdue } from "../returns/due";
import { readReturn, type StepOutcome } from "../returns/returns";
import { DAY_MS, dayOf } from "../returns/steps";
import { takeBuyerStep, takeVendorStep } from "../returns/take";

/**
 * The simulated vendor's part of returns (docs/api.md, "Sandbox"): each path on demand, on a test order's returns,
 * through the very steps a real vendor and the housekeeping take. Where the path needs the buyer's parcel first (a
 * core, a unit for repair), the simulator ships it for the buyer, so that one call plays the whole path.
 */

export const RETURN_SCENARIOS = [
  "core_received",
  "core_refused",
  "core_overdue",
  "loaner_overdue",
  "loaner_received",
  "repair_beyond_flat_rate",
  "rma_declined",
] as const;
export type ReturnScenario = (typeof RETURN_SCENARIOS)[number];

const KIND: Record<ReturnScenario, ReturnKind> = {
  core_received: "core",
  core_refused: "core",
  core_overdue: "core",
  loaner_overdue: "loaner",
  loaner_received: "loaner",
  repair_beyond_flat_rate: "repair",
  rma_declined: "rma",
};

/** The statuses each path starts from. */
const FROM: Record<ReturnScenario, readonly string[]> = {
  core_received: ["open", "shipped"],
  core_refused: ["open", "shipped"],
  core_overdue: ["open"],
  loaner_overdue: ["open"],
  loaner_received: ["open", "overdue", "shipped"],
  repair_beyond_flat_rate: ["awaiting_unit", "shipped", "received"],
  rma_declined: ["requested"],
};

const sandboxParcel = () => ({
  carrierName: "Sandbox Carrier",
  trackingNumber: `SBX${crypto.randomUUID().slice(0, 10).replaceAll("-", "").toUpperCase()}`,
});

/** Plays the path on each return of the test order that can take it; the events written, and how many returns moved. */
export async function simulateReturns(
  db: Database,
  tenantId: number,
  orderId: number,
  scenario: ReturnScenario,
  options: { reason?: string | undefined },
): Promise<{ eventIds: string[]; moved: number }> {
  const candidates = await db
    .select({ id: unitReturns.id, vendorId: unitReturns.vendorId, status: unitReturns.status, dueSoonAt: unitReturns.dueSoonAt })
    .from(unitReturns)
    .where(
      and(
        eq(unitReturns.orderId, orderId),
        eq(unitReturns.tenantId, tenantId),
        eq(unitReturns.kind, KIND[scenario]),
        inArray(unitReturns.status, [...FROM[scenario]]),
      ),
    )
    .orderBy(asc(unitReturns.id));
  const eventIds: string[] = [];
  const today = dayOf(new Date().toISOString());
  const yesterday = new Date(Date.parse(today) - DAY_MS).toISOString();
  const took = (outcome: StepOutcome) => eventIds.push(...outcome.eventIds);
  for (const candidate of candidates) {
    const vendor = { vendorId: candidate.vendorId, sandbox: true };
    const current = () => readReturn(db, { tenantId }, candidate.id);
    const shipForBuyer = async () => took(await takeBuyerStep(db, tenantId, candidate.id, { action: "ship", ...sandboxParcel() }));
    switch (scenario) {
      case "core_received":
      case "core_refused": {
        if (candidate.status === "open") await shipForBuyer();
        const refused = scenario === "core_refused";
        took(
          await takeVendorStep(db, vendor, candidate.id, {
            action: "receive",
            outcome: refused ? "refused" : "accepted",
            reason: refused ? (options.reason ?? "Sandbox: housing cracked, not repairable") : undefined,
          }),
        );
        break;
      }
      case "core_overdue": {
        // Its due day moved to yesterday, then the housekeeping's step: overdue, and charged.
        took(await takeOverdue(db, await current(), new Date(), { dueAt: yesterday }));
        break;
      }
      case "loaner_overdue": {
        // The housekeeping's two steps as the days pass: warned on its due day (unless warned already), then overdue
        // the day after; its late fees accrue from then until it ships back.
        if (candidate.dueSoonAt === null) took(await takeDueSoon(db, await current(), new Date(), { dueAt: today }));
        took(await takeOverdue(db, await current(), new Date(), { dueAt: yesterday }));
        break;
      }
      case "loaner_received": {
        // Shipped back for the buyer if still out, then received: late fees are billed when it left after its due day.
        if (candidate.status !== "shipped") await shipForBuyer();
        took(await takeVendorStep(db, vendor, candidate.id, { action: "receive" }));
        break;
      }
      case "repair_beyond_flat_rate": {
        if (candidate.status === "awaiting_unit") await shipForBuyer();
        if (candidate.status !== "received") took(await takeVendorStep(db, vendor, candidate.id, { action: "receive" }));
        const read = await readReturn(db, vendor, candidate.id);
        const flat = read.row.chargeCents ?? read.linePriceCents;
        took(
          await takeVendorStep(db, vendor, candidate.id, {
            action: "diagnose",
            withinFlatRate: false,
            price: centsToText(flat + Math.max(100, Math.ceil(flat / 2))),
            reason: options.reason ?? "Sandbox: main board needs replacing",
          }),
        );
        break;
      }
      case "rma_declined":
        took(
          await takeVendorStep(db, vendor, candidate.id, {
            action: "decline",
            reason: options.reason ?? "Sandbox: outside the return window",
          }),
        );
        break;
    }
  }
  return { eventIds, moved: candidates.length };
}
