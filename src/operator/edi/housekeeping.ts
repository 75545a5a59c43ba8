import { type EdiBindings, ediOf } from "./bindings";
import { retryUnapplied } from "./intake";
import { markAlerted, overdueAcknowledgments } from "./outbound/acknowledgments";
import { sendAllWaiting } from "./transport/deliver";

/** The operator event of an interchange of ours (an 850) not acknowledged (997/999) within its partner's window. */
export const ACKNOWLEDGMENT_OVERDUE_EVENT = "edi.acknowledgment.overdue";

/**
 * Tells the operator of each interchange sent and not acknowledged within its partner's window: an operator event
 * (idempotent by partner and control number), then the interchange marked alerted, so each is told once.
 */
export async function alertOverdueAcknowledgments(
  env: Pick<EdiBindings, "DB"> & { CATALOG: D1Database },
  now = new Date(),
): Promise<number> {
  const overdue = await overdueAcknowledgments(env.DB, now);
  for (const late of overdue) {
    await env.CATALOG.prepare(
      "INSERT INTO operator_events (id, type, created_at, data) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING",
    )
      .bind(
        `evt_edi_ack_${late.partnerId}_${late.interchangeControl}`,
        ACKNOWLEDGMENT_OVERDUE_EVENT,
        now.toISOString(),
        JSON.stringify({ partnerId: late.partnerId, interchangeControl: late.interchangeControl, sentAt: late.sentAt, dueAt: late.dueAt }),
      )
      .run();
  }
  await markAlerted(env.DB, overdue, now);
  return overdue.length;
}

/**
 * The operator plane's housekeeping for X12 (src/operator/index.ts): files received and not applied (a crash, the
 * vendor API down) applied again, documents waiting for AS2 partners sent again, overdue acknowledgments told.
 * Each part runs even when another fails.
 */
export async function ediHousekeeping(env: unknown, now = new Date()): Promise<void> {
  const edi = ediOf(env);
  const catalog = (env as { CATALOG: D1Database }).CATALOG;
  const results = await Promise.allSettled([
    retryUnapplied(env, now),
    sendAllWaiting(edi),
    alertOverdueAcknowledgments({ DB: edi.DB, CATALOG: catalog }, now),
  ]);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
}
