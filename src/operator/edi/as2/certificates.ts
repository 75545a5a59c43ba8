import * as asn1js from "asn1js";
import { AttributeTypeAndValue, BasicConstraints, Certificate, Extension } from "pkijs";
import { readCertificate, type SigningIdentity } from "./cms";

/**
 * A self-signed RSA certificate and its key, as AS2 partners exchange them (AS2 certificates are usually self-signed and
 * trusted by exchange, not by a CA): Medparts' own AS2 identity, and the keys of tests.
 */

const COMMON_NAME = "2.5.4.3";
const ORGANIZATION = "2.5.4.10";
const BASIC_CONSTRAINTS = "2.5.29.19";

export async function createSelfSignedIdentity(commonName: string, validDays = 730): Promise<SigningIdentity> {
  const keys = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  const certificate = new Certificate();
  certificate.version = 2;
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = serial[0]! & 0x7f; // a positive INTEGER
  certificate.serialNumber = new asn1js.Integer({ valueHex: serial.buffer });
  const name = [
    new AttributeTypeAndValue({ type: ORGANIZATION, value: new asn1js.Utf8String({ value: "Medparts" }) }),
    new AttributeTypeAndValue({ type: COMMON_NAME, value: new asn1js.Utf8String({ value: commonName }) }),
  ];
  certificate.subject.typesAndValues = name;
  certificate.issuer.typesAndValues = name;
  const now = Date.now();
  certificate.notBefore.value = new Date(now - 60_000);
  certificate.notAfter.value = new Date(now + validDays * 86_400_000);
  const basicConstraints = new BasicConstraints({ cA: false });
  certificate.extensions = [
    new Extension({
      extnID: BASIC_CONSTRAINTS,
      critical: true,
      extnValue: basicConstraints.toSchema().toBER(false),
      parsedValue: basicConstraints,
    }),
  ];
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);
  await certificate.sign(keys.privateKey, "SHA-256");
  const privateKey = new Uint8Array((await crypto.subtle.exportKey("pkcs8", keys.privateKey)) as ArrayBuffer);
  return { certificate: Certificate.fromBER(certificate.toSchema().toBER(false)), privateKey };
}

function toPem(der: Uint8Array | ArrayBuffer, label: string): string {
  const bytes = der instanceof Uint8Array ? der : new Uint8Array(der);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

export function certificatePem(certificate: Certificate): string {
  return toPem(certificate.toSchema().toBER(false), "CERTIFICATE");
}

export function privateKeyPem(identity: SigningIdentity): string {
  return toPem(identity.privateKey, "PRIVATE KEY");
}

const RSA_ENCRYPTION = "1.2.840.113549.1.1.1";

/**
 * Why a partner's certificate (PEM) cannot serve its AS2 exchange, or null: it must be one X.509 certificate with an
 * RSA key (what we encrypt to, RSAES-OAEP, and verify, RSASSA) and valid now. Checked when the operator enters it, so
 * a partner learns of a certificate Medparts cannot use before its first message.
 */
export function partnerCertificateProblem(pem: string, now = Date.now()): string | null {
  let certificate: Certificate;
  try {
    certificate = readCertificate(pem);
  } catch {
    return "Not an X.509 certificate.";
  }
  if (certificate.subjectPublicKeyInfo.algorithm.algorithmId !== RSA_ENCRYPTION) {
    return "Its key is not RSA: AS2 with Medparts signs and encrypts with RSA keys.";
  }
  const [from, to] = [certificate.notBefore.value, certificate.notAfter.value];
  if (now < from.getTime() || now > to.getTime()) return `Not valid now: valid from ${from.toISOString()} to ${to.toISOString()}.`;
  return null;
}
