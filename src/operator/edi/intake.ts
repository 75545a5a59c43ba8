import { logEvent } from "../../platform/logging";
import { sha256Hex } from "../../platform/sha256";
import { type AppliedSet, applyInboundGroup, checkInboundGroup } from "./apply/apply";
import { vendorApi } from "./apply/vendor-api";
import { type EdiBindings, ediOf } from "./bindings";
import { fileApplied, markApplied, type Receipt, type ReceiveOptions, receiveX12, unappliedFiles } from "./inbound";
import { EDI_OFFER_DEFAULTS } from "./mapping/price-catalog";
import { recordAcknowledgments } from "./outbound/acknowledgments";
import { readPartner } from "./partners/partners";
import { deliverOutbound } from "./transport/deliver";

/**
 * A partner's file taken in, whatever carried it (docs/edi.md, "Applied once"): kept in the IMPORTS bucket, each
 * interchange recorded and acknowledged (inbound.ts), its groups applied (855, 856, 810, 832 through the vendor API as
 * the partner's client; 997/999 onto our 850s), then marked applied and the file dropped. A crash or an unavailable API
 * on the way leaves the interchange unapplied: the partner's retry, or the housekeeping (retryUnapplied), applies it
 * again, and applying twice changes nothing. A partner's interchanges are applied in the order they were received: one
 * received while an earlier one of the partner waits unapplied waits behind it (an 856 never overtakes the 855 that
 * acknowledges its lines), and whatever waited is applied as soon as the one before it is (applyWaiting).
 */

export type IntakeResult =
  | (Exclude<Receipt, { outcome: "received" }> & { sets?: undefined })
  | {
      outcome: "received";
      partnerId: number;
      interchangeControl: string;
      acknowledgment: string | null;
      /** What each set did; empty until applied (`applied` false: it will be applied again). */
      sets: AppliedSet[];
      applied: boolean;
    };

const FILES = "edi/inbound/";

/** Takes one file; the options restrict its senders to the partners the transport knows sent it. */
export async function takeInbound(
  env: unknown,
  text: string,
  senders: Omit<ReceiveOptions, "fileKey"> = {},
  /** Taken by applyWaiting: what waited behind it is applied by that loop, not again from here. */
  draining = false,
): Promise<IntakeResult[]> {
  const edi = ediOf(env);
  const fileKey = `${FILES}${await sha256Hex(text)}`;
  await edi.IMPORTS.put(fileKey, text);
  const receipts = await receiveX12(edi.DB, text, { ...senders, fileKey });
  const results: IntakeResult[] = [];
  // Partners with an interchange of this file left unapplied: their later ones in the file wait behind it.
  const blocked = new Set<number>();
  for (const receipt of receipts) {
    if (receipt.outcome !== "received") {
      results.push(receipt);
      continue;
    }
    if (receipt.acknowledgment) await deliverOutbound(edi, receipt.partnerId, receipt.acknowledgment);
    const { duplicateKey, groups, ...rest } = receipt;
    if (blocked.has(receipt.partnerId) || (await waitsBehindEarlier(edi.DB, receipt.partnerId, duplicateKey))) {
      blocked.add(receipt.partnerId);
      results.push({ ...rest, sets: [], applied: false });
      continue;
    }
    const { sets, applied } = await applyGroups(edi, receipt.partnerId, groups);
    if (applied) await markApplied(edi.DB, receipt.partnerId, duplicateKey);
    else blocked.add(receipt.partnerId);
    results.push({ ...rest, sets, applied });
  }
  if (await fileApplied(edi.DB, fileKey)) await edi.IMPORTS.delete(fileKey);
  if (draining) return results;
  const partners = new Set(results.flatMap((result) => (result.outcome === "received" && result.applied ? [result.partnerId] : [])));
  for (const partnerId of partners) await applyWaiting(env, partnerId);
  return results;
}

/**
 * Whether an interchange of the partner received in another file before this one is not applied yet (within one file,
 * the order of its interchanges: takeInbound's `blocked`).
 */
