import type { Bindings } from "../../../env";
import { errorMessage } from "../../../platform/errors";
import { logEvent } from "../../../platform/logging";
import type { LineChangesMessage } from "./messages";
import { vendorProjection } from "./stub";

/**
 * The medparts-vendor-lines queue's consumer: each message's lines applied to their vendor's projection, in the shard of
 * the message's tenant (stub.ts). A failure is retried by the queue; a message dropped after its retries is found by the
 * reconciliation sweep (reconcile.ts).
 */
export async function consumeLineChanges(
  batch: MessageBatch<LineChangesMessage>,
  env: Pick<Bindings, "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS">,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const { tenantId, vendorId, changes } = message.body;
      try {
        await vendorProjection(env, vendorId, tenantId).apply(tenantId, changes);
        message.ack();
      } catch (error) {
        logEvent("warn", {
          event: "vendor.projection.apply",
          tenantId,
          vendorId,
          message: errorMessage(error),
        });
        message.retry();
      }
    }),
  );
}
