import type { Certificate } from "pkijs";
import { type DigestName, digestNamed, type SigningDigest, type SigningIdentity } from "./cms";
import { As2Error, type As2FailureKind, malformed } from "./errors";
import { formatMic, type Mic, parseMic, signEntity, verifySignedEntity } from "./message";
import {
  buildEntity,
  buildMultipartBody,
  decodedBody,
  latin1,
  type MimeEntity,
  MimeHeaders,
  newBoundary,
  parseEntity,
  parseHeaderFields,
  quoteParameter,
} from "./mime";

/**
 * Message Disposition Notifications (RFC 4130 section 7 over RFC 3798): the receipt we return for a partner's message, and
 * the one we read for ours. An MDN is a multipart/report whose message/disposition-notification part names the original
 * message, its Received-Content-MIC and the disposition: `processed`, or `processed/error: <what failed>`.
 */

/** The RFC 4130 section 7.4.3 disposition (type and modifier) for each reason we refuse a message. */
const REFUSED_DISPOSITION: Record<As2FailureKind, string> = {
  "decryption-failed": "processed/error: decryption-failed",
  "authentication-failed": "processed/error: authentication-failed",
  "integrity-check-failed": "processed/error: integrity-check-failed",
  "decompression-failed": "processed/error: decompression-failed",
  "insufficient-message-security": "processed/error: insufficient-message-security",
  malformed: "processed/error: unexpected-processing-error",
  "too-large": "processed/error: unexpected-processing-error",
  "unsupported-mic-algorithms": "failed/Failure: unsupported MIC-algorithms",
};

const DISPOSITION_MODE = "automatic-action/MDN-sent-automatically";

export interface MdnRequest {
  /** Whether the MDN is to be signed (`signed-receipt-protocol=..., pkcs7-signature`). */
  readonly signed: boolean;
  /** The MIC algorithm to return: the first of the partner's list we have, else the signer's (undefined). */
  readonly micAlgorithm?: DigestName;
}

