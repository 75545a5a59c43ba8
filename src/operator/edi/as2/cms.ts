import * as asn1js from "asn1js";
import {
  Attribute,
  Certificate,
  ContentInfo,
  EncapsulatedContentInfo,
  EnvelopedData,
  IssuerAndSerialNumber,
  KeyTransRecipientInfo,
  SignedAndUnsignedAttributes,
  SignedData,
  SignerInfo,
} from "pkijs";
import { As2Error, malformed, unsupportedAlgorithm } from "./errors";

/**
 * CMS (RFC 5652) as AS2 uses it, with pkijs over the runtime's WebCrypto: detached SignedData (application/pkcs7-signature)
 * and EnvelopedData with RSAES-OAEP key transport and AES-CBC content encryption (application/pkcs7-mime). What WebCrypto
 * cannot do (RSAES-PKCS1-v1_5 key transport, 3DES, RC2) is refused by name, before any key is touched (docs/as2.md).
 * pkijs uses its default engine, which it sets up on import over `globalThis.crypto` (the Worker's WebCrypto).
 */

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  envelopedData: "1.2.840.113549.1.7.3",
  contentTypeAttribute: "1.2.840.113549.1.9.3",
  messageDigestAttribute: "1.2.840.113549.1.9.4",
  signingTimeAttribute: "1.2.840.113549.1.9.5",
  rsaEncryption: "1.2.840.113549.1.1.1",
  rsaesOaep: "1.2.840.113549.1.1.7",
} as const;

/** The digests a MIC or signature may use: SHA-1 only to read legacy partners, never to sign (SigningDigest has no "sha-1"). */
export const DIGESTS = {
  "sha-1": { oid: "1.3.14.3.2.26", webCrypto: "SHA-1" },
  "sha-256": { oid: "2.16.840.1.101.3.4.2.1", webCrypto: "SHA-256" },
  "sha-384": { oid: "2.16.840.1.101.3.4.2.2", webCrypto: "SHA-384" },
  "sha-512": { oid: "2.16.840.1.101.3.4.2.3", webCrypto: "SHA-512" },
} as const;
export type DigestName = keyof typeof DIGESTS;
export type SigningDigest = Exclude<DigestName, "sha-1">;

const DIGEST_ADVICE = "use sha-256, sha-384, sha-512 or sha-1";

/** A micalg or MIC algorithm as partners write it (`sha256`, `SHA-256`, `sha1`), by its RFC 5751 name. */
export function digestNamed(name: string): DigestName {
  const normalized = name.trim().toLowerCase();
  const canonical = normalized.startsWith("sha-") ? normalized : normalized.replace(/^sha/, "sha-");
  if (canonical in DIGESTS) return canonical as DigestName;
  throw unsupportedAlgorithm("malformed", `digest ${JSON.stringify(name.trim().slice(0, 40))}`, DIGEST_ADVICE);
}

function signatureDigestWithOid(oid: string): DigestName {
  const found = (Object.keys(DIGESTS) as DigestName[]).find((name) => DIGESTS[name].oid === oid);
  if (!found) throw unsupportedAlgorithm("authentication-failed", `signature digest ${oid}`, DIGEST_ADVICE);
  return found;
}

export async function digest(name: DigestName, content: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(DIGESTS[name].webCrypto, content));
}

/** AES-128-CBC, AES-192-CBC and AES-256-CBC: the content ciphers we decrypt. */
const CONTENT_CIPHER_OIDS: ReadonlySet<string> = new Set(["2.16.840.1.101.3.4.1.2", "2.16.840.1.101.3.4.1.22", "2.16.840.1.101.3.4.1.42"]);
export type ContentCipher = 128 | 256;

const CIPHER_ADVICE = "use AES-128-CBC or AES-256-CBC";
/** Algorithms partners still send that WebCrypto lacks, named so that the refusal tells the partner what to change. */
const REFUSED_ALGORITHMS: Record<string, readonly [name: string, advice: string]> = {
  [OID.rsaEncryption]: ["RSAES-PKCS1-v1_5 key transport", "use RSAES-OAEP"],
  "1.2.840.113549.3.7": ["3DES (des-ede3-cbc)", CIPHER_ADVICE],
  "1.2.840.113549.3.2": ["RC2-CBC", CIPHER_ADVICE],
};

function unsupportedEncryption(oid: string, what: string): As2Error {
  const [name, advice] = REFUSED_ALGORITHMS[oid] ?? [`${what} ${oid}`, `use RSAES-OAEP with AES-128-CBC or AES-256-CBC`];
  return unsupportedAlgorithm("decryption-failed", name, advice);
}