async function waitsBehindEarlier(db: D1Database, partnerId: number, duplicateKey: string): Promise<boolean> {
  return (
    (await db
      .prepare(
        `SELECT 1 FROM edi_received_interchanges e, edi_received_interchanges me
         WHERE me.partner_id = ?1 AND me.duplicate_key = ?2 AND e.partner_id = ?1 AND e.applied_at IS NULL AND e.file_key IS NOT NULL
           AND e.file_key IS NOT me.file_key AND (e.received_at < me.received_at OR (e.received_at = me.received_at AND e.duplicate_key < me.duplicate_key)) LIMIT 1`,
      )
      .bind(partnerId, duplicateKey)
      .first()) !== null
  );
}

/**
 * The partner's interchanges that waited behind one now applied, applied in order from their files, until one cannot
 * be applied yet (it and those after it wait for the partner's retry or the housekeeping). At most WAITING_PER_CALL.
 */
const WAITING_PER_CALL = 50;
async function applyWaiting(env: unknown, partnerId: number): Promise<void> {
  const edi = ediOf(env);
  for (let taken = 0; taken < WAITING_PER_CALL; taken++) {
    const next = await edi.DB.prepare(
      "SELECT file_key AS fileKey FROM edi_received_interchanges WHERE partner_id = ? AND applied_at IS NULL AND file_key IS NOT NULL ORDER BY received_at, duplicate_key LIMIT 1",
    )
      .bind(partnerId)
      .first<{ fileKey: string }>();
    const file = next && (await edi.IMPORTS.get(next.fileKey));
    if (!file) return;
    const results = await takeInbound(env, await file.text(), {}, true);
    if (!results.some((result) => result.outcome === "received" && result.applied)) return;
  }
}

async function applyGroups(env: EdiBindings, partnerId: number, groups: Extract<Receipt, { outcome: "received" }>["groups"]) {
  const partner = await readPartner(env.DB, partnerId);
  if (!partner) return { sets: [], applied: false };
  const sets: AppliedSet[] = [];
  const documents = groups.filter((group) => group.functionalId !== "FA");
  for (const group of groups.filter((group) => group.functionalId === "FA")) await recordAcknowledgments(env.DB, partnerId, group);
  if (partner.usage === "test") {
    for (const group of documents) sets.push(...checkInboundGroup(partner, group, EDI_OFFER_DEFAULTS));
    return { sets, applied: true };
  }
  if (documents.length > 0) {
    const issued = await env.PARTNER_TOKENS.partnerToken(partnerId);
    if (!issued) {
      logEvent("warn", { event: "edi.partner.no_client", partnerId });
      return { sets, applied: false };
    }
    const api = vendorApi(env, issued.token);
    for (const group of documents) sets.push(...(await applyInboundGroup(api, partner, group, EDI_OFFER_DEFAULTS)));
  }
  return { sets, applied: sets.every((set) => set.outcome !== "retry") };
}

/**
 * The housekeeping's part: files with an interchange received over 5 minutes ago and not applied yet, taken in again;
 * then files kept over 5 minutes with nothing of them left to apply, deleted: a crash after a file was put and before
 * it was dropped leaves it there when nothing takes it in again (a duplicate of an applied interchange posted once, or
 * a file never recorded, whose partner, never answered, sends it again).
 */
export async function retryUnapplied(env: unknown, now = new Date()): Promise<number> {
  const edi = ediOf(env);
  const before = new Date(now.getTime() - 5 * 60_000);
  const keys = await unappliedFiles(edi.DB, before);
  let retried = 0;
  for (const key of keys) {
    const file = await edi.IMPORTS.get(key);
    if (!file) continue;
    await takeInbound(env, await file.text());
    retried++;
  }
  await dropLeftFiles(edi, before);
  return retried;
}

/** Deletes the kept files put before `before` that no interchange waits for (fileApplied). */
async function dropLeftFiles(edi: EdiBindings, before: Date): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await edi.IMPORTS.list({ prefix: FILES, limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const object of page.objects) {
      if (object.uploaded < before && (await fileApplied(edi.DB, object.key))) await edi.IMPORTS.delete(object.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}
