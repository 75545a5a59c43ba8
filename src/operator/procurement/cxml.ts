import type { XmlElement } from "./xml";

/**
 * Reading inbound cXML trees (lenient: real suites' documents often break their DTD) and writing outbound documents
 * (strict: each kind validates against the cXML 1.2.063 DTDs in test/cxml). Writing goes through `el`, which escapes every
 * text and attribute, so no caller's text can become markup.
 */

export const CXML_VERSION = "1.2.063";
export const CXML_DTD = (file = "cXML.dtd") => `http://xml.cxml.org/schemas/cXML/${CXML_VERSION}/${file}`;

// Reading ----------------------------------------------------------------------------------------------------------------

export const childrenNamed = (parent: XmlElement | undefined, name: string): XmlElement[] =>
  parent?.children.filter((child) => child.name === name) ?? [];
export const childNamed = (parent: XmlElement | undefined, name: string): XmlElement | undefined =>
  parent?.children.find((child) => child.name === name);
/** The element at a path of child names below `parent`, or undefined. */
export const at = (parent: XmlElement | undefined, ...names: string[]): XmlElement | undefined =>
  names.reduce<XmlElement | undefined>((element, name) => childNamed(element, name), parent);
/** An element's text with the whitespace around it trimmed ("" when absent). */
export const textOf = (element: XmlElement | undefined): string => element?.text.trim() ?? "";

export interface CxmlCredential {
  domain: string;
  identity: string;
  sharedSecret: string | null;
}

export const credentialsOf = (party: XmlElement | undefined): CxmlCredential[] =>
  childrenNamed(party, "Credential").map((credential) => ({
    domain: credential.attributes.domain ?? "",
    identity: textOf(childNamed(credential, "Identity")),
    sharedSecret: childNamed(credential, "SharedSecret") ? textOf(childNamed(credential, "SharedSecret")) : null,
  }));

// Writing ----------------------------------------------------------------------------------------------------------------

/** A piece of markup: only `el`, `raw` and `document` make one, so a plain string is always escaped. */
export class Markup {
  constructor(readonly xml: string) {}
}
type Child = Markup | string | number | null | undefined | false | readonly Child[];

const TEXT_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
// Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE, U+FFFF) are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const NOT_XML_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const escapeXml = (text: string) =>
  text
    .replace(NOT_XML_CHARACTERS, "")
    .replace(LONE_SURROGATES, "")
    .replace(/[&<>"']/g, (char) => TEXT_ESCAPES[char]!);

const flatten = (children: readonly Child[]): string =>
  children
    .map((child) =>
      child === null || child === undefined || child === false
        ? ""
        : child instanceof Markup
          ? child.xml
          : Array.isArray(child)
            ? flatten(child)
            : escapeXml(String(child)),
    )
    .join("");

/** An element; attributes whose value is undefined or null are left out. */
export function el(name: string, attributes: Record<string, string | number | null | undefined> = {}, ...children: Child[]): Markup {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join("");
  const inner = flatten(children);
  return new Markup(inner === "" ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`);
}

/** A unique payloadID, as cXML recommends: time, random part, the sender's domain. */
export const newPayloadId = (now = new Date()) =>
  `${now.getTime()}.${crypto.getRandomValues(new Uint32Array(2)).join(".")}@medparts.example`;

/** cXML's timestamp: ISO 8601 with the zone, to the second. */
export const cxmlTimestamp = (now = new Date()) => now.toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** A whole cXML document with its DOCTYPE (which a receiver may read: it names the published DTD, never fetched here). */
export function cxmlDocument(body: Markup | Markup[], options: { payloadId?: string; now?: Date; dtd?: string } = {}): string {
  const now = options.now ?? new Date();
  const root = el("cXML", { payloadID: options.payloadId ?? newPayloadId(now), timestamp: cxmlTimestamp(now), "xml:lang": "en-US" }, body);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE cXML SYSTEM "${options.dtd ?? CXML_DTD()}">\n${root.xml}\n`;
}

/** cXML Status codes Medparts answers with (cXML User's Guide, "Status"). */
export const STATUS_TEXT = {
  200: "OK",
  201: "Accepted",
  400: "Bad Request",
  401: "Unauthorized",
  406: "Not Acceptable",
  409: "Conflict",
  413: "Request Entity Too Large",
  500: "Internal Server Error",
} as const;
export type CxmlStatusCode = keyof typeof STATUS_TEXT;

/** A Response document: its Status (with a detail for a person) and, on success, the response element. */
export function responseDocument(code: CxmlStatusCode, detail?: string, body?: Markup): string {
  return cxmlDocument(el("Response", {}, el("Status", { code, text: STATUS_TEXT[code] }, detail ?? ""), body));
}

/** An amount of money as cXML writes it: a decimal with the currency attribute. */
export const money = (amount: string, currency = "USD") => el("Money", { currency }, amount);

/**
 * A decimal text as suites write it -> cents, or null when it is not one or has non-zero digits past the cents (never a
 * float on the way). More lenient than the purchasing API's textToCents (src/platform/money.ts): whitespace around,
 * a sign, zeros past the cents ("12.500") are read, as real documents carry them.
 */
export function centsOf(text: string): number | null {
  const match = /^\s*(-?)(\d{1,13})(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return null;
  const fraction = match[3] ?? "";
  if (/[^0]/.test(fraction.slice(2))) return null;
  const cents = Number(match[2]) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}
