/// <reference types="vite/client" />
import { ContentInfo, EnvelopedData, type KeyTransRecipientInfo } from "pkijs";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSelfSignedIdentity } from "../../src/operator/edi/as2/certificates";
import { decryptWith, readCertificate, readPrivateKey, type SigningDigest, type SigningIdentity } from "../../src/operator/edi/as2/cms";
import { As2Error, type As2FailureKind } from "../../src/operator/edi/as2/errors";
import { buildMdn, readMdn } from "../../src/operator/edi/as2/mdn";
import {
  encryptEntity,
  micOf,
  openMessage,
  payloadEntity,
  sealMessage,
  signEntity,
  verifySignedEntity,
} from "../../src/operator/edi/as2/message";
import { bytesOf, decodeBase64, decodedBody, encodeBase64Lines, parseEntity } from "../../src/operator/edi/as2/mime";

/**
 * The AS2 core in workerd, over its WebCrypto: the libas2 fixtures (../shared/test-data/x12/as2, read in place: signed by
 * and encrypted for "libas2community", an MDN signed by "as2testing"), then round trips with keys made here.
 */

const fixtures = import.meta.glob<string>("../../../shared/test-data/x12/as2/*", { query: "?raw", import: "default", eager: true });
function fixture(name: string): string {
  const text = fixtures[`../../../shared/test-data/x12/as2/${name}`];
  if (text === undefined) throw new Error(`fixture ${name} not found`);
  return text;
}

const libas2Community: SigningIdentity = {
  certificate: readCertificate(fixture("libas2-libas2community.cer")),
  privateKey: readPrivateKey(fixture("libas2-libas2community.key")),
};
const as2TestingCertificate = readCertificate(fixture("libas2-as2testing.cer"));
const text = new TextDecoder();

async function refusal(promise: Promise<unknown>): Promise<{ kind: As2FailureKind; message: string; unsupportedAlgorithm?: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof As2Error)) throw new Error(`expected an As2Error, got ${error instanceof Error ? error.stack : String(error)}`);
  return { kind: error.kind, message: error.message, unsupportedAlgorithm: error.unsupportedAlgorithm };
}

/** The fixture with one base64 line of its nth part changed (a flipped character), as a man in the middle would. */
function tamperLine(message: string, line: string): string {
  expect(message).toContain(line);
  const flipped = line[10] === "A" ? "B" : "A";
  return message.replace(line, `${line.slice(0, 10)}${flipped}${line.slice(11)}`);
}

