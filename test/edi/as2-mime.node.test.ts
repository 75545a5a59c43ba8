import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestNamed } from "../../src/operator/edi/as2/cms";
import { As2Error, type As2FailureKind } from "../../src/operator/edi/as2/errors";
import { readMdnOptions } from "../../src/operator/edi/as2/mdn";
import { formatMic, parseMic } from "../../src/operator/edi/as2/message";
import {
  AS2_LIMITS,
  buildEntity,
  buildMultipartBody,
  bytesOf,
  decodeBase64,
  decodedBody,
  encodeBase64Lines,
  newBoundary,
  parseEntity,
  parseHeaderValue,
  toCanonicalCrlf,
} from "../../src/operator/edi/as2/mime";
import { runs } from "../helpers/depth";

/** The AS2 MIME reader's pure logic: what it reads, and the hostile input it refuses quickly and by name. */

function refusalOf(read: () => unknown): { kind: As2FailureKind; message: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof As2Error) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal, the input was read");
}

const text = new TextDecoder();

describe("reading", () => {
  it("reads a multipart with CRLF or LF line breaks, the part bytes exactly, folded headers joined", () => {
    for (const lineBreak of ["\r\n", "\n"]) {
      const message = [
        'Content-Type: multipart/signed; protocol="application/pkcs7-signature";',
        ' micalg=sha-256; boundary="b=1/x"',
        "",
        "preamble",
        "--b=1/x",
        "Content-Type: application/edi-x12",
        "",
        "ISA*00~",
        "--b=1/x ",
        "Content-Type: application/pkcs7-signature",
        "Content-Transfer-Encoding: base64",
        "",
        "AAEC",
        "--b=1/x--",
        "epilogue",
      ].join(lineBreak);
      const entity = parseEntity(bytesOf(message));
      expect(entity.mediaType).toBe("multipart/signed");
      expect(entity.parameters.get("micalg")).toBe("sha-256");
      expect(entity.parts.map((part) => part.mediaType)).toEqual(["application/edi-x12", "application/pkcs7-signature"]);
      expect(text.decode(entity.parts[0]!.raw)).toBe(["Content-Type: application/edi-x12", "", "ISA*00~"].join(lineBreak));
      expect(decodedBody(entity.parts[1]!)).toEqual(new Uint8Array([0, 1, 2]));
    }
  });

  it("does not take a longer boundary, or one inside a line, for the delimiter", () => {
    const body = "--b\r\nContent-Type: text/plain\r\n\r\nx --b\r\n--bb\r\n--b--\r\n";
    const entity = parseEntity(bytesOf(`Content-Type: multipart/mixed; boundary=b\r\n\r\n${body}`));
    expect(entity.parts).toHaveLength(1);
    expect(text.decode(entity.parts[0]!.body)).toBe("x --b\r\n--bb");
  });

  it("builds what it reads: headers, a multipart body, base64 lines of 76", () => {
    const content = crypto.getRandomValues(new Uint8Array(1000));
    const part = buildEntity([["Content-Transfer-Encoding", "base64"]], encodeBase64Lines(content));
    const entity = parseEntity(buildEntity([["Content-Type", 'multipart/mixed; boundary="x y"']], buildMultipartBody([part, part], "x y")));
    expect(entity.parts.map((p) => decodedBody(p))).toEqual([content, content]);
    expect(
      text
        .decode(part)
        .split("\r\n")
        .slice(2, -1)
        .every((line) => line.length === 76),
    ).toBe(true);
    expect(() => buildEntity([["X-Injected", "a\r\nContent-Type: text/html"]], "")).toThrow(/would break/);
    expect(() => buildMultipartBody([bytesOf("--x y\r\n")], "x y")).toThrow(/boundary occurs/);
  });

  it("makes every line break CRLF and leaves CRLF alone", () => {
    expect(text.decode(toCanonicalCrlf(bytesOf("a\nb\r\nc\n")))).toBe("a\r\nb\r\nc\r\n");
    const canonical = bytesOf("a\r\nb");
    expect(toCanonicalCrlf(canonical)).toBe(canonical);
  });

  it("reads header parameters with quotes, escapes and semicolons in quoted values", () => {
    const { value, parameters } = parseHeaderValue('Application/PKCS7-Signature; NAME="smime;\\"p7s\\""; x=1');
    expect(value).toBe("Application/PKCS7-Signature");
    expect([...parameters]).toEqual([
      ["name", 'smime;"p7s"'],
      ["x", "1"],
    ]);
  });

  it("reads and writes MICs and digest names as partners write them", () => {
    expect(parseMic("bIwxkbRLLtHWlniKxMReISQ/GvEve0LV/hxdl9OD0E8=, sha-256")).toEqual({
      digest: "bIwxkbRLLtHWlniKxMReISQ/GvEve0LV/hxdl9OD0E8=",
      algorithm: "sha-256",
    });
    expect(formatMic({ digest: "abc=", algorithm: "sha-1" })).toBe("abc=, sha-1");
    expect(["sha256", "SHA-256", "sha1", "sha-512"].map(digestNamed)).toEqual(["sha-256", "sha-256", "sha-1", "sha-512"]);
    expect(refusalOf(() => digestNamed("md5"))).toEqual({
      kind: "malformed",
      message: 'digest "md5" is not supported (use sha-256, sha-384, sha-512 or sha-1)',
    });
  });
});

