import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, type ReturnShipment } from "../../db/schema";
import { ValidationError } from "../../platform/errors";
import { centsToText, textToCents } from "../../platform/money";
import { termsOrBuy } from "../../shared/catalog/purchase-terms";
import { scanCode } from "../../shared/udi/scan";
import { orderTotalUpkeep } from "../orders/changes";
import { type Charge, chargeWrites } from "./charges";
import {
  commitSteps,
  lineRevision,
  type ReturnRead,
  type ReturnScope,
  readReturn,
  repeated,
  type StepOutcome,
  type StepWrite,
} from "./returns";
import { dayOf, daysLate } from "./steps";

/**
 * The buyer's and the vendor's steps of a return (src/api/returns/steps.ts): each checks its input against the return,
 * then commits (src/api/returns/returns.ts). Repeating a step whose effect is in place (a retry after a lost answer)
 * answers as done, with no new event.
 */

export interface Parcel {
  carrierName: string;
  trackingNumber: string;
  shippedAt?: string | undefined;
}

export type BuyerAction =
  | ({ action: "ship"; udi?: string | undefined } & Parcel)
  | { action: "repair-decision"; decision: "approve" | "decline"; reason?: string | undefined };

export type VendorAction =
  | { action: "authorize"; rmaNumber: string; returnBy: string; restockingFee?: string | undefined; returnTo?: string | undefined }
  | { action: "decline"; reason: string }
  | { action: "receive"; outcome?: "accepted" | "refused" | undefined; reason?: string | undefined; receivedAt?: string | undefined }
  | { action: "diagnose"; withinFlatRate: boolean; price?: string | undefined; reason?: string | undefined }
  | ({ action: "send-back" } & Parcel);

function shipment(parcel: Parcel, now: Date, notBefore: string): ReturnShipment {
  const shippedAt = parcel.shippedAt ?? now.toISOString();
  if (shippedAt < notBefore) throw new ValidationError({ shippedAt: [`Must not be before ${notBefore}.`] });
  if (shippedAt > new Date(now.getTime() + 60_000).toISOString()) throw new ValidationError({ shippedAt: ["Must not be in the future."] });
  return { carrierName: parcel.carrierName, trackingNumber: parcel.trackingNumber, shippedAt };
}

/** The unit's label as the scan-to-order parser reads it; a 400 naming `udi` when it carries no device identifier. */
function scannedUdi(code: string, now: Date): NonNullable<ReturnShipment["udi"]> {
  const data = scanCode(code, now).reading?.data;
  if (!data?.deviceId) throw new ValidationError({ udi: ["Not a UDI with a device identifier (GS1, HIBCC or ISBT 128)."] });
  return { agency: data.agency, deviceId: data.deviceId, lot: data.lot ?? null, serial: data.serial ?? null, expiry: data.expiry ?? null };
}

export async function takeBuyerStep(
  db: Database,
  tenantId: number,
  id: number,
  action: BuyerAction,
  now = new Date(),
): Promise<StepOutcome> {
  const read = await readReturn(db, { tenantId }, id);
  const { row } = read;
  if (action.action === "ship") {
    if (row.inbound?.trackingNumber === action.trackingNumber) return repeated(read);
    const inbound = shipment(action, now, row.createdAt);
    const udi = action.udi === undefined ? null : scannedUdi(action.udi, now);
    const serial = row.serial ?? udi?.serial ?? null;
    return commitSteps(
      db,
      read,
      "buyer",
      [
        {
          step: "ship",
          set: { inbound: { ...inbound, udi }, serial },
          payload: { carrierName: inbound.carrierName, trackingNumber: inbound.trackingNumber },
        },
      ],
      now,
    );
  }
  return decideRepair(db, read, action, now);
}

