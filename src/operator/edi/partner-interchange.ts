import type { ControlNumbers } from "./control-numbers";
import type { Partner } from "./partners/schemas";
import { type WriteSegment, type WriteSet, writeInterchange } from "./x12/writer";

/**
 * An interchange of ours to a partner (docs/edi.md): the partner's delimiters, version and usage, Medparts' identity
 * towards it as the sender and the partner's as the receiver, numbered with the control numbers reserved for it and
 * dated with their reservation's time, so that writing it again for the same reference gives the same bytes. What
 * we answer (TA1, 997/999; ../inbound.ts) and what we send (the 850; ../outbound/) are both written here.
 */

export interface PartnerGroup {
  /** GS01: PO (850), FA (997/999). */
  functionalId: string;
  /** GS08: the partner's version, or an implementation guide's (005010X231A1 for a 999). */
  version: string;
  /** The sets without their ST02: numbered from the reservation's first set, in order. */
  sets: Omit<WriteSet, "controlNumber">[];
}

/** YYMMDD, HHMM (ISA09, ISA10) and CCYYMMDD (GS04) of an ISO 8601 time, in UTC. */
export function envelopeTime(iso: string): { date: string; time: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not a time: ${iso}`);
  const text = at.toISOString();
  return { date: text.slice(0, 10).replaceAll("-", ""), time: text.slice(11, 16).replace(":", "") };
}

export function partnerInterchange(
  partner: Partner,
  numbers: ControlNumbers,
  { ta1 = [], group }: { ta1?: WriteSegment[]; group?: PartnerGroup },
): string {
  const { date, time } = envelopeTime(numbers.reservedAt);
  const sets = group?.sets ?? [];
  if (sets.length !== numbers.sets) {
    throw new RangeError(`${sets.length} sets in an interchange reserved for ${numbers.sets} (partner ${partner.id}).`);
  }
  return writeInterchange({
    delimiters: {
      element: partner.delimiters.element,
      component: partner.delimiters.component,
      ...(partner.delimiters.repetition ? { repetition: partner.delimiters.repetition } : {}),
      segment: partner.delimiters.segment,
      lineBreak: "\n",
    },
    envelope: {
      senderQualifier: partner.ourIdentity.qualifier,
      senderId: partner.ourIdentity.id,
      receiverQualifier: partner.partnerIdentity.qualifier,
      receiverId: partner.partnerIdentity.id,
      date: date.slice(2),
      time,
      version: partner.version === "005010" ? "00501" : "00401",
      controlNumber: numbers.interchange,
      acknowledgmentRequested: false,
      usage: partner.usage === "test" ? "T" : "P",
    },
    ta1,
    groups:
      group && numbers.group !== null && numbers.firstSet !== null
        ? [
            {
              envelope: {
                functionalId: group.functionalId,
                senderId: partner.ourApplicationId,
                receiverId: partner.partnerApplicationId,
                date,
                time,
                controlNumber: numbers.group,
                version: group.version,
              },
              sets: sets.map((set, index) => ({ ...set, controlNumber: numbers.firstSet! + index })),
            },
          ]
        : [],
  });
}