describe("what a partner asks of the MDN (Disposition-Notification-Options)", () => {
  it("a signed MDN with the first MIC algorithm we have", () => {
    expect(readMdnOptions("signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1")).toEqual({
      signed: true,
      micAlgorithm: "sha-256",
    });
    expect(readMdnOptions("signed-receipt-protocol=required, pkcs7-signature; signed-receipt-micalg=required, md5, SHA1")).toEqual({
      signed: true,
      micAlgorithm: "sha-1",
    });
  });

  it("an unsigned MDN with the signer's algorithm when the header is absent or asks for nothing we have, optionally", () => {
    expect(readMdnOptions(undefined)).toEqual({ signed: false });
    expect(readMdnOptions("signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, md5")).toEqual({
      signed: true,
    });
  });

  it("refuses a required MIC list with nothing we have (a failed/Failure: unsupported MIC-algorithms MDN)", () => {
    expect(
      refusalOf(() => readMdnOptions("signed-receipt-protocol=required, pkcs7-signature; signed-receipt-micalg=required, md5, rsa-md5")),
    ).toEqual({
      kind: "unsupported-mic-algorithms",
      message: "none of the MIC algorithms md5, rsa-md5 is supported (sha-256, sha-384, sha-512, sha-1)",
    });
  });
});

