import { sha256Hex } from "../../../platform/sha256";
import { takeInbound } from "../intake";
import { readOutbound } from "../outbound/outbox";
import { type OutboundLine, priceText } from "../outbound/purchase-orders";
import type { Partner } from "../partners/schemas";
import { readX12 } from "../x12/reader";
import { type PartnerSet, set810, set855, set856, set997, supplierInterchange } from "./supplier-documents";

/**
 * The sandbox's simulated supplier (docs/edi.md, "The sandbox's simulated supplier"): for a test partner whose
 * `simulatedSupplier` is set, Medparts answers as the supplier's translator would. Each 850 (or 860) it is sent gets a
 * 997 accepting it at once; then, as the sandbox's schedule moves the order's lines (src/api/sandbox/schedule.ts), the
 * lines acknowledged get an 855 (IA), those shipped an 856, those delivered an 810 at their prices, each of the
 * documents the partner exchanges. Every answer is taken in as the partner's interchange (intake.ts): recorded, checked
 * and acknowledged by Medparts' 997 in the mailbox, never applied (a test partner's sets are not). An answer's ISA13 is
 * derived from what it answers, so a message handed off again is a duplicate, answered once.
 */

export interface SimulatedAnswer {
  document: "997" | "855" | "856" | "810";
  orderNumber: string;
  interchangeControl: number;
  outcome: string;
  /** Each set's outcome: `checked`, or `refused` with its messages. */
  sets: { set: string; outcome: string; messages: string[] }[];
}

/** Which documents answer which line status the sandbox's schedule moves a line to. */
const ANSWER_OF_STATUS = { Acknowledged: "855", Shipped: "856", Delivered: "810" } as const;

/** An ISA13 for the answer named `key`: 1 to 999,999,999, from its hash (a redelivery gives the same). */
async function controlNumberOf(key: string): Promise<number> {
  return (Number.parseInt((await sha256Hex(key)).slice(0, 12), 16) % 999_999_999) + 1;
}

const linesOf = (lines: readonly OutboundLine[]) =>
  lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity, price: priceText(line.price), sku: line.partNumber }));

function answerSet(document: "855" | "856" | "810", poNumber: string, orderNumber: string, lines: readonly OutboundLine[]): PartnerSet {
  const ids = lines.map((line) => line.lineId).join("-");
  switch (document) {
    case "855":
      return set855(
        poNumber,
        linesOf(lines).map((line) => ({ ...line, code: "IA" })),
      );
    case "856":
      return set856(poNumber, `SIM-${orderNumber}-${ids}`, linesOf(lines));
    default:
      return set810(poNumber, `SIM-${orderNumber}-${ids}`.slice(0, 22), linesOf(lines));
  }
}

/** What the simulator reads of a handoff (../outbound/handoff.ts, which calls it): its message and what it sent. */
export interface Handoff {
  message: { tenantId: number; changes: readonly { line: OutboundLine | null }[] };
  /** The documents handed off; those `stored` now are answered with a 997. */
  handed: readonly { reference: string; orderNumber: string; outcome: string; controlNumber?: number | null }[];
  /** The orders of the message whose 850 was sent: only their lines are answered. */
  sentOrders: ReadonlySet<string>;
}

export async function answerAsSimulatedSupplier(
  env: { DB: D1Database; IMPORTS: R2Bucket },
  partner: Partner,
  { message, handed, sentOrders }: Handoff,
): Promise<SimulatedAnswer[]> {
  const answers: SimulatedAnswer[] = [];
  const envelope = { senderId: partner.partnerIdentity.id, receiverId: partner.ourIdentity.id, usage: "T" as const };
  const answer = async (document: SimulatedAnswer["document"], orderNumber: string, key: string, set: PartnerSet) => {
    const controlNumber = await controlNumberOf(`${partner.id}:${key}`);
    const [result] = await takeInbound(env, supplierInterchange([set], { ...envelope, controlNumber }), { partnerIds: [partner.id] });
    answers.push({
      document,
      orderNumber,
      interchangeControl: controlNumber,
      outcome: result?.outcome ?? "refused",
      sets: (result?.sets ?? []).map(({ set, outcome, messages }) => ({ set, outcome, messages })),
    });
  };

  for (const document of handed) {
    if (document.outcome !== "stored" || document.controlNumber === null || document.controlNumber === undefined) continue;
    const text = await readOutbound(env.IMPORTS, partner.id, document.controlNumber);
    const group = text === null ? undefined : readX12(text).interchanges[0]?.groups[0];
    if (!group) continue;
    const sets = group.sets.map((set) => ({ id: set.id, controlNumber: set.controlNumber }));
    await answer(
      "997",
      document.orderNumber,
      `997:${document.reference}`,
      set997({ functionalId: group.functionalId, controlNumber: group.controlNumber, sets }),
    );
  }

  const orders = new Map<string, OutboundLine[]>();
  for (const { line } of message.changes) if (line) orders.set(line.orderNumber, [...(orders.get(line.orderNumber) ?? []), line]);
  for (const [orderNumber, lines] of orders) {
    if (!sentOrders.has(orderNumber)) continue;
    const poNumber = lines[0]!.poNumber?.trim() || orderNumber;
    for (const [status, document] of Object.entries(ANSWER_OF_STATUS)) {
      if (!partner.documents.includes(document)) continue;
      const moved = lines.filter((line) => line.statusName === status).sort((a, b) => a.lineId - b.lineId);
      if (moved.length === 0) continue;
      const key = `${document}:${message.tenantId}:${orderNumber}:${moved.map((line) => line.lineId).join(",")}`;
      await answer(document, orderNumber, key, answerSet(document, poNumber, orderNumber, moved));
    }
  }
  return answers;
}
