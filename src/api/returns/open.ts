import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { type PurchaseTerms, unitReturns } from "../../db/schema";
import { centsToText } from "../../platform/money";
import type { EventType } from "../events/types";
import { newRmaNumber, patchNewReturnId, returnPayload } from "./returns";
import { DAY_MS, dayOf, STEPS } from "./steps";

/**
 * A parcel of an exchange or loan line opens the return of its units (docs/api.md, "Cores and loaners"), in the ship
 * move's own batch: an RMA number, the due date (shipped + the quote's core due days or loan days), where it goes back,
 * and what is charged if it is late. Its event (core.opened, loaner.opened) follows the ship move's.
 */

export interface ShippedLine {
  id: number;
  orderId: number;
  tenantId: number;
  facilityId: number;
  vendorId: number;
  purchaseTerms: PurchaseTerms | null;
}

export function openOnShipment(db: Database, line: ShippedLine, quantity: number, shippedAt: string, at: string) {
  const terms = line.purchaseTerms;
  if (terms?.type !== "exchange" && terms?.type !== "loan") return null;
  const kind = terms.type === "exchange" ? "core" : "loaner";
  const days = terms.type === "exchange" ? terms.coreDueDays : terms.loanDays;
  const dueAt = new Date(Date.parse(dayOf(shippedAt)) + days * DAY_MS).toISOString();
  const chargeCents = terms.type === "exchange" ? terms.coreChargeCents : terms.lateFeePerDayCents;
  const row = {
    tenantId: line.tenantId,
    orderId: line.orderId,
    lineId: line.id,
    vendorId: line.vendorId,
    facilityId: line.facilityId,
    kind,
    status: STEPS[kind].open!.to,
    quantity,
    rmaNumber: newRmaNumber(),
    dueAt,
    returnTo: terms.returnTo,
    chargeCents,
    createdAt: at,
    updatedAt: at,
  } satisfies typeof unitReturns.$inferInsert;
  const statements: BatchItem<"sqlite">[] = [db.insert(unitReturns).values(row)];
  const event: { type: EventType; payload: Record<string, unknown> } = {
    type: STEPS[kind].open!.event,
    payload: { ...returnPayload({ ...row, id: 0 } as typeof unitReturns.$inferSelect, row.status, at), amount: centsToText(chargeCents) },
  };
  return { statements, event, patch: (eventId: string) => patchNewReturnId(db, [eventId], line.id) };
}