function assertRsa(certificate: Certificate, use: string): void {
  if (certificate.subjectPublicKeyInfo.algorithm.algorithmId !== OID.rsaEncryption)
    throw unsupportedAlgorithm("malformed", `a non-RSA ${use} certificate`, "AS2 here uses RSA certificates");
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;

/** The CMS content of `der` as `Structure`, or a `malformed` refusal when the bytes are not that structure. */
function readCms<Structure>(
  der: Uint8Array,
  contentType: string,
  what: string,
  read: (content: ContentInfo["content"]) => Structure,
): Structure {
  let info: ContentInfo;
  try {
    info = ContentInfo.fromBER(toArrayBuffer(der));
  } catch {
    throw malformed(`${what} is not a DER or BER encoded CMS ContentInfo`);
  }
  if (info.contentType !== contentType) throw malformed(`${what} holds CMS content type ${info.contentType}, not ${contentType}`);
  try {
    return read(info.content);
  } catch {
    throw malformed(`${what} is not a well-formed CMS structure`);
  }
}

function pemBody(pem: string, label: string): Uint8Array {
  const begin = `-----BEGIN ${label}-----`;
  const start = pem.indexOf(begin);
  const end = pem.indexOf(`-----END ${label}-----`);
  if (start === -1 || end < start) throw malformed(`not a PEM ${label}`);
  const base64 = pem.slice(start + begin.length, end).replace(/\s+/g, "");
  try {
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    throw malformed(`not a PEM ${label}`);
  }
}

/** An X.509 certificate from PEM or DER. */
export function readCertificate(pemOrDer: string | Uint8Array): Certificate {
  const der = typeof pemOrDer === "string" ? pemBody(pemOrDer, "CERTIFICATE") : pemOrDer;
  try {
    return Certificate.fromBER(toArrayBuffer(der));
  } catch {
    throw malformed("not an X.509 certificate");
  }
}

/** An unencrypted PKCS#8 private key from PEM (`BEGIN PRIVATE KEY`), as DER: imported per use, for signing or decryption. */
export function readPrivateKey(pem: string): Uint8Array {
  return pemBody(pem, "PRIVATE KEY");
}

/** The certificate's validity, when the current time falls outside it: a partner's expired certificate is no longer theirs. */
function outsideValidity(certificate: Certificate): string | undefined {
  const [from, to] = [certificate.notBefore.value, certificate.notAfter.value];
  const now = Date.now();
  return now < from.getTime() || now > to.getTime() ? `valid from ${from.toISOString()} to ${to.toISOString()}` : undefined;
}

export interface SigningIdentity {
  readonly certificate: Certificate;
  /** PKCS#8 DER of the certificate's RSA private key. */
  readonly privateKey: Uint8Array;
}

/** A detached CMS SignedData over `content` (DER), with the signed attributes RFC 5751 expects. */
export async function signDetached(
  content: Uint8Array,
  signer: SigningIdentity,
  digestName: SigningDigest = "sha-256",
): Promise<Uint8Array> {
  assertRsa(signer.certificate, "signing");
  const webCryptoHash = DIGESTS[digestName].webCrypto;
  const privateKey = await crypto.subtle.importKey("pkcs8", signer.privateKey, { name: "RSASSA-PKCS1-v1_5", hash: webCryptoHash }, false, [
    "sign",
  ]);
  const attribute = (type: string, value: asn1js.AsnType) => new Attribute({ type, values: [value] });
  const signedData = new SignedData({
    version: 1,
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new SignerInfo({
        version: 1,
        sid: new IssuerAndSerialNumber({ issuer: signer.certificate.issuer, serialNumber: signer.certificate.serialNumber }),
        signedAttrs: new SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            attribute(OID.contentTypeAttribute, new asn1js.ObjectIdentifier({ value: OID.data })),
            attribute(OID.signingTimeAttribute, new asn1js.UTCTime({ valueDate: new Date() })),
            attribute(OID.messageDigestAttribute, new asn1js.OctetString({ valueHex: toArrayBuffer(await digest(digestName, content)) })),
          ],
        }),
      }),
    ],
    certificates: [signer.certificate],
  });
  await signedData.sign(privateKey, 0, webCryptoHash, toArrayBuffer(content));
  const contentInfo = new ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}

export interface VerifiedSignature {
  /** The digest the signer used, which is also the MIC algorithm an MDN for this message uses (RFC 4130 section 7.3.1). */
  readonly digest: DigestName;
}

