/**
 * X12 control numbers per trading partner (docs/edi.md, "Control numbers"; migration 0038): an outbound interchange's
 * ISA13, its group's GS06 and its sets' ST02s, reserved for the document it carries (`reference`, opaque: e.g. the
 * event it renders) in one batch with the counters it moves. A number is taken only with its interchange's row (no
 * gap), never twice (no reuse), and a reference reserved again (a retry after a crash, or a message delivered twice)
 * gets the numbers it got the first time, so what is sent again is what the first attempt would have sent.
 */

/** ISA13 and GS06 are at most nine digits; a partner that used them all is refused, not wrapped around. */
export const MAX_CONTROL_NUMBER = 999_999_999;

export interface ControlNumbers {
  interchange: number;
  /** Null for an interchange without a group (one that carries only a TA1). */
  group: number | null;
  /** The first set's ST02; the interchange's sets take `firstSet` to `firstSet + sets - 1`. Null without sets. */
  firstSet: number | null;
  sets: number;
  /**
   * When the reference was first reserved (ISO 8601): the date and time its interchange is written with, so that a
   * retry writes the same bytes.
   */
  reservedAt: string;
}

export class ControlNumbersExhausted extends Error {}

const UNRESERVED = "NOT EXISTS (SELECT 1 FROM edi_interchanges WHERE partner_id = ?1 AND reference = ?2)";

/** The numbers of the interchange that carries `reference` to the partner, with `sets` transaction sets (0: no group). */
export async function reserveControlNumbers(db: D1Database, partnerId: number, reference: string, sets: number): Promise<ControlNumbers> {
  if (!Number.isInteger(sets) || sets < 0) throw new RangeError(`An interchange carries a whole number of sets, not ${sets}.`);
  const results = await db
    .batch<ControlNumbers>([
      db
        .prepare(
          "INSERT INTO edi_control_numbers (partner_id, kind, last) " +
            "SELECT ?1, kind, step FROM (SELECT 'interchange' AS kind, 1 AS step UNION ALL SELECT 'group', min(?3, 1) UNION ALL SELECT 'set', ?3) " +
            `WHERE ${UNRESERVED} ON CONFLICT (partner_id, kind) DO UPDATE SET last = last + excluded.last`,
        )
        .bind(partnerId, reference, sets),
      db
        .prepare(
          "INSERT INTO edi_interchanges (partner_id, reference, interchange_control, group_control, first_set_control, sets, reserved_at) " +
            "SELECT ?1, ?2, i.last, iif(?3 > 0, g.last, NULL), iif(?3 > 0, s.last - ?3 + 1, NULL), ?3, ?4 FROM edi_control_numbers i, edi_control_numbers g, edi_control_numbers s " +
            "WHERE i.partner_id = ?1 AND i.kind = 'interchange' AND g.partner_id = ?1 AND g.kind = 'group' " +
            `AND s.partner_id = ?1 AND s.kind = 'set' AND ${UNRESERVED}`,
        )
        .bind(partnerId, reference, sets, new Date().toISOString()),
      db
        .prepare(
          'SELECT interchange_control AS interchange, group_control AS "group", first_set_control AS firstSet, sets, reserved_at AS reservedAt ' +
            "FROM edi_interchanges WHERE partner_id = ?1 AND reference = ?2",
        )
        .bind(partnerId, reference),
    ])
    .catch((error: unknown) => {
      // The interchange's CHECKs (migration 0038): a number past nine digits rolls the whole batch back.
      if (/CHECK constraint failed/i.test(String(error))) {
        throw new ControlNumbersExhausted(`Partner ${partnerId} has used every control number up to ${MAX_CONTROL_NUMBER}.`);
      }
      throw error;
    });
  const reserved = results[2]!.results[0];
  if (!reserved) throw new Error(`No interchange reserved for partner ${partnerId} and ${reference}.`);
  return reserved;
}
