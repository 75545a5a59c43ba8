import { ControlNumbersExhausted } from "../control-numbers";
import { DecimalError } from "../mapping/decimal";
import { PurchaseOrderError } from "../mapping/purchase-order";
import { type PartnerRow, presentPartner } from "../partners/partners";
import type { Partner } from "../partners/schemas";
import { answerAsSimulatedSupplier, type SimulatedAnswer } from "../sandbox/simulated-supplier";
import { X12WriteError } from "../x12/writer";
import { markSent, sentAt } from "./acknowledgments";
import { outboxKey, putOutbound } from "./outbox";
import {
  type OrderDocument,
  type OutboundLine,
  orderChangeDocument,
  purchaseOrderDocument,
  purchaseOrderOf,
  renderOrderDocument,
} from "./purchase-orders";

/**
 * The 850s a vendor's lines message hands to its X12 partner (docs/edi.md, "Sending the 850"): the tenant stores
 * publish their changed lines per vendor to the medparts-vendor-lines queue, and for a vendor with a partner that
 * exchanges 850s, each order whose lines were placed gets one 850 (reference `850:{tenantId}:{orderNumber}:{vendorId}`)
 * put in the partner's outbox, and each order with lines cancelled after its 850 was sent, as the partner's
 * `orderChanges` says, an 860 deleting those lines (BCH01 04, POC02 DI) or a cancelling 850 (BEG01 01) naming them,
 * or nothing. Idempotent: a reference whose
 * interchange was sent is not rendered again, and one rendered again (a crash before it was marked sent) gives the
 * same numbers and bytes under the same key, which the outbox keeps once.
 */

/** What the handoff reads of a vendor-lines message (src/api/vendors/projection/messages.ts's LineChangesMessage). */
export interface VendorLinesMessage {
  tenantId: number;
  vendorId: number;
  changes: readonly { lineId: number; line: OutboundLine | null }[];
}

/** The line statuses the handoff reads (src/api/orders/lifecycle.ts): a placed line's first, and cancelled. */
export const PLACED_STATUS = "Ordered";
export const CANCELLED_STATUS = "Cancelled";

export interface HandoffBindings {
  DB: D1Database;
  IMPORTS: R2Bucket;
}

/** What a handed-off document is: an original 850 (00), a cancelling one (01), or an 860 (04, a change). */
export type HandedOffPurpose = "00" | "01" | "04";

export type HandedOff =
  | {
      reference: string;
      document: OrderDocument["id"];
      purpose: HandedOffPurpose;
      /** stored: put in the outbox now; exists: it was there (a retry); already-sent: not rendered again. */
      outcome: "stored" | "exists" | "already-sent";
      orderNumber: string;
      controlNumber: number | null;
      key: string | null;
    }
  | {
      reference: string;
      document: OrderDocument["id"];
      purpose: HandedOffPurpose;
      outcome: "refused";
      orderNumber: string;
      reason: string;
    };

export const placedReference = (tenantId: number, orderNumber: string, vendorId: number) => `850:${tenantId}:${orderNumber}:${vendorId}`;
const lineList = (lineIds: readonly number[]) => [...lineIds].sort((a, b) => a - b).join(",");
export const cancelReference = (tenantId: number, orderNumber: string, vendorId: number, lineIds: readonly number[]) =>
  `850-cancel:${tenantId}:${orderNumber}:${vendorId}:${lineList(lineIds)}`;
export const changeReference = (tenantId: number, orderNumber: string, vendorId: number, lineIds: readonly number[]) =>
  `860:${tenantId}:${orderNumber}:${vendorId}:${lineList(lineIds)}`;

/**
 * The partner that receives the vendor's 850s for this tenant: a live tenant's orders go to the vendor's production
 * partner, a sandbox twin's (tenant id < 0, src/platform/test-mode.ts) to its test partner; the first one (by id)
 * that exchanges 850s. None: the vendor takes its orders through the vendor API.
 */
export async function orderPartnerOf(db: D1Database, vendorId: number, tenantId: number): Promise<Partner | null> {
  const { results } = await db
    .prepare("SELECT * FROM edi_partners WHERE vendor_id = ? AND usage = ? ORDER BY id")
    .bind(vendorId, tenantId < 0 ? "T" : "P")
    .all<PartnerRow>();
  return results.map(presentPartner).find((partner) => partner.documents.includes("850")) ?? null;
}

/** Errors of an order that no retry mends: refused by name, the message's other orders sent. */
const refusal = (error: unknown) =>
  error instanceof PurchaseOrderError ||
  error instanceof X12WriteError ||
  error instanceof DecimalError ||
  error instanceof ControlNumbersExhausted
    ? error.message
    : null;

