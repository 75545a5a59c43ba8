import { appConfig, type Bindings, type ConfigVars } from "../../../env";
import { errorMessage } from "../../../platform/errors";
import { logEvent } from "../../../platform/logging";
import { EDI_HANDOFF_PATH } from "../../../platform/planes";
import { Remembered } from "../../../platform/remembered";
import type { LineChangesMessage } from "./messages";
import { vendorProjection } from "./stub";

/**
 * The vendors known to trade over X12 (an EDI partner), remembered EDI_PARTNER_CACHE_SECONDS per isolate. Only a yes is
 * remembered: a vendor without a partner is asked again each message (one D1 read), so a partner's first order gets its
 * 850 however soon after the partner was made.
 */
const tradesOverEdi = new Remembered<boolean>();

async function hasEdiPartner(env: Pick<Bindings, "DB"> & ConfigVars, vendorId: number): Promise<boolean> {
  return tradesOverEdi.get(
    String(vendorId),
    appConfig(env).EDI_PARTNER_CACHE_SECONDS,
    async () => Boolean(await env.DB.prepare("SELECT 1 FROM edi_partners WHERE vendor_id = ? LIMIT 1").bind(vendorId).first()),
    (trades) => trades,
  );
}

/**
 * A message of a vendor with an X12 partner, handed to the operator plane, which sends the partner its 850s
 * (docs/edi.md, "Sending the 850"). Idempotent there: a message handed on twice sends each 850 once.
 */
export async function handToEdi(env: Pick<Bindings, "DB" | "ADMIN"> & ConfigVars, body: LineChangesMessage): Promise<void> {
  if (!(await hasEdiPartner(env, body.vendorId))) return;
  const res = await env.ADMIN.fetch(
    new Request(`https://admin.internal${EDI_HANDOFF_PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  if (!res.ok) throw new Error(`the EDI handoff answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/**
 * How long a message whose EDI handoff failed waits before its next attempt: 30 s doubling to an hour, so its
 * max_retries (wrangler.toml) span about five hours of an unavailable operator plane rather than seconds. A lost
 * handoff loses an 850, which the reconciliation sweep does not see (the projection has the lines).
 */
export const ediRetryDelaySeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

/**
 * The medparts-vendor-lines queue's consumer: each message's lines applied to their vendor's projection, in the shard of
 * the message's tenant (stub.ts), and, for a vendor with an X12 partner, handed to the operator plane for its 850s. A
 * failure of either is retried by the queue (both are idempotent): the projection's at once, the handoff's after
 * ediRetryDelaySeconds; a message dropped after its retries is found by the reconciliation sweep (reconcile.ts) when
 * its projection missed it.
 */
export async function consumeLineChanges(
  batch: MessageBatch<LineChangesMessage>,
  env: Pick<Bindings, "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS" | "DB" | "ADMIN"> & ConfigVars,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const { tenantId, vendorId, changes } = message.body;
      try {
        await vendorProjection(env, vendorId, tenantId).apply(tenantId, changes);
      } catch (error) {
        logEvent("warn", { event: "vendor.projection.apply", tenantId, vendorId, message: errorMessage(error) });
        return message.retry();
      }
      try {
        await handToEdi(env, message.body);
      } catch (error) {
        logEvent("warn", { event: "edi.handoff", tenantId, vendorId, attempts: message.attempts, message: errorMessage(error) });
        return message.retry({ delaySeconds: ediRetryDelaySeconds(message.attempts) });
      }
      message.ack();
    }),
  );
}
