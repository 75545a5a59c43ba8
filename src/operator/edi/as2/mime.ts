import { As2Error, malformed } from "./errors";

/**
 * The MIME that AS2 uses (RFC 4130 over RFC 2045/2046/1847): an entity's headers and body, multiparts (multipart/signed,
 * multipart/report), base64 transfer encoding, and the canonical CRLF form that signatures and MICs are computed over.
 * Everything works on bytes: AS2 bodies are often binary (Content-Transfer-Encoding: binary over HTTP), and a signature
 * covers the exact bytes of its part. Input is untrusted: every loop is linear, every size and count is bounded, and no
 * regular expression runs over a body.
 */

export interface MimeLimits {
  /** Bytes of a whole message, and so of any entity in it. */
  readonly maxMessageBytes: number;
  /** Bytes of one entity's header block. */
  readonly maxHeaderBytes: number;
  /** Header fields of one entity. */
  readonly maxHeaders: number;
  /** Parameters of one header value (`; name=value`). */
  readonly maxParameters: number;
  /** Multiparts within multiparts: AS2 needs 2 (multipart/signed around multipart/report). */
  readonly maxDepth: number;
  /** Body parts in a message, all levels together. */
  readonly maxParts: number;
}

export const AS2_LIMITS: MimeLimits = {
  maxMessageBytes: 32 * 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxHeaders: 64,
  maxParameters: 16,
  maxDepth: 4,
  maxParts: 64,
};

const CR = 13;
const LF = 10;
const HYPHEN = 45;

/** Header fields in their order, looked up case-insensitively (the last of a repeated name wins). */
export class MimeHeaders {
  readonly #byName = new Map<string, string>();
  constructor(readonly fields: readonly (readonly [name: string, value: string])[]) {
    for (const [name, value] of fields) this.#byName.set(name.toLowerCase(), value);
  }
  get(name: string): string | undefined {
    return this.#byName.get(name.toLowerCase());
  }
}

export interface MimeEntity {
  readonly headers: MimeHeaders;
  /** The entity exactly as received, headers and body: what a multipart/signed signature covers once canonical. */
  readonly raw: Uint8Array;
  /** The body as received (still transfer-encoded). */
  readonly body: Uint8Array;
  /** The media type, lowercased (`text/plain` when absent, RFC 2045 section 5.2). */
  readonly mediaType: string;
  /** The Content-Type parameters, names lowercased. */
  readonly parameters: ReadonlyMap<string, string>;
  /** The body parts of a multipart entity, each parsed the same way; empty otherwise. */
  readonly parts: readonly MimeEntity[];
}

export const latin1 = new TextDecoder("latin1");
const ascii = new TextEncoder();

export function bytesOf(text: string): Uint8Array {
  return ascii.encode(text);
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = haystack.indexOf(first!, from); i !== -1 && i <= last; i = haystack.indexOf(first!, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Where the header block ends and the body begins: after the first empty line (CRLF CRLF, or LF LF from lenient senders). */
function splitHeaderBlock(bytes: Uint8Array, limits: MimeLimits): { headerEnd: number; bodyStart: number } {
  const scanUntil = Math.min(bytes.length, limits.maxHeaderBytes + 4);
  let lineStart = 0;
  for (let i = 0; i < scanUntil; i++) {
    if (bytes[i] !== LF) continue;
    const lineEnd = i > lineStart && bytes[i - 1] === CR ? i - 1 : i;
    if (lineEnd === lineStart) return { headerEnd: lineStart, bodyStart: i + 1 };
    lineStart = i + 1;
  }
  if (bytes.length > limits.maxHeaderBytes) throw new As2Error("too-large", `MIME headers longer than ${limits.maxHeaderBytes} bytes`);
  throw malformed("MIME entity without the empty line that ends its headers");
}

const TOKEN_CHAR = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Header fields (`Name: value` lines, folded lines joined), as in an entity's header block or an MDN's report. */
export function parseHeaderFields(block: string, limits: MimeLimits = AS2_LIMITS): [string, string][] {
  if (block.length > limits.maxHeaderBytes) throw new As2Error("too-large", `MIME headers longer than ${limits.maxHeaderBytes} bytes`);
  const fields: [string, string][] = [];
  for (const line of block.split("\n")) {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text === "") continue;
    if (text.startsWith(" ") || text.startsWith("\t")) {
      const previous = fields.at(-1);
      if (!previous) throw malformed("MIME headers begin with a continuation line");
      previous[1] = `${previous[1]} ${text.trim()}`;
      continue;
    }
    const colon = text.indexOf(":");
    const name = colon > 0 ? text.slice(0, colon).trimEnd() : "";
    if (!TOKEN_CHAR.test(name)) throw malformed(`not a MIME header line: ${JSON.stringify(text.slice(0, 60))}`);
    fields.push([name, text.slice(colon + 1).trim()]);
    if (fields.length > limits.maxHeaders) throw new As2Error("too-large", `more than ${limits.maxHeaders} MIME header fields`);
  }
  return fields;
}

/**
 * A header value with parameters (RFC 2045 section 5.1): `multipart/signed; protocol="application/pkcs7-signature";
 * micalg=sha-256; boundary="..."`. Quoted strings may hold `;` and backslash escapes. Names are lowercased.
 */
export function parseHeaderValue(value: string, limits: MimeLimits = AS2_LIMITS): { value: string; parameters: Map<string, string> } {
  const segments: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (quoted && char === "\\" && i + 1 < value.length) {
      current += value[++i];
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === ";" && !quoted) {
      segments.push(current);
      current = "";
      if (segments.length > limits.maxParameters) throw new As2Error("too-large", `more than ${limits.maxParameters} header parameters`);
    } else {
      current += char;
    }
  }
  if (quoted) throw malformed(`unterminated quoted string in ${JSON.stringify(value.slice(0, 60))}`);
  segments.push(current);
  const parameters = new Map<string, string>();
  for (const segment of segments.slice(1)) {
    const equals = segment.indexOf("=");
    if (segment.trim() === "") continue;
    if (equals <= 0) throw malformed(`header parameter without a value: ${JSON.stringify(segment.trim().slice(0, 60))}`);
    parameters.set(segment.slice(0, equals).trim().toLowerCase(), segment.slice(equals + 1).trim());
  }
  return { value: segments[0]!.trim(), parameters };
}

