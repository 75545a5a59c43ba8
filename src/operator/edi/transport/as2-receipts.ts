import { logEvent } from "../../../platform/logging";
import { readCertificate } from "../as2/cms";
import { As2Error } from "../as2/errors";
import { readMdn } from "../as2/mdn";
import type { EdiBindings } from "../bindings";
import { readOutbound, takeOutbound } from "../outbound/outbox";
import type { Partner } from "../partners/schemas";
import { ourMessage, sentMicOf } from "./as2-send";
import { markAwaitingMdn } from "./deliver";

/**
 * A partner's asynchronous MDN for a message we sent (docs/as2.md, "Sending"), posted to POST /as2: it names our
 * Message-ID (`<medparts-{partnerId}-{ISA13}@medparts.as2>`), so the document it receipts is the partner's outbox
 * document of that control number. Checked whole (the partner's signature, the MIC we sent): `processed` takes the
 * document out of the outbox; any other disposition leaves it to be sent again at once. The same MDN again finds the
 * document taken and is answered the same.
 */

export type AsyncMdnAnswer = { status: 200 | 400; text: string };

export async function takeAsyncMdn(
  env: Pick<EdiBindings, "DB" | "IMPORTS">,
  partners: readonly Partner[],
  originalMessageId: string,
  entity: Uint8Array,
): Promise<AsyncMdnAnswer> {
  const ours = ourMessage(originalMessageId);
  const partner = ours && partners.find((known) => known.id === ours.partnerId);
  if (!ours || partner?.transport.kind !== "as2") {
    return { status: 400, text: `The MDN names no message Medparts sent this partner (${originalMessageId.slice(0, 200)}).` };
  }
  const controlNumber = Number(ours.controlNumber);
  const text = await readOutbound(env.IMPORTS, partner.id, controlNumber);
  if (text === null) return { status: 200, text: `Message ${originalMessageId} is receipted.` };
  try {
    const mdn = await readMdn(entity, {
      originalMessageId,
      sentMic: await sentMicOf({ controlNumber: ours.controlNumber, text }),
      partnerCertificate: readCertificate(partner.transport.partnerCertificate),
    });
    if (mdn.processed) {
      await takeOutbound(env.IMPORTS, partner.id, controlNumber);
      logEvent("info", { event: "edi.as2.async_mdn_received", partnerId: partner.id, controlNumber, disposition: "processed" });
      return { status: 200, text: `Message ${originalMessageId} is receipted.` };
    }
    // Refused: no longer awaited, so the next send (a new document, or the housekeeping) sends it again.
    await markAwaitingMdn(env.DB, partner.id, controlNumber, null);
    logEvent("warn", { event: "edi.as2.async_mdn_received", partnerId: partner.id, controlNumber, disposition: mdn.disposition });
    return { status: 200, text: `Message ${originalMessageId} was not processed (${mdn.disposition}); it will be sent again.` };
  } catch (error) {
    if (!(error instanceof As2Error)) throw error;
    return { status: 400, text: `The MDN is not acceptable: ${error.message}` };
  }
}
