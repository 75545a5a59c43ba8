import { logEvent } from "../../../platform/logging";
import type { EdiBindings } from "../bindings";
import { listOutbound, type OutboundMeta, putOutbound, readOutbound, takeOutbound } from "../outbound/outbox";
import { listPartners, readPartner } from "../partners/partners";
import type { Partner } from "../partners/schemas";
import { readX12 } from "../x12/reader";
import { sendAs2 } from "./as2-send";

/**
 * Our interchanges on their way to a partner (docs/edi.md, "Sending"): each is put in the partner's outbox first (so
 * nothing is lost), then a mailbox partner takes it when it fetches, and an AS2 partner is sent what waits, oldest
 * control number first, each taken out once its MDN says `processed`. A failed send stops that partner's sending (so
 * documents arrive in order) until the next attempt: the next document, or the housekeeping (sendAllWaiting).
 */

/** What an interchange of ours carries, for the outbox's listing: its sets' ids (997, 999, 850), or TA1. */
function documentKind(text: string): string {
  const interchange = readX12(text).interchanges[0];
  const sets = [...new Set(interchange?.groups.flatMap((group) => group.sets.map((set) => set.id)) ?? [])];
  return sets.length > 0 ? sets.join(",") : "TA1";
}

/** Puts one of our interchanges in the partner's outbox and, for an AS2 partner, sends what waits. */
export async function deliverOutbound(env: EdiBindings, partnerId: number, text: string, meta?: OutboundMeta): Promise<void> {
  const interchange = readX12(text).interchanges[0];
  if (!interchange) throw new Error("deliverOutbound: not an interchange");
  await putOutbound(
    env.IMPORTS,
    partnerId,
    Number(interchange.controlNumber),
    text,
    meta ?? { document: documentKind(text), reference: "" },
  );
  const partner = await readPartner(env.DB, partnerId);
  if (partner?.transport.kind === "as2") await sendWaiting(env, partner);
}

/** Sends an AS2 partner's waiting documents in order; returns how many were delivered. */
export async function sendWaiting(env: EdiBindings, partner: Partner, limit = 50): Promise<number> {
  if (partner.transport.kind !== "as2") return 0;
  const { documents } = await listOutbound(env.IMPORTS, partner.id, { limit });
  let delivered = 0;
  for (const document of documents) {
    const text = await readOutbound(env.IMPORTS, partner.id, document.controlNumber);
    if (text === null) continue;
    const sent = await sendAs2(env, partner, { controlNumber: String(document.controlNumber).padStart(9, "0"), text });
    if (!sent.delivered) {
      logEvent("warn", { event: "edi.as2.send_failed", partnerId: partner.id, controlNumber: document.controlNumber, detail: sent.detail });
      break;
    }
    await takeOutbound(env.IMPORTS, partner.id, document.controlNumber);
    delivered++;
  }
  return delivered;
}

/** The housekeeping's part: every AS2 partner's waiting documents sent again. */
export async function sendAllWaiting(env: EdiBindings): Promise<void> {
  for (let offset = 0; ; offset += 100) {
    const partners = await listPartners(env.DB, undefined, 100, offset);
    for (const partner of partners) if (partner.transport.kind === "as2") await sendWaiting(env, partner);
    if (partners.length < 100) return;
  }
}