/** The buyer's answer to a repair beyond its flat rate: approving takes the new price onto the line (and the order's total). */
async function decideRepair(
  db: Database,
  read: ReturnRead,
  action: Extract<BuyerAction, { action: "repair-decision" }>,
  now: Date,
): Promise<StepOutcome> {
  const { row } = read;
  const beyond = row.outcome === "beyond_flat_rate";
  if (action.decision === "approve" && beyond && (row.status === "repairing" || row.status === "returned")) return repeated(read);
  if (
    action.decision === "decline" &&
    beyond &&
    (row.status === "declined" || (row.status === "returned" && row.outbound?.repaired === false))
  )
    return repeated(read);
  if (action.decision === "decline") {
    return commitSteps(
      db,
      read,
      "buyer",
      [{ step: "reject_quote", set: { outcomeReason: action.reason ?? row.outcomeReason }, payload: { reason: action.reason ?? null } }],
      now,
    );
  }
  const price = row.proposedPriceCents ?? row.chargeCents ?? read.linePriceCents;
  const statements = [
    db
      .update(orderLines)
      .set({ priceCents: price, extendedPriceCents: sql`${price} * ${orderLines.quantity}` })
      .where(eq(orderLines.id, row.lineId)),
    orderTotalUpkeep(db, row.orderId),
  ];
  const revision = lineRevision(
    row.lineId,
    "approve-repair",
    [{ field: "priceCents", from: read.linePriceCents, to: price }],
    action.reason ?? null,
  );
  return commitSteps(db, read, "buyer", [{ step: "approve", set: { chargeCents: price }, payload: { amount: centsToText(price) } }], now, {
    statements: price === read.linePriceCents ? [] : statements,
    revisions: price === read.linePriceCents ? [] : [revision],
  });
}

export async function takeVendorStep(
  db: Database,
  scope: Extract<ReturnScope, { vendorId: number }>,
  id: number,
  action: VendorAction,
  now = new Date(),
): Promise<StepOutcome> {
  const read = await readReturn(db, scope, id);
  const { row } = read;
  const at = now.toISOString();
  switch (action.action) {
    case "authorize": {
      if (row.status === "authorized" && row.rmaNumber === action.rmaNumber) return repeated(read);
      const returnBy = dayOf(action.returnBy);
      if (returnBy < dayOf(at)) throw new ValidationError({ returnBy: ["Must not be before today."] });
      const fee = action.restockingFee === undefined ? 0 : textToCents(action.restockingFee)!;
      const value = row.quantity * read.linePriceCents;
      if (fee > value)
        throw new ValidationError({ restockingFee: [`Must not exceed what the units were bought for (${centsToText(value)}).`] });
      return commitSteps(
        db,
        read,
        "vendor",
        [
          {
            step: "authorize",
            set: { rmaNumber: action.rmaNumber, dueAt: returnBy, chargeCents: fee, returnTo: action.returnTo ?? row.returnTo },
            payload: { amount: centsToText(fee) },
          },
        ],
        now,
      );
    }
    case "decline":
      if (row.kind === "rma" && row.status === "declined") return repeated(read);
      return commitSteps(
        db,
        read,
        "vendor",
        [{ step: "decline", set: { outcomeReason: action.reason }, payload: { reason: action.reason } }],
        now,
      );
    case "receive":
      return receive(db, read, action, now);
    case "diagnose": {
      if (action.withinFlatRate) {
        if (action.price !== undefined) throw new ValidationError({ price: ["Only beyond the flat rate (withinFlatRate false)."] });
        if (row.outcome === "within_flat_rate") return repeated(read);
        return commitSteps(
          db,
          read,
          "vendor",
          [
            {
              step: "diagnose",
              set: { outcome: "within_flat_rate", outcomeReason: action.reason ?? null },
              payload: { reason: action.reason ?? null },
            },
          ],
          now,
        );
      }
      const price = action.price === undefined ? null : textToCents(action.price);
      if (price === null) throw new ValidationError({ price: ["Required beyond the flat rate: the repair's new price."] });
      if (row.outcome === "beyond_flat_rate" && row.proposedPriceCents === price) return repeated(read);
      const flat = row.chargeCents ?? read.linePriceCents;
      if (price <= flat)
        throw new ValidationError({
          price: [`Beyond the flat rate means above it (${centsToText(flat)}); within it, say withinFlatRate true.`],
        });
      return commitSteps(
        db,
        read,
        "vendor",
        [
          {
            step: "quote",
            set: { outcome: "beyond_flat_rate", outcomeReason: action.reason ?? null, proposedPriceCents: price },
            payload: { amount: centsToText(price), reason: action.reason ?? null },
          },
        ],
        now,
      );
    }
    case "send-back": {
      if (row.outbound?.trackingNumber === action.trackingNumber) return repeated(read);
      const outbound = { ...shipment(action, now, row.receivedAt ?? row.createdAt), repaired: row.status === "repairing" };
      return commitSteps(
        db,
        read,
        "vendor",
        [
          {
            step: "send_back",
            set: { outbound },
            payload: { carrierName: outbound.carrierName, trackingNumber: outbound.trackingNumber, repaired: outbound.repaired },
          },
        ],
        now,
      );
    }
  }
}

