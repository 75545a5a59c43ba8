import type { Partner } from "../partners/schemas";
import type { FunctionalGroup, Segment, TransactionSet } from "../x12/document";
import { element } from "../x12/elements";

/**
 * The 997/999 a partner returns for the documents we send (docs/edi.md, "Acknowledgments of our 850s"; migration
 * 0040): an outbound interchange is marked sent with the moment its acknowledgment is due (the partner's window), an
 * inbound FA group's acknowledgments are matched to our interchanges by the group control number they name (AK102,
 * our GS06, per partner), and what was not acknowledged in time is listed once for the operator's alert.
 */

export const ACKNOWLEDGMENT_STATUSES = ["accepted", "accepted-with-errors", "rejected", "partially-accepted"] as const;
export type AcknowledgmentStatus = (typeof ACKNOWLEDGMENT_STATUSES)[number];

/** AK901 (and AK501/IK501): A accepted, E accepted with errors, P partially accepted, R rejected; M, W, X (999) rejected. */
const STATUS_OF_CODE: Record<string, AcknowledgmentStatus> = {
  A: "accepted",
  E: "accepted-with-errors",
  P: "partially-accepted",
  R: "rejected",
  M: "rejected",
  W: "rejected",
  X: "rejected",
};

/** Marks an interchange of ours sent (put where its partner's transport takes it), due a window later. Once. */
export async function markSent(db: D1Database, partner: Pick<Partner, "id" | "acknowledgmentWindowMinutes">, reference: string, at: Date) {
  const due = new Date(at.getTime() + partner.acknowledgmentWindowMinutes * 60_000);
  const marked = await db
    .prepare(
      "UPDATE edi_interchanges SET sent_at = ?3, due_at = ?4 WHERE partner_id = ?1 AND reference = ?2 AND sent_at IS NULL RETURNING 1 AS marked",
    )
    .bind(partner.id, reference, at.toISOString(), due.toISOString())
    .first<{ marked: number }>();
  return marked !== null;
}

/** Whether the interchange reserved for `reference` was sent already. */
export async function sentAt(db: D1Database, partnerId: number, reference: string): Promise<string | null> {
  return (
    (await db
      .prepare("SELECT sent_at AS sentAt FROM edi_interchanges WHERE partner_id = ? AND reference = ?")
      .bind(partnerId, reference)
      .first<{ sentAt: string | null }>()) ?? { sentAt: null }
  ).sentAt;
}

/** One acknowledged set of the group: its id, ST02 and AK5/IK5 status. */
export interface AcknowledgedSet {
  id: string;
  controlNumber: string;
  status: AcknowledgmentStatus | null;
}

interface ReadAcknowledgment {
  /** The 997/999's own ST02. */
  acknowledgment: string;
  kind: string;
  /** AK101 and AK102: the functional id and GS06 of the group acknowledged. */
  functionalId: string;
  groupControl: string;
  status: AcknowledgmentStatus;
  sets: AcknowledgedSet[];
}

export type AcknowledgmentMatch =
  | (ReadAcknowledgment & { outcome: "recorded"; reference: string; interchangeControl: number })
  | (ReadAcknowledgment & { outcome: "unknown-group"; message: string })
  | { outcome: "unreadable"; acknowledgment: string; kind: string; message: string };

function readAcknowledgment(set: TransactionSet): ReadAcknowledgment | string {
  const body = set.segments;
  const ak1 = body.find((segment) => segment.id === "AK1");
  const ak9 = body.find((segment) => segment.id === "AK9");
  if (!ak1 || !ak9) return `${set.id} ${set.controlNumber} has no ${ak1 ? "AK9" : "AK1"}.`;
  const status = STATUS_OF_CODE[element(ak9, 1)];
  if (!status) return `${set.id} ${set.controlNumber}: AK901 '${element(ak9, 1)}' is no acknowledgment code.`;
  const groupControl = element(ak1, 2);
  if (!/^[0-9]{1,9}$/.test(groupControl)) return `${set.id} ${set.controlNumber}: AK102 '${groupControl}' is no group control number.`;
  const sets: AcknowledgedSet[] = [];
  let current: AcknowledgedSet | undefined;
  for (const segment of body as Segment[]) {
    if (segment.id === "AK2") {
      current = { id: element(segment, 1), controlNumber: element(segment, 2), status: null };
      sets.push(current);
    } else if ((segment.id === "AK5" || segment.id === "IK5") && current) {
      current.status = STATUS_OF_CODE[element(segment, 1)] ?? null;
    }
  }
  return { acknowledgment: set.controlNumber, kind: set.id, functionalId: element(ak1, 1), groupControl, status, sets };
}

