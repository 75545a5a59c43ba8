import { readCertificate } from "../as2/cms";
import { As2Error } from "../as2/errors";
import { ourAs2Identity } from "../as2/identity";
import { readMdn } from "../as2/mdn";
import { type Mic, micOf, payloadEntity, sealMessage } from "../as2/message";
import { buildEntity, decodedBody, parseEntity } from "../as2/mime";
import type { EdiBindings } from "../bindings";
import type { Partner } from "../partners/schemas";

/**
 * Sends one of our interchanges to an AS2 partner (docs/as2.md, "Sending"): signed with our key (SHA-256), encrypted for
 * the partner's certificate (AES-256), a signed MDN asked for in the response, or, for a partner whose `mdn` is
 * `async`, posted later to our AS2 URL (Receipt-Delivery-Option). The Message-ID names the partner and the
 * interchange, so a retry is the same message (partners drop a Message-ID they have already taken) and its MDN names
 * what it receipts. Delivered only when an MDN reports `processed` with the MIC we sent.
 */

export type As2Sent =
  | { outcome: "delivered" }
  /** The partner's HTTP 2xx took it; its MDN comes to POST /as2 (../transport/as2-receipts.ts). */
  | { outcome: "awaiting-mdn" }
  | { outcome: "failed"; detail: string };

export interface OutboundDocument {
  /** ISA13, nine digits. */
  controlNumber: string;
  text: string;
}

const payloadOf = (document: OutboundDocument) => ({
  content: new TextEncoder().encode(document.text),
  mediaType: "application/edi-x12",
  filename: `${document.controlNumber}.x12`,
});

/** The MIC a partner's MDN of `document` must return: the same for every send of it (sealMessage's, signed SHA-256). */
export const sentMicOf = (document: OutboundDocument) => micOf(payloadEntity(payloadOf(document)), "sha-256");

/** Our Message-ID of a partner's interchange read back: null when it is not one of ours. */
export function ourMessage(messageId: string): { partnerId: number; controlNumber: string } | null {
  const match = /^<medparts-(\d{1,15})-(\d{9})@medparts\.as2>$/.exec(messageId.trim());
  return match ? { partnerId: Number(match[1]), controlNumber: match[2]! } : null;
}

type As2Transport = Extract<Partner["transport"], { kind: "as2" }>;

export const as2MessageId = (partnerId: number, controlNumber: string) => `<medparts-${partnerId}-${controlNumber}@medparts.as2>`;

const TIMEOUT_MS = 60_000;

/**
 * `receiptUrl`: our AS2 URL, for a partner whose MDNs are asynchronous (without it, a synchronous MDN is asked for).
 */
export async function sendAs2(
  env: Pick<EdiBindings, "AS2_PRIVATE_KEY" | "AS2_CERTIFICATE">,
  partner: Partner,
  document: OutboundDocument,
  receiptUrl?: string,
): Promise<As2Sent> {
  if (partner.transport.kind !== "as2") return { outcome: "failed", detail: "the partner has no AS2 transport" };
  const transport: As2Transport = partner.transport;
  const identity = ourAs2Identity(env);
  const partnerCertificate = readCertificate(transport.partnerCertificate);
  const sealed = await sealMessage(payloadOf(document), { signer: identity, encryptFor: partnerCertificate });
  const entity = parseEntity(sealed.entity);
  const messageId = as2MessageId(partner.id, document.controlNumber);
  const headers = new Headers({
    "AS2-Version": "1.2",
    "AS2-From": quoted(transport.as2From),
    "AS2-To": quoted(transport.as2To),
    "Message-ID": messageId,
    Subject: `X12 interchange ${document.controlNumber}`,
    "Disposition-Notification-To": "edi@medparts.invalid",
    "Disposition-Notification-Options": "signed-receipt-protocol=required, pkcs7-signature; signed-receipt-micalg=required, sha-256",
  });
  const asynchronous = transport.mdn === "async" && receiptUrl !== undefined;
  if (asynchronous) headers.set("Receipt-Delivery-Option", receiptUrl);
  // HTTP carries binary: the encrypted entity goes as its bytes, without a transfer encoding (RFC 4130 section 5.2).
  for (const [name, value] of entity.headers.fields) if (name.toLowerCase() !== "content-transfer-encoding") headers.set(name, value);
  let res: Response;
  try {
    res = await fetch(transport.url, { method: "POST", headers, body: decodedBody(entity), signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return { outcome: "failed", detail: `the partner's AS2 URL did not answer: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!res.ok) return { outcome: "failed", detail: `the partner's AS2 URL answered HTTP ${res.status}` };
  // A partner asked for an asynchronous MDN may still answer with one at once: it counts.
  if (asynchronous && !res.headers.get("Content-Type")?.toLowerCase().startsWith("multipart/")) {
    await res.body?.cancel();
    return { outcome: "awaiting-mdn" };
  }
  return readSyncMdn(res, messageId, sealed.mic, partnerCertificate);
}

async function readSyncMdn(
  res: Response,
  messageId: string,
  sentMic: Mic,
  partnerCertificate: ReturnType<typeof readCertificate>,
): Promise<As2Sent> {
  const contentType = res.headers.get("Content-Type");
  if (!contentType) return { outcome: "failed", detail: "the partner answered without an MDN" };
  const body = new Uint8Array(await res.arrayBuffer());
  try {
    const mdn = await readMdn(buildEntity([["Content-Type", contentType]], body), {
      originalMessageId: messageId,
      sentMic,
      partnerCertificate,
    });
    return mdn.processed ? { outcome: "delivered" } : { outcome: "failed", detail: `the partner's MDN: ${mdn.disposition}` };
  } catch (error) {
    if (error instanceof As2Error) return { outcome: "failed", detail: `the partner's MDN is not acceptable: ${error.message}` };
    throw error;
  }
}

/** An AS2 name in its header: quoted when it has spaces or quotes (RFC 4130 section 6.2). */
function quoted(name: string): string {
  return /^[!#-[\]-~]+$/.test(name) ? name : `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
