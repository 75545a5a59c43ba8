import { logEvent } from "../../../platform/logging";
import { AS2_PATH } from "../../../platform/planes";
import { publishedAuthority } from "../../../shared/auth/keys";
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

/** How long a document sent to a partner whose MDNs are asynchronous waits for its MDN before it is sent again. */
export const ASYNC_MDN_WAIT_MS = 30 * 60_000;

/** Our AS2 URL, where partners post asynchronous MDNs: AS2_PATH at the origin of the API's issuer (its public URL). */
export async function ourAs2Url(env: Pick<EdiBindings, "API">): Promise<string> {
  return new URL(AS2_PATH, (await publishedAuthority(env.API)).issuer).href;
}

/**
 * Sends an AS2 partner's waiting documents in order; returns how many were delivered (receipted by an MDN). For a
 * partner whose MDNs are asynchronous, a document its HTTP 2xx took is marked awaiting its MDN and the next one is sent;
 * one still awaiting is skipped until ASYNC_MDN_WAIT_MS has passed, then sent again (the same Message-ID).
 */
export async function sendWaiting(env: EdiBindings, partner: Partner, limit = 50, now = new Date()): Promise<number> {
  if (partner.transport.kind !== "as2") return 0;
  const { documents } = await listOutbound(env.IMPORTS, partner.id, { limit });
  const asynchronous = partner.transport.mdn === "async";
  const awaited = asynchronous
    ? await awaitingMdn(
        env.DB,
        partner.id,
        documents.map((document) => document.controlNumber),
        new Date(now.getTime() - ASYNC_MDN_WAIT_MS),
      )
    : new Set<number>();
  const receiptUrl = asynchronous && documents.length > awaited.size ? await ourAs2Url(env) : undefined;
  let delivered = 0;
  for (const document of documents) {
    if (awaited.has(document.controlNumber)) continue;
    const text = await readOutbound(env.IMPORTS, partner.id, document.controlNumber);
    if (text === null) continue;
    const sent = await sendAs2(env, partner, { controlNumber: String(document.controlNumber).padStart(9, "0"), text }, receiptUrl);
    if (sent.outcome === "failed") {
      logEvent("warn", { event: "edi.as2.send_failed", partnerId: partner.id, controlNumber: document.controlNumber, detail: sent.detail });
      break;
    }
    if (sent.outcome === "awaiting-mdn") {
      await markAwaitingMdn(env.DB, partner.id, document.controlNumber, now);
      continue;
    }
    await takeOutbound(env.IMPORTS, partner.id, document.controlNumber);
    delivered++;
  }
  return delivered;
}

/** Of these control numbers of the partner's, those sent and awaiting their MDN since after `since`. */
async function awaitingMdn(db: D1Database, partnerId: number, controlNumbers: number[], since: Date): Promise<Set<number>> {
  if (controlNumbers.length === 0) return new Set();
  const { results } = await db
    .prepare(
      `SELECT interchange_control AS control FROM edi_interchanges WHERE partner_id = ? AND mdn_awaited_at > ?
         AND interchange_control IN (SELECT value FROM json_each(?))`,
    )
    .bind(partnerId, since.toISOString(), JSON.stringify(controlNumbers))
    .all<{ control: number }>();
  return new Set(results.map((row) => row.control));
}

export async function markAwaitingMdn(db: D1Database, partnerId: number, controlNumber: number, at: Date | null): Promise<void> {
  await db
    .prepare("UPDATE edi_interchanges SET mdn_awaited_at = ? WHERE partner_id = ? AND interchange_control = ?")
    .bind(at?.toISOString() ?? null, partnerId, controlNumber)
    .run();
}

/** The housekeeping's part: every AS2 partner's waiting documents sent again. */
export async function sendAllWaiting(env: EdiBindings): Promise<void> {
  for (let offset = 0; ; offset += 100) {
    const partners = await listPartners(env.DB, undefined, 100, offset);
    for (const partner of partners) if (partner.transport.kind === "as2") await sendWaiting(env, partner);
    if (partners.length < 100) return;
  }
}
