import type { Certificate } from "pkijs";
import {
  type ContentCipher,
  type DigestName,
  decryptWith,
  digest,
  digestNamed,
  encryptFor,
  type SigningDigest,
  type SigningIdentity,
  signDetached,
  verifyDetached,
} from "./cms";
import { As2Error, malformed, unsupportedAlgorithm } from "./errors";
import {
  AS2_LIMITS,
  buildEntity,
  buildMultipartBody,
  decodedBody,
  encodeBase64,
  encodeBase64Lines,
  type MimeEntity,
  type MimeLimits,
  newBoundary,
  parseEntity,
  quoteParameter,
  toCanonicalCrlf,
} from "./mime";

/**
 * AS2 messages (RFC 4130 section 5): a payload entity, signed (multipart/signed with a detached application/pkcs7-signature)
 * and then encrypted (application/pkcs7-mime; smime-type=enveloped-data), and the Received-Content-MIC that the MDN returns.
 */

/** A Received-Content-MIC (RFC 4130 section 7.3.1): a base64 digest and its algorithm. */
export interface Mic {
  readonly digest: string;
  readonly algorithm: DigestName;
}

export function formatMic(mic: Mic): string {
  return `${mic.digest}, ${mic.algorithm}`;
}

export function parseMic(field: string): Mic {
  const comma = field.lastIndexOf(",");
  if (comma <= 0) throw malformed(`not a Received-Content-MIC: ${JSON.stringify(field.slice(0, 120))}`);
  return { digest: field.slice(0, comma).trim(), algorithm: digestNamed(field.slice(comma + 1)) };
}

/** The MIC of an entity, headers included, over its canonical CRLF form. */
export async function micOf(contentEntity: Uint8Array, algorithm: DigestName): Promise<Mic> {
  return { digest: encodeBase64(await digest(algorithm, toCanonicalCrlf(contentEntity))), algorithm };
}

/**
 * The Received-Content-MIC of a message's content entity (RFC 4130 section 7.3.1): with its headers, canonical, when the
 * message was signed or encrypted (the signed entity, or the decrypted one); of its body alone when it was neither, as
 * transports may alter or reorder headers.
 */
async function receivedContentMic(content: MimeEntity, signedOrEncrypted: boolean, algorithm: DigestName): Promise<Mic> {
  if (signedOrEncrypted) return micOf(content.raw, algorithm);
  return { digest: encodeBase64(await digest(algorithm, content.body)), algorithm };
}

export interface Payload {
  /** The EDI document's bytes. */
  readonly content: Uint8Array;
  /** e.g. `application/edi-x12`. */
  readonly mediaType: string;
  readonly filename?: string;
}

export function payloadEntity(payload: Payload): Uint8Array {
  const disposition = payload.filename ? `attachment; filename=${quoteParameter(payload.filename)}` : "attachment";
  return buildEntity(
    [
      ["Content-Type", payload.mediaType],
      ["Content-Transfer-Encoding", "base64"],
      ["Content-Disposition", disposition],
    ],
    encodeBase64Lines(payload.content),
  );
}

/** multipart/signed (RFC 1847) around `contentEntity`, signed over its canonical form. */
export async function signEntity(
  contentEntity: Uint8Array,
  signer: SigningIdentity,
  digestName: SigningDigest = "sha-256",
): Promise<Uint8Array> {
  const canonical = toCanonicalCrlf(contentEntity);
  const signature = await signDetached(canonical, signer, digestName);
  const signaturePart = buildEntity(
    [
      ["Content-Type", 'application/pkcs7-signature; name="smime.p7s"'],
      ["Content-Transfer-Encoding", "base64"],
      ["Content-Disposition", 'attachment; filename="smime.p7s"'],
    ],
    encodeBase64Lines(signature),
  );
  const boundary = newBoundary();
  return buildEntity(
    [
      ["MIME-Version", "1.0"],
      [
        "Content-Type",
        `multipart/signed; protocol="application/pkcs7-signature"; micalg=${digestName}; boundary=${quoteParameter(boundary)}`,
      ],
    ],
    buildMultipartBody([canonical, signaturePart], boundary),
  );
}

/** application/pkcs7-mime enveloped-data holding `contentEntity`, encrypted for the partner. */
export async function encryptEntity(
  contentEntity: Uint8Array,
  partnerCertificate: Certificate,
  keyBits: ContentCipher = 256,
): Promise<Uint8Array> {
  const enveloped = await encryptFor(toCanonicalCrlf(contentEntity), partnerCertificate, keyBits);
  return buildEntity(
    [
      ["MIME-Version", "1.0"],
      ["Content-Type", 'application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"'],
      ["Content-Transfer-Encoding", "base64"],
      ["Content-Disposition", 'attachment; filename="smime.p7m"'],
    ],
    encodeBase64Lines(enveloped),
  );
}

export interface SignedContent {
  /** The signed entity (the first part). */
  readonly content: MimeEntity;
  /** Its canonical bytes: what the signature and the MIC cover. */
  readonly canonical: Uint8Array;
  readonly digest: DigestName;
}