/**
 * Records an inbound FA group's acknowledgments (997 or 999) against the interchanges we sent the partner: each set's
 * AK102 names our group (GS06), its AK9 the group's status. An acknowledgment of a group we never sent the partner (or
 * one we never track: our own 997s) is named `unknown-group`, one without AK1/AK9 `unreadable`. A later
 * acknowledgment of the same group replaces the earlier one (a partner that rejected, then accepted the document).
 */
export async function recordAcknowledgments(
  db: D1Database,
  partnerId: number,
  group: FunctionalGroup,
  at: Date = new Date(),
): Promise<AcknowledgmentMatch[]> {
  const matches: AcknowledgmentMatch[] = [];
  for (const set of group.sets) {
    if (set.id !== "997" && set.id !== "999") {
      matches.push({
        outcome: "unreadable",
        acknowledgment: set.controlNumber,
        kind: set.id,
        message: `A ${set.id} is no functional acknowledgment.`,
      });
      continue;
    }
    const read = readAcknowledgment(set);
    if (typeof read === "string") {
      matches.push({ outcome: "unreadable", acknowledgment: set.controlNumber, kind: set.id, message: read });
      continue;
    }
    const row = await db
      .prepare(
        "UPDATE edi_interchanges SET acknowledgment_status = ?3, acknowledged_at = ?4 " +
          "WHERE partner_id = ?1 AND group_control = ?2 AND sent_at IS NOT NULL " +
          "RETURNING reference, interchange_control AS interchangeControl",
      )
      .bind(partnerId, Number(read.groupControl), read.status, at.toISOString())
      .first<{ reference: string; interchangeControl: number }>();
    matches.push(
      row
        ? { outcome: "recorded", ...read, ...row }
        : {
            outcome: "unknown-group",
            ...read,
            message: `${read.kind} ${read.acknowledgment} acknowledges group ${read.groupControl} (${read.functionalId}), which Medparts never sent partner ${partnerId}.`,
          },
    );
  }
  return matches;
}

export interface OverdueInterchange {
  partnerId: number;
  reference: string;
  interchangeControl: number;
  groupControl: number | null;
  sentAt: string;
  dueAt: string;
}

/** Interchanges sent, not acknowledged, due by `now` and not alerted yet: oldest due first, at most `limit`. */
export async function overdueAcknowledgments(db: D1Database, now: Date, limit = 100): Promise<OverdueInterchange[]> {
  const { results } = await db
    .prepare(
      "SELECT partner_id AS partnerId, reference, interchange_control AS interchangeControl, group_control AS groupControl, " +
        "sent_at AS sentAt, due_at AS dueAt FROM edi_interchanges " +
        "WHERE sent_at IS NOT NULL AND acknowledgment_status IS NULL AND alerted_at IS NULL AND due_at <= ?1 ORDER BY due_at LIMIT ?2",
    )
    .bind(now.toISOString(), limit)
    .all<OverdueInterchange>();
  return results;
}

/** Marks the interchanges alerted (their alert event raised), once: how many were not marked before. */
export async function markAlerted(
  db: D1Database,
  ids: readonly { partnerId: number; interchangeControl: number }[],
  at: Date = new Date(),
): Promise<number> {
  if (ids.length === 0) return 0;
  const results = await db.batch(
    ids.map(({ partnerId, interchangeControl }) =>
      db
        .prepare("UPDATE edi_interchanges SET alerted_at = ?3 WHERE partner_id = ?1 AND interchange_control = ?2 AND alerted_at IS NULL")
        .bind(partnerId, interchangeControl, at.toISOString()),
    ),
  );
  return results.reduce((sum, result) => sum + (result.meta.changes ?? 0), 0);
}
