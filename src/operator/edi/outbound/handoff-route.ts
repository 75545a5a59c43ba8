import { Hono } from "hono";
import type { AppEnv } from "../../../env";
import { logEvent } from "../../../platform/logging";
import { EDI_HANDOFF_PATH } from "../../../platform/planes";
import { ediOf } from "../bindings";
import { readPartner } from "../partners/partners";
import { sendWaiting } from "../transport/deliver";
import { sendOrderLines, type VendorLinesMessage } from "./handoff";

/**
 * Internal (reachable over the ADMIN binding only, src/platform/planes.ts): the vendor-lines consumer hands a message
 * of a vendor with an X12 partner here; its 850s go to the partner's outbox (handoff.ts), and an AS2 partner is sent
 * them at once. A failed AS2 send does not fail the handoff: the 850 waits in the outbox for the next attempt.
 */
export const handoffRoutes = new Hono<AppEnv>().post(EDI_HANDOFF_PATH, async (c) => {
  const edi = ediOf(c.env);
  const message = (await c.req.json()) as VendorLinesMessage;
  const { partnerId, documents } = await sendOrderLines(edi, message);
  if (partnerId !== null && documents.some((document) => document.outcome === "stored" || document.outcome === "exists")) {
    const partner = await readPartner(edi.DB, partnerId);
    if (partner?.transport.kind === "as2") {
      await sendWaiting(edi, partner).catch((error: unknown) =>
        logEvent("warn", { event: "edi.as2.send_failed", partnerId, detail: error instanceof Error ? error.message : String(error) }),
      );
    }
  }
  return c.json({ partnerId, documents });
});
