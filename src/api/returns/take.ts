import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, type ReturnShipment } from "../../db/schema";
import { ProblemError, ValidationError } from "../../platform/errors";
import { centsToText, textToCents } from "../../platform/money";
import { termsOrBuy } from "../../shared/catalog/purchase-terms";
import { scanCode } from "../../shared/udi/scan";
import { rematchAfter } from "../invoices/invoicing";
import { orderTotalUpkeep } from "../orders/changes";
import { isWithdrawn } from "../orders/lifecycle";
import { priceChange } from "../orders/line-history";
import { REPAIR_OPENED_STATUS } from "../orders/repair-lines";
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

/** How long before its report a parcel may have left: a late fee counts by the day it left, which the buyer says. */
export const PARCEL_REPORT_DAYS = 2;

function shipment(parcel: Parcel, now: Date, notBefore: string): ReturnShipment {
  const shippedAt = parcel.shippedAt ?? now.toISOString();
  if (shippedAt < notBefore) throw new ValidationError({ shippedAt: [`Must not be before ${notBefore}.`] });
  if (shippedAt < new Date(now.getTime() - PARCEL_REPORT_DAYS * 86_400_000).toISOString())
    throw new ValidationError({
      shippedAt: [`Must not be more than ${PARCEL_REPORT_DAYS} days before this report: report a parcel when it leaves.`],
    });
  if (shippedAt > new Date(now.getTime() + 60_000).toISOString()) throw new ValidationError({ shippedAt: ["Must not be in the future."] });
  return { carrierName: parcel.carrierName, trackingNumber: parcel.trackingNumber, shippedAt };
}

/** The unit's label as the scan-to-order parser reads it; a 400 naming `udi` when it carries no device identifier. */
function scannedUdi(code: string, now: Date): NonNullable<ReturnShipment["udi"]> {
  const data = scanCode(code, now).reading?.data;
  if (!data?.deviceId) throw new ValidationError({ udi: ["Not a UDI with a device identifier (GS1, HIBCC or ISBT 128)."] });
  return { agency: data.agency, deviceId: data.deviceId, lot: data.lot ?? null, serial: data.serial ?? null, expiry: data.expiry ?? null };
}

/** A repair whose line was cancelled or rejected before its unit went in is closed: no step takes it any further. */
export const withdrawnRepair = (read: Pick<ReturnRead, "row" | "lineStatus">) =>
  read.row.kind === "repair" && read.row.status === REPAIR_OPENED_STATUS && isWithdrawn(read.lineStatus);

function refuseWithdrawn(read: ReturnRead): void {
  if (!withdrawnRepair(read)) return;
  throw new ProblemError(
    409,
    "line-withdrawn",
    "Line withdrawn",
    `The repair's order line is ${read.lineStatus}: the unit does not go in.`,
  );
}

export async function takeBuyerStep(
  db: Database,
  tenantId: number,
  id: number,
  action: BuyerAction,
  now = new Date(),
): Promise<StepOutcome> {
  const read = await readReturn(db, { tenantId }, id, { invoicing: action.action === "repair-decision" });
  const { row } = read;
  refuseWithdrawn(read);
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
  const repaired = row.status === "repairing" || (row.status === "returned" && row.outbound?.repaired !== false);
  if (action.decision === "approve" && beyond && repaired) return repeated(read);
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
  const revision = lineRevision(row.lineId, "approve-repair", priceChange(read.linePriceCents, price), action.reason ?? null);
  // The vendor's invoices of the line are matched again against its new price, in the same commit.
  const rematch = rematchAfter(db, read.invoicing, new Map([[row.lineId, { priceCents: price }]]), now.toISOString());
  return commitSteps(db, read, "buyer", [{ step: "approve", set: { chargeCents: price }, payload: { amount: centsToText(price) } }], now, {
    statements: price === read.linePriceCents ? [] : [...statements, ...rematch.statements],
    revisions: price === read.linePriceCents ? [] : [revision],
    events: price === read.linePriceCents ? [] : rematch.events,
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
  refuseWithdrawn(read);
  const at = now.toISOString();
  switch (action.action) {
    case "authorize": {
      const returnBy = dayOf(action.returnBy);
      const sameTerms =
        row.rmaNumber === action.rmaNumber &&
        row.dueAt === returnBy &&
        row.chargeCents === (action.restockingFee === undefined ? 0 : textToCents(action.restockingFee)) &&
        (action.returnTo === undefined || row.returnTo === action.returnTo);
      // The same authorization again is a repeat; another one of an authorized return is a 409 (not a step from there).
      if (row.status === "authorized" && sameTerms) return repeated(read);
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