describe("the libas2 fixtures", () => {
  const signed = fixture("libas2-content.signed.txt");

  it("verifies the signed message with its signer's certificate, and its content is the X12 it carries", async () => {
    const { content, digest } = await verifySignedEntity(parseEntity(bytesOf(signed)), libas2Community.certificate);
    expect(digest).toBe("sha-256");
    expect(content.mediaType).toBe("application/edi-x12");
    const x12 = text.decode(decodedBody(content));
    expect(x12.startsWith("ISA*00*")).toBe(true);
    expect(x12).toContain("ST*940*43501");
  });

  it("refuses it with another partner's certificate, with its content or signature changed", async () => {
    expect(await refusal(verifySignedEntity(parseEntity(bytesOf(signed)), as2TestingCertificate))).toMatchObject({
      kind: "authentication-failed",
    });
    const contentChanged = tamperLine(signed, "KjEqNDM1MDEKSUVBKjEqMDAwMDQzNTAxCg==");
    expect(await refusal(verifySignedEntity(parseEntity(bytesOf(contentChanged)), libas2Community.certificate))).toMatchObject({
      kind: "integrity-check-failed",
    });
    const signatureChanged = tamperLine(signed, "h92Cg1Mqq3p49kZDW9U3jtG91IGq17VE9sU=");
    expect(await refusal(verifySignedEntity(parseEntity(bytesOf(signatureChanged)), libas2Community.certificate))).toMatchObject({
      kind: "authentication-failed",
    });
  });

  describe("once the certificates expired (May 2030)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("refuses the signature and will not encrypt for the certificate", async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-06-01T00:00:00Z") });
      expect(await refusal(verifySignedEntity(parseEntity(bytesOf(signed)), libas2Community.certificate))).toEqual({
        kind: "authentication-failed",
        message: "the partner's signing certificate is not valid now (valid from 2020-05-02T23:15:24.000Z to 2030-05-03T23:15:24.000Z)",
      });
      await expect(encryptEntity(bytesOf("Content-Type: text/plain\r\n\r\nx"), libas2Community.certificate)).rejects.toThrow(
        /encryption certificate is not valid now/,
      );
    });
  });

  it("decrypts the encrypted message (RSAES-OAEP, AES-128-CBC) with libas2community's key: the X12 940 of libas2-content.mime.txt", async () => {
    const opened = await openMessage(bytesOf(fixture("libas2-content.encrypted.txt")), {
      recipient: libas2Community,
      partnerCertificate: as2TestingCertificate,
      requireEncryption: true,
      requireSignature: false,
    });
    expect(opened.encrypted).toBe(true);
    expect(opened.signed).toBe(false);
    const expected = parseEntity(bytesOf(fixture("libas2-content.mime.txt")));
    expect(opened.payload.mediaType).toBe("application/edi-x12");
    expect(opened.content).toEqual(decodedBody(expected));
    expect(text.decode(opened.content)).toMatch(/^ISA\*00\*.*\nST\*940\*43501\n/s);
  });

  it("does not decrypt it with another key", async () => {
    const stranger = await createSelfSignedIdentity("stranger");
    const withOurCertificateButAnotherKey = { certificate: libas2Community.certificate, privateKey: stranger.privateKey };
    const options = { partnerCertificate: as2TestingCertificate, requireEncryption: true, requireSignature: false };
    const message = bytesOf(fixture("libas2-content.encrypted.txt"));
    expect(await refusal(openMessage(message, { ...options, recipient: stranger }))).toEqual({
      kind: "decryption-failed",
      message: "the message is not encrypted for our certificate",
    });
    expect(await refusal(openMessage(message, { ...options, recipient: withOurCertificateButAnotherKey }))).toEqual({
      kind: "decryption-failed",
      message: "the message does not decrypt with our private key",
    });
  });

  it("reads as2testing's signed MDN: processed, with the MIC we compute for the signed message it answers", async () => {
    const { content } = await verifySignedEntity(parseEntity(bytesOf(signed)), libas2Community.certificate);
    const sentMic = await micOf(content.raw, "sha-256");
    expect(sentMic.digest).toBe("bIwxkbRLLtHWlniKxMReISQ/GvEve0LV/hxdl9OD0E8=");
    const expected = {
      originalMessageId: "<51dac186-d7d2-8440-392e-d9153a830125@DESKTOP-BTP8V2E>",
      sentMic,
      partnerCertificate: as2TestingCertificate,
    };
    const mdn = await readMdn(bytesOf(fixture("libas2-mdn.signed.txt")), expected);
    expect(mdn).toMatchObject({
      processed: true,
      signed: true,
      mic: sentMic,
      disposition: "automatic-action/MDN-sent-automatically; processed",
    });

    const otherMic = await micOf(bytesOf("Content-Type: text/plain\r\n\r\nsomething else"), "sha-256");
    expect(await refusal(readMdn(bytesOf(fixture("libas2-mdn.signed.txt")), { ...expected, sentMic: otherMic }))).toMatchObject({
      kind: "integrity-check-failed",
    });
    expect(
      await refusal(readMdn(bytesOf(fixture("libas2-mdn.signed.txt")), { ...expected, partnerCertificate: libas2Community.certificate })),
    ).toMatchObject({ kind: "authentication-failed" });
  });
});