/**
 * Checks a detached signature over `content` by the partner's certificate, and only that certificate: the certificates the
 * message carries are ignored, so a valid signature by anyone else is refused.
 */
export async function verifyDetached(
  content: Uint8Array,
  signatureDer: Uint8Array,
  partnerCertificate: Certificate,
): Promise<VerifiedSignature> {
  const validity = outsideValidity(partnerCertificate);
  if (validity) throw new As2Error("authentication-failed", `the partner's signing certificate is not valid now (${validity})`);
  const signedData = readCms(signatureDer, OID.signedData, "the signature", (schema) => new SignedData({ schema }));
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo || signedData.signerInfos.length !== 1) throw malformed("the signature does not have exactly one signer");
  if (signedData.encapContentInfo.eContent) throw malformed("the signature is not detached (it carries its own content)");
  const digestName = signatureDigestWithOid(signerInfo.digestAlgorithm.algorithmId);
  if (signerInfo.signedAttrs) {
    const messageDigest = signerInfo.signedAttrs.attributes.find((attribute) => attribute.type === OID.messageDigestAttribute);
    const signedDigest = messageDigest?.values[0];
    if (!(signedDigest instanceof asn1js.OctetString)) throw malformed("the signature's signed attributes have no message digest");
    if (!equalBytes(signedDigest.valueBlock.valueHexView, await digest(digestName, content)))
      throw new As2Error("integrity-check-failed", "the content does not match the digest its signature covers");
  }
  signedData.certificates = [partnerCertificate];
  let verified = false;
  try {
    verified = await signedData.verify({ signer: 0, data: toArrayBuffer(content), checkChain: false, extendedMode: false });
  } catch (error) {
    throw new As2Error(
      "authentication-failed",
      `the signature is not the partner's: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!verified) throw new As2Error("authentication-failed", "the signature does not verify with the partner's certificate");
  return { digest: digestName };
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** CMS EnvelopedData (DER) of `content` for the partner's RSA certificate: RSAES-OAEP with SHA-256, AES-CBC. */
export async function encryptFor(content: Uint8Array, partnerCertificate: Certificate, keyBits: ContentCipher = 256): Promise<Uint8Array> {
  assertRsa(partnerCertificate, "encryption");
  const validity = outsideValidity(partnerCertificate);
  if (validity) throw new Error(`the partner's encryption certificate is not valid now (${validity}): ask the partner for its new one`);
  const enveloped = new EnvelopedData();
  enveloped.addRecipientByCertificate(partnerCertificate, { oaepHashAlgorithm: "SHA-256" }, 1);
  await enveloped.encrypt({ name: "AES-CBC", length: keyBits } as Parameters<EnvelopedData["encrypt"]>[0], toArrayBuffer(content));
  const contentInfo = new ContentInfo({ contentType: OID.envelopedData, content: enveloped.toSchema() });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}

/** The content of a CMS EnvelopedData addressed to our certificate, decrypted with its private key. */
export async function decryptWith(envelopedDer: Uint8Array, recipient: SigningIdentity): Promise<Uint8Array> {
  const enveloped = readCms(envelopedDer, OID.envelopedData, "the encrypted message", (schema) => new EnvelopedData({ schema }));
  const ourIndex = enveloped.recipientInfos.findIndex(
    ({ value }) =>
      value instanceof KeyTransRecipientInfo &&
      value.rid instanceof IssuerAndSerialNumber &&
      value.rid.issuer.isEqual(recipient.certificate.issuer) &&
      value.rid.serialNumber.isEqual(recipient.certificate.serialNumber),
  );
  if (ourIndex === -1) throw new As2Error("decryption-failed", "the message is not encrypted for our certificate");
  const keyTransport = (enveloped.recipientInfos[ourIndex]!.value as KeyTransRecipientInfo).keyEncryptionAlgorithm.algorithmId;
  if (keyTransport !== OID.rsaesOaep) throw unsupportedEncryption(keyTransport, "key transport");
  const cipher = enveloped.encryptedContentInfo.contentEncryptionAlgorithm.algorithmId;
  if (!CONTENT_CIPHER_OIDS.has(cipher)) throw unsupportedEncryption(cipher, "content encryption");
  try {
    const content = await enveloped.decrypt(ourIndex, {
      recipientCertificate: recipient.certificate,
      recipientPrivateKey: recipient.privateKey,
    });
    return new Uint8Array(content);
  } catch {
    // One message for every cause (wrong key, bad padding), so that the answer is no padding oracle.
    throw new As2Error("decryption-failed", "the message does not decrypt with our private key");
  }
}