/** RFC 2046 section 5.1.1: 1 to 70 of these characters, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The body parts between `--boundary` delimiter lines (each at the start of a line) and the closing `--boundary--`.
 * A part excludes the line break before the next delimiter, which belongs to the delimiter (RFC 2046 section 5.1.1).
 */
function splitMultipart(body: Uint8Array, boundary: string): Uint8Array[] {
  if (!BOUNDARY.test(boundary)) throw malformed(`not a valid multipart boundary: ${JSON.stringify(boundary.slice(0, 80))}`);
  const delimiter = bytesOf(`--${boundary}`);
  const parts: Uint8Array[] = [];
  let partStart = -1;
  for (let at = indexOfBytes(body, delimiter); at !== -1; at = indexOfBytes(body, delimiter, at + delimiter.length)) {
    if (at > 0 && body[at - 1] !== LF) continue; // not at the start of a line: part of some content
    const afterDelimiter = at + delimiter.length;
    const closes = body[afterDelimiter] === HYPHEN && body[afterDelimiter + 1] === HYPHEN;
    let lineEnd = closes ? afterDelimiter + 2 : afterDelimiter;
    while (body[lineEnd] === 32 || body[lineEnd] === 9) lineEnd++; // transport padding
    if (!closes && body[lineEnd] !== LF && !(body[lineEnd] === CR && body[lineEnd + 1] === LF)) continue; // a longer boundary
    if (partStart !== -1) {
      const partEnd = at >= 2 && body[at - 2] === CR ? at - 2 : at - 1;
      parts.push(body.subarray(partStart, Math.max(partStart, partEnd)));
    }
    if (closes) {
      if (parts.length === 0) throw malformed("multipart without body parts");
      return parts;
    }
    partStart = lineEnd + (body[lineEnd] === CR ? 2 : 1);
  }
  throw malformed(partStart === -1 ? "multipart boundary not found in the body" : "multipart without its closing boundary");
}

export function parseEntity(bytes: Uint8Array, limits: MimeLimits = AS2_LIMITS): MimeEntity {
  if (bytes.length > limits.maxMessageBytes) throw new As2Error("too-large", `message larger than ${limits.maxMessageBytes} bytes`);
  let partsSeen = 0;
  const parse = (raw: Uint8Array, depth: number): MimeEntity => {
    const { headerEnd, bodyStart } = splitHeaderBlock(raw, limits);
    const headers = new MimeHeaders(parseHeaderFields(latin1.decode(raw.subarray(0, headerEnd)), limits));
    const contentType = parseHeaderValue(headers.get("content-type") ?? "text/plain", limits);
    const mediaType = contentType.value.toLowerCase();
    const body = raw.subarray(bodyStart);
    let parts: MimeEntity[] = [];
    if (mediaType.startsWith("multipart/")) {
      if (depth >= limits.maxDepth) throw new As2Error("too-large", `multiparts nested deeper than ${limits.maxDepth}`);
      const boundary = contentType.parameters.get("boundary");
      if (boundary === undefined) throw malformed(`${mediaType} without a boundary parameter`);
      const rawParts = splitMultipart(body, boundary);
      partsSeen += rawParts.length;
      if (partsSeen > limits.maxParts) throw new As2Error("too-large", `more than ${limits.maxParts} body parts`);
      parts = rawParts.map((part) => parse(part, depth + 1));
    }
    return { headers, raw, body, mediaType, parameters: contentType.parameters, parts };
  };
  return parse(bytes, 0);
}

