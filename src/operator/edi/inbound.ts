import { reserveControlNumbers } from "./control-numbers";
import { partnerInterchange } from "./partner-interchange";
import { partnerOfSender } from "./partners/partners";
import type { Partner } from "./partners/schemas";
import { functionalAcknowledgment, IMPLEMENTATION_999, interchangeAcknowledgment, ta1Owed } from "./x12/acknowledgments";
import { TA1_NOTE } from "./x12/codes";
import type { FunctionalGroup, Interchange } from "./x12/document";
import { duplicateKey } from "./x12/envelope";
import { X12Refused } from "./x12/problems";
import { readX12 } from "./x12/reader";
import type { WriteSegment } from "./x12/writer";

/**
 * What Medparts does with a file a partner sends (docs/edi.md, "Receiving"), whatever carried it (AS2, the mailbox):
 * each interchange is named by its sender and usage (one partner each), answered once with a TA1 (when asked for, or
 * its envelope is broken) and a 997 or 999 per group (the partner's choice), in one interchange of ours numbered
 * from the partner's control numbers, and recorded by its duplicate key (sender, ISA13, ISA09): the same interchange
 * sent again gets the same answer, byte for byte, and is handed on again only until its groups are marked applied
 * (markApplied): a crash between receiving and applying loses nothing, and applying twice changes nothing.
 */

export type Receipt =
  | {
      outcome: "received";
      partnerId: number;
      interchangeControl: string;
      /** The interchange's duplicate key (sender, ISA13, ISA09): markApplied once its groups are applied. */
      duplicateKey: string;
      /** What we answer (TA1, 997/999), or null when nothing is owed. */
      acknowledgment: string | null;
      /** The groups to map (855, 856, 810, 832); empty when the envelope was rejected. */
      groups: FunctionalGroup[];
    }
  | { outcome: "duplicate"; partnerId: number; interchangeControl: string; acknowledgment: string | null }
  | { outcome: "refused"; reason: string };

/**
 * What a partner's interchange is answered with: the TA1 owed and one 997/999 per group, numbered for `reference`. A
 * group of acknowledgments (GS01 FA: the partner's 997s and 999s of our 850s) is not acknowledged: an acknowledgment of
 * an acknowledgment would be answered in turn, without end (X12's practice).
 */
async function acknowledgmentOf(db: D1Database, partner: Partner, interchange: Interchange, envelopeRejected: WriteSegment | null) {
  const ta1 = envelopeRejected ? [envelopeRejected] : ta1Owed(interchange) ? [interchangeAcknowledgment(interchange)] : [];
  const groups = envelopeRejected ? [] : interchange.groups.filter((group) => group.functionalId !== "FA");
  if (ta1.length === 0 && groups.length === 0) return null;
  const numbers = await reserveControlNumbers(db, partner.id, `ack:${duplicateKey(interchange)}`, groups.length);
  const kind = partner.acknowledgment;
  return partnerInterchange(partner, numbers, {
    ta1,
    ...(groups.length > 0
      ? {
          group: {
            functionalId: "FA",
            version: kind === "999" ? IMPLEMENTATION_999 : partner.version,
            // Each ST02 is the reservation's (partnerInterchange numbers the sets in order): 1 is a placeholder.
            sets: groups.map((group) => functionalAcknowledgment(group, { kind, controlNumber: 1 })),
          },
        }
      : {}),
  });
}

export interface ReceiveOptions {
  /** Only this vendor's partners may send it (the transport knows the vendor). */
  vendorId?: number;
  /** Only these partners may send it (the transport knows them: the mailbox's path, AS2's names). */
  partnerIds?: readonly number[];
  /** Where the file is kept until its interchanges are applied (intake.ts). */
  fileKey?: string;
}

/**
 * Receives one file. `vendorId`, when the transport knows it (the mailbox's vendor token), must own the sender's
 * partner: another vendor's sender is as unknown as nobody's.
 */
