import { readCertificate } from "../as2/cms";
import { As2Error } from "../as2/errors";
import { ourAs2Identity } from "../as2/identity";
import { readMdn } from "../as2/mdn";
import { type Mic, sealMessage } from "../as2/message";
import { buildEntity, decodedBody, parseEntity } from "../as2/mime";
import type { EdiBindings } from "../bindings";
import type { Partner } from "../partners/schemas";

/**
 * Sends one of our interchanges to an AS2 partner (docs/as2.md, "Sending"): signed with our key (SHA-256), encrypted for
 * the partner's certificate (AES-256), a signed MDN asked for in the response. The Message-ID names the partner and the
 * interchange, so a retry is the same message (partners drop a Message-ID they have already taken) and its MDN names
 * what it receipts. Delivered only when the MDN reports `processed` with the MIC we sent.
 */

export type As2Sent = { delivered: true } | { delivered: false; detail: string };

type As2Transport = Extract<Partner["transport"], { kind: "as2" }>;

export const as2MessageId = (partnerId: number, controlNumber: string) => `<medparts-${partnerId}-${controlNumber}@medparts.as2>`;

const TIMEOUT_MS = 60_000;

export async function sendAs2(
  env: Pick<EdiBindings, "AS2_PRIVATE_KEY" | "AS2_CERTIFICATE">,
  partner: Partner,
  document: { controlNumber: string; text: string },
): Promise<As2Sent> {
  if (partner.transport.kind !== "as2") return { delivered: false, detail: "the partner has no AS2 transport" };
  const transport: As2Transport = partner.transport;
  const identity = ourAs2Identity(env);
  const partnerCertificate = readCertificate(transport.partnerCertificate);
  const sealed = await sealMessage(
    { content: new TextEncoder().encode(document.text), mediaType: "application/edi-x12", filename: `${document.controlNumber}.x12` },
    { signer: identity, encryptFor: partnerCertificate },
  );
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
  // HTTP carries binary: the encrypted entity goes as its bytes, without a transfer encoding (RFC 4130 section 5.2).
  for (const [name, value] of entity.headers.fields) if (name.toLowerCase() !== "content-transfer-encoding") headers.set(name, value);
  let res: Response;
  try {
    res = await fetch(transport.url, { method: "POST", headers, body: decodedBody(entity), signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return { delivered: false, detail: `the partner's AS2 URL did not answer: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!res.ok) return { delivered: false, detail: `the partner's AS2 URL answered HTTP ${res.status}` };
  return readSyncMdn(res, messageId, sealed.mic, partnerCertificate);
}

async function readSyncMdn(res: Response, messageId: string, sentMic: Mic, partnerCertificate: ReturnType<typeof readCertificate>) {
  const contentType = res.headers.get("Content-Type");
  if (!contentType) return { delivered: false as const, detail: "the partner answered without an MDN" };
  const body = new Uint8Array(await res.arrayBuffer());
  try {
    const mdn = await readMdn(buildEntity([["Content-Type", contentType]], body), {
      originalMessageId: messageId,
      sentMic,
      partnerCertificate,
    });
    return mdn.processed ? { delivered: true as const } : { delivered: false as const, detail: `the partner's MDN: ${mdn.disposition}` };
  } catch (error) {
    if (error instanceof As2Error) return { delivered: false as const, detail: `the partner's MDN is not acceptable: ${error.message}` };
    throw error;
  }
}

/** An AS2 name in its header: quoted when it has spaces or quotes (RFC 4130 section 6.2). */
function quoted(name: string): string {
  return /^[!#-[\]-~]+$/.test(name) ? name : `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