function isSupportedDigest(name: string): boolean {
  try {
    digestNamed(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a partner's Disposition-Notification-Options header asks of the MDN (RFC 4130 section 7.3):
 * `signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1`. A `required`
 * MIC list with no algorithm we have is refused (`unsupported-mic-algorithms`: a `failed/Failure:` MDN); an `optional`
 * one falls back to the signer's algorithm.
 */
export function readMdnOptions(header: string | undefined): MdnRequest {
  let signed = false;
  let micAlgorithm: DigestName | undefined;
  for (const option of (header ?? "").slice(0, 1000).split(";")) {
    const equals = option.indexOf("=");
    if (equals === -1) continue;
    const name = option.slice(0, equals).trim().toLowerCase();
    const [importance, ...values] = option
      .slice(equals + 1)
      .split(",")
      .map((value) => value.trim().toLowerCase());
    if (name === "signed-receipt-protocol") {
      signed = values.includes("pkcs7-signature"); // another protocol (none exists in practice) gets an unsigned MDN
    } else if (name === "signed-receipt-micalg") {
      const supported = values.find(isSupportedDigest);
      if (supported) micAlgorithm = digestNamed(supported);
      else if (importance === "required")
        throw new As2Error(
          "unsupported-mic-algorithms",
          `none of the MIC algorithms ${values.join(", ").slice(0, 80)} is supported (sha-256, sha-384, sha-512, sha-1)`,
        );
    }
  }
  return micAlgorithm ? { signed, micAlgorithm } : { signed };
}

export type MdnOutcome =
  | { readonly processed: true }
  | { readonly processed: false; readonly failure: As2FailureKind; readonly explanation: string };

export interface MdnToSend {
  /** Our AS2 name (the original message's AS2-To). */
  readonly ourAs2Name: string;
  readonly originalMessageId: string;
  readonly outcome: MdnOutcome;
  /** The MIC of what we received; absent when we could not compute it (e.g. decryption failed). */
  readonly mic?: Mic;
  /** Present: the MDN is signed (multipart/signed), as the partner's Disposition-Notification-Options ask. */
  readonly signer?: SigningIdentity;
  readonly signingDigest?: SigningDigest;
}

function assertFieldSafe(value: string, what: string): string {
  if (/[\r\n]/.test(value) || value.length > 998) throw new Error(`${what} cannot go into an MDN field`);
  return value;
}

/** The MDN entity (its Content-Type goes out as the HTTP header, the rest as the body), signed when a signer is given. */
export async function buildMdn(mdn: MdnToSend): Promise<Uint8Array> {
  const ourName = assertFieldSafe(mdn.ourAs2Name, "the AS2 name");
  const messageId = assertFieldSafe(mdn.originalMessageId, "the Original-Message-ID");
  const disposition = mdn.outcome.processed ? "processed" : REFUSED_DISPOSITION[mdn.outcome.failure];
  const fields: [string, string][] = [
    ["Reporting-UA", "Medparts AS2"],
    ["Original-Recipient", `rfc822; ${ourName}`],
    ["Final-Recipient", `rfc822; ${ourName}`],
    ["Original-Message-ID", messageId],
  ];
  if (mdn.mic) fields.push(["Received-Content-MIC", formatMic(mdn.mic)]);
  fields.push(["Disposition", `${DISPOSITION_MODE}; ${disposition}`]);
  const explanation = mdn.outcome.processed
    ? `The AS2 message ${messageId} was received and its content passed the checks. This is no guarantee that its documents were applied.`
    : `The AS2 message ${messageId} was refused: ${assertFieldSafe(mdn.outcome.explanation, "the explanation")}`;
  const boundary = newBoundary();
  const report = buildEntity(
    [["Content-Type", `multipart/report; report-type=disposition-notification; boundary=${quoteParameter(boundary)}`]],
    buildMultipartBody(
      [
        buildEntity(
          [
            ["Content-Type", "text/plain; charset=us-ascii"],
            ["Content-Transfer-Encoding", "7bit"],
          ],
          `${explanation}\r\n`,
        ),
        buildEntity(
          [
            ["Content-Type", "message/disposition-notification"],
            ["Content-Transfer-Encoding", "7bit"],
          ],
          `${fields.map(([name, value]) => `${name}: ${value}`).join("\r\n")}\r\n`,
        ),
      ],
      boundary,
    ),
  );
  return mdn.signer ? signEntity(report, mdn.signer, mdn.signingDigest) : report;
}

export interface ReceivedMdn {
  readonly originalMessageId: string;
  /** The whole Disposition field, e.g. `automatic-action/MDN-sent-automatically; processed/error: decryption-failed`. */
  readonly disposition: string;
  /** True only for `processed` with no error or failure modifier (a warning still counts as processed). */
  readonly processed: boolean;
  /** The modifier after `error:`/`failure:`/`warning:`, e.g. `decryption-failed`. */
  readonly modifier?: string;
  readonly mic?: Mic;
  readonly signed: boolean;
}

export interface MdnExpectations {
  /** The Message-ID of the message we sent. */
  readonly originalMessageId: string;
  /** The MIC of the message we sent (sealMessage's `mic`). */
  readonly sentMic: Mic;
  /** The partner's signing certificate; absent: the MDN may be unsigned. */
  readonly partnerCertificate?: Certificate;
}

function readDisposition(field: string): { processed: boolean; modifier?: string } {
  const semicolon = field.indexOf(";");
  if (semicolon === -1) throw malformed(`not an MDN Disposition: ${JSON.stringify(field.slice(0, 120))}`);
  const typeAndModifier = field.slice(semicolon + 1);
  const slash = typeAndModifier.indexOf("/");
  const dispositionType = (slash === -1 ? typeAndModifier : typeAndModifier.slice(0, slash)).trim().toLowerCase();
  if (slash === -1) return { processed: dispositionType === "processed" };
  const modifierPart = typeAndModifier.slice(slash + 1);
  const colon = modifierPart.indexOf(":");
  const severity = (colon === -1 ? modifierPart : modifierPart.slice(0, colon)).trim().toLowerCase();
  const modifier = colon === -1 ? undefined : modifierPart.slice(colon + 1).trim();
  return { processed: dispositionType === "processed" && severity === "warning", ...(modifier === undefined ? {} : { modifier }) };
}

function notificationFields(report: MimeEntity): MimeHeaders {
  if (report.mediaType !== "multipart/report") throw malformed(`the MDN is ${report.mediaType}, not multipart/report`);
  const notification = report.parts.find((part) => part.mediaType === "message/disposition-notification");
  if (!notification) throw malformed("the MDN has no message/disposition-notification part");
  return new MimeHeaders(parseHeaderFields(latin1.decode(decodedBody(notification))));
}

/**
 * Whether an entity posted to us is an MDN (multipart/report, signed or not) rather than a message, and if so the
 * Original-Message-ID it names, read before its signature is checked (only to find what it receipts: readMdn then
 * checks it whole). Null: not an MDN.
 */
export function peekMdn(entityBytes: Uint8Array): { originalMessageId: string } | null {
  const entity = parseEntity(entityBytes);
  const report = entity.mediaType === "multipart/signed" ? entity.parts[0] : entity;
  if (report?.mediaType !== "multipart/report") return null;
  return { originalMessageId: notificationFields(report).get("original-message-id") ?? "" };
}

/**
 * A partner's MDN for a message we sent: its signature verified with the partner's certificate (when given), its
 * Original-Message-ID ours, and, when it reports `processed`, its Received-Content-MIC equal to the one we computed.
 */
export async function readMdn(entityBytes: Uint8Array, expected: MdnExpectations): Promise<ReceivedMdn> {
  const entity = parseEntity(entityBytes);
  let report: MimeEntity = entity;
  const signed = entity.mediaType === "multipart/signed";
  if (signed) {
    if (!expected.partnerCertificate) throw malformed("a signed MDN but no partner certificate to verify it");
    report = (await verifySignedEntity(entity, expected.partnerCertificate)).content;
  } else if (expected.partnerCertificate) {
    throw new As2Error("insufficient-message-security", `the MDN is not signed (${entity.mediaType}) but a signed MDN was asked for`);
  }
  const fields = notificationFields(report);
  const originalMessageId = fields.get("original-message-id");
  const disposition = fields.get("disposition");
  if (!originalMessageId || !disposition) throw malformed("the MDN lacks its Original-Message-ID or Disposition");
  if (originalMessageId !== expected.originalMessageId)
    throw malformed(`the MDN is for message ${originalMessageId.slice(0, 200)}, not ${expected.originalMessageId}`);
  const { processed, modifier } = readDisposition(disposition);
  const micField = fields.get("received-content-mic");
  const mic = micField ? parseMic(micField) : undefined;
  if (processed) {
    if (!mic) throw new As2Error("integrity-check-failed", "the MDN reports processed without a Received-Content-MIC");
    if (mic.algorithm !== expected.sentMic.algorithm || mic.digest !== expected.sentMic.digest)
      throw new As2Error(
        "integrity-check-failed",
        `the partner received content with MIC ${formatMic(mic)}, we sent ${formatMic(expected.sentMic)}`,
      );
  }
  return { originalMessageId, disposition, processed, ...(modifier === undefined ? {} : { modifier }), ...(mic ? { mic } : {}), signed };
}