export async function receiveX12(db: D1Database, text: string, { vendorId, partnerIds, fileKey }: ReceiveOptions = {}): Promise<Receipt[]> {
  let document: ReturnType<typeof readX12>;
  try {
    document = readX12(text);
  } catch (error) {
    if (error instanceof X12Refused) return [{ outcome: "refused", reason: error.message }];
    throw error;
  }
  const receipts: Receipt[] = [];
  for (const interchange of document.interchanges) {
    const usage = interchange.usage === "T" ? "test" : interchange.usage === "P" ? "production" : null;
    const found = usage && (await partnerOfSender(db, usage, interchange.senderQualifier, interchange.senderId, vendorId));
    const partner = found && (!partnerIds || partnerIds.includes(found.id)) ? found : null;
    if (!partner) {
      receipts.push({
        outcome: "refused",
        reason: `No ${usage ?? "known usage"} partner sends as ${interchange.senderQualifier}/${interchange.senderId}.`,
      });
      continue;
    }
    const addressedToUs =
      interchange.receiverQualifier === partner.ourIdentity.qualifier && interchange.receiverId === partner.ourIdentity.id;
    const rejected: WriteSegment | null = addressedToUs
      ? null
      : { id: "TA1", elements: [interchange.controlNumber, interchange.date, interchange.time, "R", TA1_NOTE.receiverIdInvalid] };
    const key = duplicateKey(interchange);
    const interchangeControl = interchange.controlNumber;
    // Received before (the same sender, ISA13 and date): its first answer, never a second reservation. Handed on again
    // only while unapplied and only as the very file it came in (a sender reusing an ISA13 for other content gets the
    // duplicate's answer, and the first file is what the housekeeping applies).
    const earlier = await recorded(db, partner.id, key);
    if (earlier) {
      receipts.push(
        !earlier.applied && fileKey !== undefined && earlier.fileKey === fileKey
          ? {
              outcome: "received",
              partnerId: partner.id,
              interchangeControl,
              duplicateKey: key,
              acknowledgment: earlier.acknowledgment,
              groups: interchange.groups,
            }
          : { outcome: "duplicate", partnerId: partner.id, interchangeControl, acknowledgment: earlier.acknowledgment },
      );
      continue;
    }
    const acknowledgment = await acknowledgmentOf(db, partner, interchange, rejected);
    const at = new Date().toISOString();
    const inserted = await db
      .prepare(
        "INSERT INTO edi_received_interchanges (partner_id, duplicate_key, received_at, accepted, acknowledgment, applied_at, file_key) " +
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (partner_id, duplicate_key) DO NOTHING RETURNING 1 AS inserted",
      )
      .bind(partner.id, key, at, rejected ? 0 : 1, acknowledgment, rejected ? at : null, rejected ? null : (fileKey ?? null))
      .first<{ inserted: number }>();
    if (!inserted) {
      // Recorded meanwhile by a concurrent receipt of the same interchange: its answer, as a duplicate.
      const winner = await recorded(db, partner.id, key);
      receipts.push({ outcome: "duplicate", partnerId: partner.id, interchangeControl, acknowledgment: winner?.acknowledgment ?? null });
      continue;
    }
    receipts.push({
      outcome: "received",
      partnerId: partner.id,
      interchangeControl,
      duplicateKey: key,
      acknowledgment,
      groups: rejected ? [] : interchange.groups,
    });
  }
  return receipts;
}

async function recorded(db: D1Database, partnerId: number, key: string) {
  const row = await db
    .prepare(
      "SELECT acknowledgment, applied_at IS NOT NULL AS applied, file_key AS fileKey FROM edi_received_interchanges WHERE partner_id = ? AND duplicate_key = ?",
    )
    .bind(partnerId, key)
    .first<{ acknowledgment: string | null; applied: number; fileKey: string | null }>();
  return row ? { acknowledgment: row.acknowledgment, applied: Boolean(row.applied), fileKey: row.fileKey } : null;
}

/** Records that a received interchange's groups are applied: from now on it is a duplicate, and its file is not needed. */
export async function markApplied(db: D1Database, partnerId: number, duplicateKey: string): Promise<void> {
  await db
    .prepare("UPDATE edi_received_interchanges SET applied_at = ?3 WHERE partner_id = ?1 AND duplicate_key = ?2 AND applied_at IS NULL")
    .bind(partnerId, duplicateKey, new Date().toISOString())
    .run();
}

/** Files with an interchange received before `before` and not applied yet (a crash, the vendor API down), oldest first. */
export async function unappliedFiles(db: D1Database, before: Date, limit = 50): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT DISTINCT file_key AS fileKey FROM edi_received_interchanges WHERE applied_at IS NULL AND received_at < ?1 AND file_key IS NOT NULL ORDER BY received_at LIMIT ?2",
    )
    .bind(before.toISOString(), limit)
    .all<{ fileKey: string }>();
  return results.map((row) => row.fileKey);
}

/** Whether every interchange of a file is applied (its file may go). */
export async function fileApplied(db: D1Database, fileKey: string): Promise<boolean> {
  return !(await db
    .prepare("SELECT 1 FROM edi_received_interchanges WHERE file_key = ? AND applied_at IS NULL LIMIT 1")
    .bind(fileKey)
    .first());
}