/** The body with its Content-Transfer-Encoding undone: base64 decoded, 7bit, 8bit and binary as they are. */
export function decodedBody(entity: MimeEntity): Uint8Array {
  const encoding = (entity.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return decodeBase64(entity.body);
  if (encoding === "7bit" || encoding === "8bit" || encoding === "binary") return entity.body;
  throw malformed(`Content-Transfer-Encoding ${JSON.stringify(encoding)} is not accepted (base64, binary, 8bit or 7bit)`);
}

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUE = new Int16Array(256).fill(-1);
for (let i = 0; i < BASE64_ALPHABET.length; i++) BASE64_VALUE[BASE64_ALPHABET.charCodeAt(i)] = i;

/** Strict base64 (RFC 2045 section 6.8): line breaks and spaces are skipped, any other character outside the alphabet is refused. */
export function decodeBase64(encoded: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.floor((encoded.length * 3) / 4) + 3);
  let length = 0;
  let accumulator = 0;
  let bits = 0;
  let padding = 0;
  for (const byte of encoded) {
    if (byte === CR || byte === LF || byte === 32 || byte === 9) continue;
    if (byte === 61) {
      padding++;
      continue;
    }
    const value = BASE64_VALUE[byte]!;
    if (value === -1 || padding > 0) throw malformed("body is not valid base64");
    accumulator = ((accumulator << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (accumulator >> bits) & 0xff;
    }
  }
  if (padding > 2 || bits >= 6) throw malformed("body is not valid base64");
  return out.slice(0, length);
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 in lines of 76 characters (RFC 2045 section 6.8), as a MIME body. */
export function encodeBase64Lines(bytes: Uint8Array): string {
  const encoded = encodeBase64(bytes);
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join("\r\n");
}

/** Every line break as CRLF (RFC 5751 section 3.1.1): bare LFs, as some senders write them, become CRLF. */
export function toCanonicalCrlf(bytes: Uint8Array): Uint8Array {
  let bareLineFeeds = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF && (i === 0 || bytes[i - 1] !== CR)) bareLineFeeds++;
  if (bareLineFeeds === 0) return bytes;
  const out = new Uint8Array(bytes.length + bareLineFeeds);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF && (i === 0 || bytes[i - 1] !== CR)) out[length++] = CR;
    out[length++] = bytes[i]!;
  }
  return out;
}

export type HeaderFields = readonly (readonly [name: string, value: string])[];

function assertHeaderSafe(name: string, value: string): void {
  if (!TOKEN_CHAR.test(name) || /[\r\n]/.test(value)) throw new Error(`header ${JSON.stringify(name)} would break the MIME structure`);
}

/** An entity with CRLF line breaks: its header fields, an empty line, its body (given already transfer-encoded). */
export function buildEntity(headers: HeaderFields, body: Uint8Array | string): Uint8Array {
  for (const [name, value] of headers) assertHeaderSafe(name, value);
  const head = `${headers.map(([name, value]) => `${name}: ${value}`).join("\r\n")}\r\n\r\n`;
  return concatBytes([bytesOf(head), typeof body === "string" ? bytesOf(body) : body]);
}

/** A multipart body from whole entities, with a boundary that none of them contains. */
export function buildMultipartBody(parts: readonly Uint8Array[], boundary: string): Uint8Array {
  const delimiter = bytesOf(`--${boundary}`);
  if (parts.some((part) => indexOfBytes(part, delimiter) !== -1)) throw new Error("boundary occurs in a body part");
  const chunks: Uint8Array[] = [];
  for (const part of parts) chunks.push(bytesOf(`--${boundary}\r\n`), part, bytesOf("\r\n"));
  chunks.push(bytesOf(`--${boundary}--\r\n`));
  return concatBytes(chunks);
}

/** A boundary that cannot collide with base64 content (it contains characters base64 lacks). */
export function newBoundary(): string {
  return `----=_Medparts_${crypto.randomUUID()}`;
}

export function quoteParameter(value: string): string {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