/** The vendor receives the unit: a core accepted or refused (then charged), a loaner (charged when late), a repair, a return. */
async function receive(
  db: Database,
  read: ReturnRead,
  action: Extract<VendorAction, { action: "receive" }>,
  now: Date,
): Promise<StepOutcome> {
  const { row } = read;
  const at = now.toISOString();
  const receivedAt = action.receivedAt ?? at;
  if (row.kind === "core" && action.outcome === undefined)
    throw new ValidationError({ outcome: ["Required for a core: accepted, or refused with a reason."] });
  if (row.kind !== "core" && action.outcome === "refused")
    throw new ValidationError({ outcome: ["Only a core is refused; other units are received."] });
  if (action.outcome === "refused" && !action.reason)
    throw new ValidationError({ reason: ["Required when a core is refused: why it cannot be repaired."] });
  if (row.receivedAt !== null && (row.kind !== "core" || row.outcome === action.outcome)) return repeated(read);
  const left = row.inbound?.shippedAt ?? row.createdAt;
  if (receivedAt < left) throw new ValidationError({ receivedAt: [`Must not be before the unit left (${left}).`] });
  if (receivedAt > new Date(now.getTime() + 60_000).toISOString())
    throw new ValidationError({ receivedAt: ["Must not be in the future."] });
  const refused = action.outcome === "refused";
  const first: StepWrite = {
    step: refused ? "refuse" : "receive",
    set: { receivedAt, outcome: action.outcome ?? null, outcomeReason: action.reason ?? null },
    payload: { reason: action.reason ?? null },
  };
  const charge = chargeOnReceipt(read, refused, receivedAt);
  if (!charge) return commitSteps(db, read, "vendor", [first], now);
  const writes = chargeWrites(db, read, charge, at);
  return commitSteps(db, read, "vendor", [first, { step: "charge", set: writes.set, payload: writes.payload }], now, {
    statements: writes.statements,
    patches: (eventIds) => [writes.patch(eventIds[1]!)],
  });
}

/** What a receipt bills: a refused core its charge; a loaner back late its fees. */
function chargeOnReceipt(read: ReturnRead, refused: boolean, receivedAt: string): Charge | null {
  const { row } = read;
  if (refused) return coreCharge(read, `Core refused on ${receivedAt.slice(0, 10)}`);
  const terms = termsOrBuy(read.purchaseTerms);
  if (row.kind !== "loaner" || terms.type !== "loan" || !row.dueAt || !row.inbound) return null;
  const days = daysLate(row.dueAt, row.inbound.shippedAt);
  if (days === 0) return null;
  return {
    origin: "late_fee",
    quantity: days * row.quantity,
    unitPriceCents: terms.lateFeePerDayCents,
    description: `Loaner late fee: ${days} day(s) × ${row.quantity} unit(s), ${row.rmaNumber}`,
    explanation: `Shipped back ${row.inbound.shippedAt.slice(0, 10)}, due ${row.dueAt.slice(0, 10)}: ${days} day(s) late at ${centsToText(terms.lateFeePerDayCents)} a unit and day, as quoted.`,
  };
}

/** An overdue or refused core's charge, at the terms quoted. */
export function coreCharge(read: ReturnRead, why: string): Charge {
  const { row } = read;
  const unit = row.chargeCents ?? 0;
  return {
    origin: "core_charge",
    quantity: row.quantity,
    unitPriceCents: unit,
    description: `Core charge, ${row.rmaNumber}`,
    explanation: `${why}: ${row.quantity} core(s) at ${centsToText(unit)}, the core charge quoted.`,
  };
}