describe("round trips with keys made here", () => {
  let medparts: SigningIdentity;
  let supplier: SigningIdentity;
  const x12 = bytesOf("ISA*00*          *00*          *ZZ*MEDPARTS       *ZZ*SUPPLIER       *261207*1043*^*00501*000000001*0*T*:~\r\n");
  const payload = { content: x12, mediaType: "application/edi-x12", filename: "850.edi" };

  beforeAll(async () => {
    [medparts, supplier] = await Promise.all([createSelfSignedIdentity("medparts"), createSelfSignedIdentity("supplier")]);
  });

  const inbound = () => ({
    recipient: supplier,
    partnerCertificate: medparts.certificate,
    requireEncryption: true,
    requireSignature: true,
  });

  for (const keyBits of [128, 256] as const) {
    it(`signs (SHA-256), encrypts (AES-${keyBits}-CBC), then decrypts and verifies to the same payload and MIC`, async () => {
      const sealed = await sealMessage(payload, { signer: medparts, encryptFor: supplier.certificate, keyBits });
      expect(parseEntity(sealed.entity).parameters.get("smime-type")).toBe("enveloped-data");
      const opened = await openMessage(sealed.entity, inbound());
      expect(opened).toMatchObject({ encrypted: true, signed: true, mic: sealed.mic });
      expect(opened.content).toEqual(x12);
      expect(opened.payload.mediaType).toBe("application/edi-x12");
    });
  }

  it("refuses a message signed by someone else, unsigned or unencrypted when the partner must sign and encrypt", async () => {
    const forged = await sealMessage(payload, { signer: supplier, encryptFor: supplier.certificate });
    expect(await refusal(openMessage(forged.entity, inbound()))).toMatchObject({ kind: "authentication-failed" });
    const unsigned = await sealMessage(payload, { encryptFor: supplier.certificate });
    expect(await refusal(openMessage(unsigned.entity, inbound()))).toMatchObject({ kind: "insufficient-message-security" });
    const unencrypted = await sealMessage(payload, { signer: medparts });
    expect(await refusal(openMessage(unencrypted.entity, inbound()))).toMatchObject({ kind: "insufficient-message-security" });
    const opened = await openMessage(unencrypted.entity, { ...inbound(), requireEncryption: false });
    expect(opened.content).toEqual(x12);
  });

  it("computes an unsigned, unencrypted message's MIC over its body alone (RFC 4130 section 7.3.1), the same on both sides", async () => {
    const plain = await sealMessage(payload, {});
    const opened = await openMessage(plain.entity, { ...inbound(), requireEncryption: false, requireSignature: false });
    expect(opened).toMatchObject({ signed: false, encrypted: false, mic: plain.mic });
    expect(plain.mic).not.toEqual(await micOf(plain.entity, "sha-256"));
    const signedOnly = await sealMessage(payload, { signer: medparts });
    expect(signedOnly.mic).toEqual(await micOf(payloadEntity(payload), "sha-256"));
  });

  it("reads a legacy partner's SHA-1 signature, and answers with a SHA-1 MIC", async () => {
    // signEntity takes no "sha-1": Medparts never signs with it. The cast plays a legacy partner's translator.
    const legacy = await signEntity(payloadEntity(payload), medparts, "sha-1" as SigningDigest);
    expect(parseEntity(legacy).parameters.get("micalg")).toBe("sha-1");
    const opened = await openMessage(legacy, { ...inbound(), requireEncryption: false });
    expect(opened.mic.algorithm).toBe("sha-1");
    expect(opened.mic).toEqual(await micOf(payloadEntity(payload), "sha-1"));
  });

  it("builds a signed MDN that the sender reads back as processed with the MIC it computed", async () => {
    const sealed = await sealMessage(payload, { signer: medparts, encryptFor: supplier.certificate });
    const opened = await openMessage(sealed.entity, inbound());
    const originalMessageId = "<order-850-1@medparts>";
    const mdn = await buildMdn({
      ourAs2Name: "SUPPLIER",
      originalMessageId,
      outcome: { processed: true },
      mic: opened.mic,
      signer: supplier,
    });
    const read = await readMdn(mdn, { originalMessageId, sentMic: sealed.mic, partnerCertificate: supplier.certificate });
    expect(read).toMatchObject({ processed: true, signed: true, mic: sealed.mic });
    expect(read.modifier).toBeUndefined();

    expect(await refusal(readMdn(mdn, { originalMessageId, sentMic: sealed.mic, partnerCertificate: medparts.certificate }))).toMatchObject(
      {
        kind: "authentication-failed",
      },
    );
    expect(
      await refusal(
        readMdn(mdn, { originalMessageId: "<another@medparts>", sentMic: sealed.mic, partnerCertificate: supplier.certificate }),
      ),
    ).toMatchObject({
      kind: "malformed",
    });
    const otherMic = { ...sealed.mic, digest: opened.mic.digest.replace(/^./, (c) => (c === "A" ? "B" : "A")) };
    expect(await refusal(readMdn(mdn, { originalMessageId, sentMic: otherMic, partnerCertificate: supplier.certificate }))).toMatchObject({
      kind: "integrity-check-failed",
    });
  });

  it("refuses a signed MDN whose report was changed, and an unsigned MDN when a signed one was asked for", async () => {
    const sealed = await sealMessage(payload, { signer: medparts });
    const originalMessageId = "<order-850-2@medparts>";
    const mdn = text.decode(
      await buildMdn({ ourAs2Name: "SUPPLIER", originalMessageId, outcome: { processed: true }, mic: sealed.mic, signer: supplier }),
    );
    const changed = mdn.replace("was received and its content passed the checks", "was received and its content passed the check!");
    expect(changed).not.toBe(mdn);
    const expected = { originalMessageId, sentMic: sealed.mic, partnerCertificate: supplier.certificate };
    expect(await refusal(readMdn(bytesOf(changed), expected))).toMatchObject({ kind: "integrity-check-failed" });
    const unsigned = await buildMdn({ ourAs2Name: "SUPPLIER", originalMessageId, outcome: { processed: true }, mic: sealed.mic });
    expect(await refusal(readMdn(unsigned, expected))).toMatchObject({ kind: "insufficient-message-security" });
    expect(await readMdn(unsigned, { originalMessageId, sentMic: sealed.mic })).toMatchObject({ processed: true, signed: false });
  });

  const failures: [As2FailureKind, string, string][] = [
    ["decryption-failed", "processed/error: decryption-failed", "decryption-failed"],
    ["authentication-failed", "processed/error: authentication-failed", "authentication-failed"],
    ["integrity-check-failed", "processed/error: integrity-check-failed", "integrity-check-failed"],
    ["insufficient-message-security", "processed/error: insufficient-message-security", "insufficient-message-security"],
    ["decompression-failed", "processed/error: decompression-failed", "decompression-failed"],
    ["malformed", "processed/error: unexpected-processing-error", "unexpected-processing-error"],
    ["too-large", "processed/error: unexpected-processing-error", "unexpected-processing-error"],
    ["unsupported-mic-algorithms", "failed/Failure: unsupported MIC-algorithms", "unsupported MIC-algorithms"],
  ];
  for (const [failure, disposition, modifier] of failures) {
    it(`builds an MDN for a message refused for ${failure}: ${disposition}`, async () => {
      const originalMessageId = `<refused-${failure}@supplier>`;
      const mdn = await buildMdn({
        ourAs2Name: "MEDPARTS",
        originalMessageId,
        outcome: { processed: false, failure, explanation: "3DES (des-ede3-cbc) is not supported (use AES-128-CBC or AES-256-CBC)" },
        signer: medparts,
      });
      const sentMic = await micOf(payloadEntity(payload), "sha-256");
      const read = await readMdn(mdn, { originalMessageId, sentMic, partnerCertificate: medparts.certificate });
      expect(read).toEqual({
        originalMessageId,
        processed: false,
        modifier,
        disposition: `automatic-action/MDN-sent-automatically; ${disposition}`,
        signed: true,
      });
      expect(text.decode(mdn)).toContain("is not supported");
    });
  }

  it("refuses RSAES-PKCS1-v1_5 key transport and 3DES by name, before trying the key", async () => {
    const sealed = await sealMessage(payload, { encryptFor: supplier.certificate });
    const der = decodedBody(parseEntity(sealed.entity));
    const rewritten = (change: (enveloped: EnvelopedData) => void) => {
      const info = ContentInfo.fromBER(der.slice().buffer);
      const enveloped = new EnvelopedData({ schema: info.content });
      change(enveloped);
      return new Uint8Array(new ContentInfo({ contentType: info.contentType, content: enveloped.toSchema() }).toSchema().toBER(false));
    };
    const pkcs1KeyTransport = rewritten((enveloped) => {
      (enveloped.recipientInfos[0]!.value as KeyTransRecipientInfo).keyEncryptionAlgorithm.algorithmId = "1.2.840.113549.1.1.1";
    });
    expect(await refusal(decryptWith(pkcs1KeyTransport, supplier))).toEqual({
      kind: "decryption-failed",
      message: "RSAES-PKCS1-v1_5 key transport is not supported (use RSAES-OAEP)",
      unsupportedAlgorithm: "RSAES-PKCS1-v1_5 key transport",
    });
    const tripleDes = rewritten((enveloped) => {
      enveloped.encryptedContentInfo.contentEncryptionAlgorithm.algorithmId = "1.2.840.113549.3.7";
    });
    expect(await refusal(decryptWith(tripleDes, supplier))).toEqual({
      kind: "decryption-failed",
      message: "3DES (des-ede3-cbc) is not supported (use AES-128-CBC or AES-256-CBC)",
      unsupportedAlgorithm: "3DES (des-ede3-cbc)",
    });
    expect(
      await decryptWith(
        rewritten(() => {}),
        supplier,
      ),
    ).toEqual(payloadEntity(payload));
  });

  it("refuses CMS that is garbage, the wrong content type, or the wrong structure as malformed", async () => {
    const signedEntity = text.decode(await signEntity(payloadEntity(payload), medparts));
    const signatureBase64 = signedEntity.split("\r\n\r\n").at(-1)!.split("\r\n--")[0]!;
    const withSignature = (der: Uint8Array) => bytesOf(signedEntity.replace(signatureBase64, encodeBase64Lines(der)));
    const certificateDer = new Uint8Array(medparts.certificate.toSchema().toBER(false));
    const envelopedInfo = decodedBody(parseEntity((await sealMessage(payload, { encryptFor: supplier.certificate })).entity));
    const asSignedDataContentType = new Uint8Array(
      new ContentInfo({ contentType: "1.2.840.113549.1.7.2", content: ContentInfo.fromBER(envelopedInfo.slice().buffer).content })
        .toSchema()
        .toBER(false),
    );
    const options = { ...inbound(), requireEncryption: false };
    expect(await openMessage(withSignature(decodedBody(parseEntity(bytesOf(signedEntity)).parts[1]!)), options)).toMatchObject({
      signed: true,
    });
    expect(await refusal(openMessage(withSignature(crypto.getRandomValues(new Uint8Array(300))), options))).toEqual({
      kind: "malformed",
      message: "the signature is not a DER or BER encoded CMS ContentInfo",
    });
    expect(await refusal(openMessage(withSignature(certificateDer), options))).toMatchObject({ kind: "malformed" });
    expect(await refusal(openMessage(withSignature(envelopedInfo), options))).toEqual({
      kind: "malformed",
      message: "the signature holds CMS content type 1.2.840.113549.1.7.3, not 1.2.840.113549.1.7.2",
    });
    expect(await refusal(openMessage(withSignature(asSignedDataContentType), options))).toEqual({
      kind: "malformed",
      message: "the signature is not a well-formed CMS structure",
    });
  });

  it("refuses a compressed message (RFC 5402) by name", async () => {
    const compressed = bytesOf('Content-Type: application/pkcs7-mime; smime-type=compressed-data; name="smime.p7z"\r\n\r\nMIIB');
    expect(await refusal(openMessage(compressed, { ...inbound(), requireEncryption: false }))).toEqual({
      kind: "decompression-failed",
      message: "compressed-data (RFC 5402) is not supported (send it uncompressed)",
      unsupportedAlgorithm: "compressed-data (RFC 5402)",
    });
  });

  it("takes a binary (not base64) application/pkcs7-mime body, as partners send it over HTTP", async () => {
    const sealed = await sealMessage(payload, { signer: medparts, encryptFor: supplier.certificate });
    const entity = parseEntity(sealed.entity);
    const binary = new Uint8Array([
      ...bytesOf(`Content-Type: ${entity.headers.get("content-type")}\r\nContent-Transfer-Encoding: binary\r\n\r\n`),
      ...decodeBase64(entity.body),
    ]);
    expect((await openMessage(binary, inbound())).content).toEqual(x12);
    expect(encodeBase64Lines(decodeBase64(entity.body))).toBe(text.decode(entity.body));
  });
});