describe("refusing hostile input", () => {
  const multipart = (boundary: string, body: string) => bytesOf(`Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n${body}`);

  it("refuses a message over the size limit before reading it", () => {
    const limits = { ...AS2_LIMITS, maxMessageBytes: 1024 };
    expect(refusalOf(() => parseEntity(new Uint8Array(1025), limits))).toEqual({
      kind: "too-large",
      message: "message larger than 1024 bytes",
    });
    expect(parseEntity(bytesOf(`Content-Type: text/plain\r\n\r\n${"x".repeat(900)}`), limits).body).toHaveLength(900);
  });

  it("refuses endless headers, too many headers, too many parameters", () => {
    expect(refusalOf(() => parseEntity(bytesOf(`X-Long: ${"a".repeat(100_000)}\r\n\r\n`)))).toMatchObject({ kind: "too-large" });
    expect(refusalOf(() => parseEntity(bytesOf(`${"X-A: 1\r\n".repeat(65)}\r\n`)))).toMatchObject({ kind: "too-large" });
    expect(refusalOf(() => parseEntity(bytesOf(`Content-Type: text/plain${"; a=1".repeat(17)}\r\n\r\n`)))).toMatchObject({
      kind: "too-large",
    });
  });

  it("refuses multiparts nested deeper than AS2 needs", () => {
    let nested = bytesOf("Content-Type: text/plain\r\n\r\nx");
    for (let depth = 0; depth < 1000; depth++) {
      nested = buildEntity([["Content-Type", `multipart/mixed; boundary="level${depth}"`]], buildMultipartBody([nested], `level${depth}`));
    }
    const started = performance.now();
    expect(refusalOf(() => parseEntity(nested))).toEqual({ kind: "too-large", message: "multiparts nested deeper than 4" });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses too many parts", () => {
    const parts = Array.from({ length: 65 }, () => bytesOf("Content-Type: text/plain\r\n\r\nx"));
    const entity = buildEntity([["Content-Type", 'multipart/mixed; boundary="p"']], buildMultipartBody(parts, "p"));
    expect(refusalOf(() => parseEntity(entity))).toEqual({ kind: "too-large", message: "more than 64 body parts" });
  });

  it("refuses a multipart without a boundary parameter, without its boundary in the body, or without its closing line", () => {
    expect(refusalOf(() => parseEntity(bytesOf("Content-Type: multipart/signed; micalg=sha-256\r\n\r\n--x\r\n")))).toEqual({
      kind: "malformed",
      message: "multipart/signed without a boundary parameter",
    });
    expect(refusalOf(() => parseEntity(multipart("b", "no delimiter here")))).toMatchObject({
      message: "multipart boundary not found in the body",
    });
    expect(refusalOf(() => parseEntity(multipart("b", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n")))).toMatchObject({
      message: "multipart without its closing boundary",
    });
    expect(refusalOf(() => parseEntity(multipart("b", "--b--\r\n")))).toMatchObject({ message: "multipart without body parts" });
    expect(refusalOf(() => parseEntity(multipart("b".repeat(71), "")))).toMatchObject({ kind: "malformed" });
  });

  it("refuses what is not MIME: no header end, a header line without a name, an unterminated quote", () => {
    expect(refusalOf(() => parseEntity(bytesOf("Content-Type: text/plain")))).toMatchObject({ kind: "malformed" });
    expect(refusalOf(() => parseEntity(bytesOf("ISA*00*    *00~\r\n\r\n")))).toMatchObject({ kind: "malformed" });
    expect(refusalOf(() => parseEntity(bytesOf(" folded first\r\n\r\n")))).toMatchObject({ kind: "malformed" });
    expect(refusalOf(() => parseEntity(bytesOf('Content-Type: multipart/mixed; boundary="b\r\n\r\n')))).toMatchObject({
      kind: "malformed",
    });
  });

  it("refuses base64 with characters outside its alphabet or data after the padding, and quoted-printable", () => {
    expect(decodeBase64(bytesOf("SVNB\r\nKjAw\r\n"))).toEqual(bytesOf("ISA*00"));
    expect(refusalOf(() => decodeBase64(bytesOf("SVNB*jAw")))).toMatchObject({ kind: "malformed" });
    expect(refusalOf(() => decodeBase64(bytesOf("SQ==SVNB")))).toMatchObject({ kind: "malformed" });
    const quotedPrintable = parseEntity(bytesOf("Content-Transfer-Encoding: quoted-printable\r\n\r\na=3Db"));
    expect(refusalOf(() => decodedBody(quotedPrintable))).toMatchObject({ kind: "malformed" });
  });

  it("reads pathological bodies in linear time: a megabyte of near-delimiters and line breaks", () => {
    const body = `--b\r\n\r\n${"--b-\n--bx\r\n-\n".repeat(80_000)}\r\n--b--\r\n`;
    const started = performance.now();
    const entity = parseEntity(multipart("b", body), { ...AS2_LIMITS, maxHeaderBytes: 16 * 1024 });
    expect(entity.parts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
    const headerless = bytesOf(`${"a:".repeat(200_000)}`);
    expect(refusalOf(() => parseEntity(headerless))).toMatchObject({ kind: "too-large" });
  });
});

describe("properties", () => {
  /** Bytes rich in what MIME cares about: line breaks, hyphens, colons, quotes. */
  const mimeishBytes = fc
    .array(fc.oneof(fc.constantFrom(13, 10, 45, 58, 59, 34, 61, 32), fc.integer({ min: 0, max: 255 })), { maxLength: 400 })
    .map((values) => new Uint8Array(values));

  it("any bodies built into a multipart are read back byte for byte", () => {
    fc.assert(
      fc.property(fc.array(mimeishBytes, { minLength: 1, maxLength: 5 }), (bodies) => {
        const boundary = newBoundary();
        const parts = bodies.map((body) => buildEntity([["Content-Type", "application/octet-stream"]], body));
        const entity = parseEntity(
          buildEntity([["Content-Type", `multipart/mixed; boundary="${boundary}"`]], buildMultipartBody(parts, boundary)),
        );
        expect(entity.parts.map((part) => part.body)).toEqual(bodies);
        expect(entity.parts.map((part) => part.raw)).toEqual(parts);
      }),
      { numRuns: runs({ quick: 200, deep: 5000 }) },
    );
  });

  it("base64 lines decode to what was encoded", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => {
        expect(decodeBase64(bytesOf(encodeBase64Lines(bytes)))).toEqual(bytes);
      }),
      { numRuns: runs({ quick: 200, deep: 5000 }) },
    );
  });

  it("canonical CRLF has no bare line feed and is idempotent", () => {
    fc.assert(
      fc.property(mimeishBytes, (bytes) => {
        const canonical = toCanonicalCrlf(bytes);
        canonical.forEach((byte, i) => {
          if (byte === 10) expect(canonical[i - 1]).toBe(13);
        });
        expect(toCanonicalCrlf(canonical)).toEqual(canonical);
      }),
      { numRuns: runs({ quick: 200, deep: 5000 }) },
    );
  });

  it("any input is read or refused with an As2Error, nothing else", () => {
    const token = fc.constantFrom(
      "Content-Type: multipart/signed; boundary=b\r\n",
      'Content-Type: multipart/mixed; boundary="b"\n',
      "Content-Type: application/pkcs7-mime; smime-type=enveloped-data\r\n",
      "Content-Transfer-Encoding: base64\r\n",
      "--b\r\n",
      "--b--\r\n",
      "\r\n",
      "\n",
      " folded\r\n",
      'X: "unterminated\r\n',
      "SVNBKjAw",
      "=",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        try {
          const entity = parseEntity(bytesOf(tokens.join("")));
          for (const part of [entity, ...entity.parts]) decodedBody(part);
        } catch (error) {
          expect(error).toBeInstanceOf(As2Error);
        }
      }),
      { numRuns: runs({ quick: 500, deep: 20000 }) },
    );
  });
});
