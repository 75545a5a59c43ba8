import { SaxesParser } from "saxes";

/**
 * The hardened reader of inbound cXML (docs/decisions.md; issue 45): a document from a procurement suite becomes a small
 * element tree, or is refused with a reason that names where. It never fetches a DTD or anything else (saxes reads no
 * DTD), never expands an entity other than XML's five and character references (an entity a DOCTYPE declares is an
 * "undefined entity": billion laughs, quadratic blowup and XXE end there), refuses a DOCTYPE with an internal subset
 * outright, takes UTF-8 only (strictly decoded), and bounds the document's bytes, depth, attributes and text.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (CDATA included), as written: whitespace between children included. */
  text: string;
  line: number;
}

export const XML_LIMITS = {
  /** A cXML OrderRequest of a thousand lines is about 2 MB. */
  bytes: 5 * 1024 * 1024,
  depth: 40,
  attributes: 64,
  /** Text of one element: a PunchOut BuyerCookie, an Extrinsic or a comment a buyer wrote. */
  textBytes: 256 * 1024,
  elements: 100_000,
};
export type XmlLimits = typeof XML_LIMITS;

/** A document refused: `path` is where (the element path, e.g. /cXML/Request/OrderRequest), `tooLarge` when by its size. */
export class XmlRefused extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly tooLarge = false,
  ) {
    super(`${message} (at ${path})`);
  }
}

const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];

export function readXml(bytes: Uint8Array, limits: XmlLimits = XML_LIMITS): XmlElement {
  if (bytes.byteLength > limits.bytes) throw new XmlRefused("/", `the document is over ${limits.bytes} bytes`, true);
  if (UTF16_BOMS.some(([a, b]) => bytes[0] === a && bytes[1] === b)) {
    throw new XmlRefused("/", "the document is UTF-16: send it as UTF-8");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new XmlRefused("/", "the document is not valid UTF-8");
  }
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  const path = () => `/${stack.map((e) => e.name).join("/")}`;
  const refuse = (message: string): never => {
    throw new XmlRefused(path(), message);
  };
  parser.on("doctype", (doctype) => {
    if (doctype.includes("[")) refuse("a DOCTYPE with an internal subset (entity or element declarations) is not accepted");
  });
  parser.on("opentag", (tag) => {
    if (stack.length >= limits.depth) refuse(`nesting deeper than ${limits.depth} elements`);
    if (++elements > limits.elements) refuse(`more than ${limits.elements} elements`);
    const names = Object.keys(tag.attributes);
    if (names.length > limits.attributes) refuse(`more than ${limits.attributes} attributes on <${tag.name}>`);
    const element: XmlElement = { name: tag.name, attributes: {}, children: [], text: "", line: parser.line };
    for (const name of names) element.attributes[name] = String(tag.attributes[name]);
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  const addText = (value: string) => {
    const element = stack.at(-1);
    if (!element) return;
    if (element.text.length + value.length > limits.textBytes) refuse(`text of <${element.name}> over ${limits.textBytes} characters`);
    element.text += value;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", () => void stack.pop());
  parser.on("error", (error) => refuse(error.message));
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof XmlRefused) throw error;
    throw new XmlRefused(path(), error instanceof Error ? error.message : String(error));
  }
  if (!root) throw new XmlRefused("/", "the document has no root element");
  return root;
}