describe("what workerd offers for legacy partners (docs/decisions.md)", () => {
  it("WebCrypto has neither RSAES-PKCS1-v1_5 encryption nor 3DES", async () => {
    const rsaesPkcs1 = { name: "RSAES-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
    await expect(
      crypto.subtle.generateKey(rsaesPkcs1 as unknown as Parameters<SubtleCrypto["generateKey"]>[0], true, ["encrypt", "decrypt"]),
    ).rejects.toThrow(/Unrecognized key generation algorithm/);
    await expect(crypto.subtle.importKey("raw", new Uint8Array(24), { name: "DES-EDE3-CBC" }, false, ["decrypt"])).rejects.toThrow(
      /Unrecognized key import algorithm/,
    );
  });

  it("node:crypto (nodejs_compat, as the operator plane has it) decrypts RSA PKCS#1 v1.5 and des-ede3-cbc", async () => {
    const nodeCrypto = await import("node:crypto");
    const { publicKey, privateKey } = nodeCrypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const sessionKey = nodeCrypto.randomBytes(24);
    const wrapped = nodeCrypto.publicEncrypt({ key: publicKey, padding: nodeCrypto.constants.RSA_PKCS1_PADDING }, sessionKey);
    const unwrapped = nodeCrypto.privateDecrypt({ key: privateKey, padding: nodeCrypto.constants.RSA_PKCS1_PADDING }, wrapped);
    expect(unwrapped.equals(sessionKey)).toBe(true);
    const iv = nodeCrypto.randomBytes(8);
    const cipher = nodeCrypto.createCipheriv("des-ede3-cbc", unwrapped, iv);
    const encrypted = Buffer.concat([cipher.update(Buffer.from("ISA*00")), cipher.final()]);
    const decipher = nodeCrypto.createDecipheriv("des-ede3-cbc", sessionKey, iv);
    expect(Buffer.concat([decipher.update(encrypted), decipher.final()]).toString()).toBe("ISA*00");
  });
});