/** The content of a multipart/signed entity, once its signature verifies with the partner's certificate. */
export async function verifySignedEntity(signed: MimeEntity, partnerCertificate: Certificate): Promise<SignedContent> {
  if (signed.mediaType !== "multipart/signed") throw malformed(`expected multipart/signed, got ${signed.mediaType}`);
  const [content, signaturePart, ...extra] = signed.parts;
  if (!content || !signaturePart || extra.length > 0) throw malformed("multipart/signed must have exactly two parts");
  const signatureType = signaturePart.mediaType;
  if (signatureType !== "application/pkcs7-signature" && signatureType !== "application/x-pkcs7-signature")
    throw malformed(`the second part of multipart/signed is ${signatureType}, not application/pkcs7-signature`);
  const canonical = toCanonicalCrlf(content.raw);
  const verified = await verifyDetached(canonical, decodedBody(signaturePart), partnerCertificate);
  return { content, canonical, digest: verified.digest };
}

/** Whether the entity is encrypted (enveloped-data); compressed data (RFC 5402) is refused, as we do not read it yet. */
function isEnvelopedData(entity: MimeEntity): boolean {
  if (entity.mediaType !== "application/pkcs7-mime" && entity.mediaType !== "application/x-pkcs7-mime") return false;
  const smimeType = entity.parameters.get("smime-type")?.toLowerCase() ?? "enveloped-data";
  if (smimeType === "compressed-data")
    throw unsupportedAlgorithm("decompression-failed", "compressed-data (RFC 5402)", "send it uncompressed");
  if (smimeType !== "enveloped-data")
    throw malformed(`application/pkcs7-mime with smime-type ${smimeType.slice(0, 40)} where a message was expected`);
  return true;
}

export interface SealOptions {
  readonly signer?: SigningIdentity;
  readonly signingDigest?: SigningDigest;
  /** The partner's encryption certificate; absent: not encrypted. */
  readonly encryptFor?: Certificate;
  readonly keyBits?: ContentCipher;
}

export interface SealedMessage {
  /** The whole entity: its top-level headers (Content-Type...) go out as HTTP headers, the rest as the body. */
  readonly entity: Uint8Array;
  /** The MIC the partner's MDN must return, and its algorithm. */
  readonly mic: Mic;
}

/** An outbound AS2 message: the payload signed, then encrypted, as the options say. */
export async function sealMessage(payload: Payload, options: SealOptions): Promise<SealedMessage> {
  const content = payloadEntity(payload);
  const micAlgorithm = options.signer ? (options.signingDigest ?? "sha-256") : "sha-256";
  const mic = await receivedContentMic(parseEntity(content), Boolean(options.signer || options.encryptFor), micAlgorithm);
  const signed = options.signer ? await signEntity(content, options.signer, options.signingDigest) : content;
  const entity = options.encryptFor ? await encryptEntity(signed, options.encryptFor, options.keyBits) : signed;
  return { entity, mic };
}

export interface OpenOptions {
  /** Our identity: the certificate the partner encrypted for, and its key. */
  readonly recipient: SigningIdentity;
  /** The partner's signing certificate. */
  readonly partnerCertificate: Certificate;
  readonly requireEncryption: boolean;
  readonly requireSignature: boolean;
  /** The MIC algorithm the partner asked for (Disposition-Notification-Options: signed-receipt-micalg), else the signer's. */
  readonly micAlgorithm?: DigestName;
  readonly limits?: MimeLimits;
}

export interface OpenedMessage {
  /** The payload entity (e.g. application/edi-x12) and its decoded content. */
  readonly payload: MimeEntity;
  readonly content: Uint8Array;
  readonly encrypted: boolean;
  readonly signed: boolean;
  /** The Received-Content-MIC for the MDN. */
  readonly mic: Mic;
}

/** An inbound AS2 message: decrypted, its signature verified, its payload and MIC. Throws As2Error saying what failed. */
export async function openMessage(entityBytes: Uint8Array, options: OpenOptions): Promise<OpenedMessage> {
  const limits = options.limits ?? AS2_LIMITS;
  let entity = parseEntity(entityBytes, limits);
  const encrypted = isEnvelopedData(entity);
  if (encrypted) entity = parseEntity(await decryptWith(decodedBody(entity), options.recipient), limits);
  else if (options.requireEncryption)
    throw new As2Error("insufficient-message-security", `the message is not encrypted (${entity.mediaType})`);
  const signed = entity.mediaType === "multipart/signed";
  if (!signed && options.requireSignature)
    throw new As2Error("insufficient-message-security", `the message is not signed (${entity.mediaType})`);
  if (isEnvelopedData(entity)) throw malformed("an encrypted message inside an encrypted message");
  const verified = signed ? await verifySignedEntity(entity, options.partnerCertificate) : undefined;
  const payload = verified ? verified.content : entity;
  if (payload.mediaType.startsWith("multipart/")) throw malformed(`payload of type ${payload.mediaType}: one document per message`);
  const mic = await receivedContentMic(payload, signed || encrypted, options.micAlgorithm ?? verified?.digest ?? "sha-256");
  return { payload, content: decodedBody(payload), encrypted, signed, mic };
}