/** What is handed off for one order: the reference its document is numbered under, and how it is made. */
interface Handing {
  reference: string;
  purpose: HandedOffPurpose;
  lines: OutboundLine[];
  /** Its document, given the lines and the moment its control numbers were reserved. */
  document: (lines: OutboundLine[], reservedAt: Date) => OrderDocument;
  kind: OrderDocument["id"];
}

async function handOff(env: HandoffBindings, partner: Partner, handing: Handing, now: Date): Promise<HandedOff> {
  const { reference, purpose, lines, kind: document } = handing;
  const orderNumber = lines[0]!.orderNumber;
  if (await sentAt(env.DB, partner.id, reference)) {
    return { reference, document, purpose, outcome: "already-sent", orderNumber, controlNumber: null, key: null };
  }
  try {
    const { text, numbers } = await renderOrderDocument(env.DB, partner, reference, (at) => handing.document(lines, at));
    const outcome = await putOutbound(env.IMPORTS, partner.id, numbers.interchange, text, { document, reference });
    await markSent(env.DB, partner, reference, now);
    return {
      reference,
      document,
      purpose,
      outcome,
      orderNumber,
      controlNumber: numbers.interchange,
      key: outboxKey(partner.id, numbers.interchange),
    };
  } catch (error) {
    const reason = refusal(error);
    if (reason === null) throw error;
    return { reference, document, purpose, outcome: "refused", orderNumber, reason };
  }
}

/**
 * Hands a vendor-lines message's orders to the vendor's partner. Placed lines are those in the status a line is
 * placed in (Ordered): an order's 850 carries its lines of the message in that status, once per (tenant, order,
 * vendor); a line still Ordered published again later (its address changed) sends nothing more. Cancelled lines of an
 * order whose 850 was sent make an 860 deleting them (orderChanges `860`) or a cancelling 850 naming them
 * (`cancel-850`).
 */
export async function sendOrderLines(
  env: HandoffBindings,
  message: VendorLinesMessage,
  now: Date = new Date(),
): Promise<{ partnerId: number | null; documents: HandedOff[]; simulated?: SimulatedAnswer[] }> {
  const partner = await orderPartnerOf(env.DB, message.vendorId, message.tenantId);
  if (!partner) return { partnerId: null, documents: [] };
  const orders = new Map<string, OutboundLine[]>();
  for (const { line } of message.changes) {
    if (line) orders.set(line.orderNumber, [...(orders.get(line.orderNumber) ?? []), line]);
  }
  const { tenantId, vendorId } = message;
  const documents: HandedOff[] = [];
  for (const [orderNumber, lines] of orders) {
    const placed = lines.filter((line) => line.statusName === PLACED_STATUS);
    const original = placedReference(tenantId, orderNumber, vendorId);
    if (placed.length > 0) {
      documents.push(
        await handOff(
          env,
          partner,
          {
            reference: original,
            purpose: "00",
            kind: "850",
            lines: placed,
            document: (l) => purchaseOrderDocument(purchaseOrderOf(l, tenantId, "00"), partner),
          },
          now,
        ),
      );
    }
    const cancelled = lines.filter((line) => line.statusName === CANCELLED_STATUS);
    if (cancelled.length === 0 || partner.orderChanges === "none" || !(await sentAt(env.DB, partner.id, original))) continue;
    const lineIds = cancelled.map((line) => line.lineId);
    const handing: Handing =
      partner.orderChanges === "860"
        ? {
            reference: changeReference(tenantId, orderNumber, vendorId, lineIds),
            purpose: "04",
            kind: "860",
            lines: cancelled,
            document: (l, reservedAt) => orderChangeDocument(purchaseOrderOf(l, tenantId, "00"), reservedAt),
          }
        : {
            reference: cancelReference(tenantId, orderNumber, vendorId, lineIds),
            purpose: "01",
            kind: "850",
            lines: cancelled,
            document: (l) => purchaseOrderDocument(purchaseOrderOf(l, tenantId, "01"), partner),
          };
    documents.push(await handOff(env, partner, handing, now));
  }
  if (!partner.simulatedSupplier) return { partnerId: partner.id, documents };
  const sentOrders = new Set<string>();
  for (const orderNumber of orders.keys()) {
    if (await sentAt(env.DB, partner.id, placedReference(tenantId, orderNumber, vendorId))) sentOrders.add(orderNumber);
  }
  const simulated = await answerAsSimulatedSupplier(env, partner, { message, handed: documents, sentOrders });
  return { partnerId: partner.id, documents, simulated };
}
