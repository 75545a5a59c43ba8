import { expect } from "vitest";
import { readXml, type XmlElement } from "../../src/operator/procurement/xml";
import { BASE_URL, call, json, operatorTokenFor } from "./api";
import { dispatch } from "./dispatch";
import { JSMITH, type Orderer } from "./orders";

/** Procurement connections and cXML documents as a suite sends them (docs/api.md, "Procurement systems (cXML)"). */

export const CXML_URL = `${BASE_URL}/cxml`;
export const SUPPLIER = { domain: "NetworkID", identity: "AN-MEDPARTS" };
export const FORM_POST_URL = "https://suite.example.com/punchout/return?session=42";

export interface TestConnection {
  id: number;
  clientId: string;
  secret: string;
  buyer: { domain: string; identity: string };
  mode: "live" | "test";
}

let made = 0;

/** A connection's mapping for the orderer (the body of PUT, and of POST with tenantId and mode). */
export const connectionMapping = (buyer: { domain: string; identity: string }, who: Orderer = JSMITH, name = "Test suite") => ({
  name,
  buyerIdentities: [buyer],
  supplierIdentity: SUPPLIER,
  facilityId: who.facilityId,
  requesterId: who.requesterContactId,
  userId: who.userId,
  shipToAddressId: who.shippingAddressId,
  billToAddressId: who.billingAddressId,
});

/** A connection of the orderer's tenant with a fresh buyer identity, made through the admin API. */
export async function connect(
  who: Orderer = JSMITH,
  options: { mode?: "live" | "test"; extra?: Record<string, unknown>; buyer?: { domain: string; identity: string } } = {},
): Promise<TestConnection> {
  made += 1;
  const buyer = options.buyer ?? { domain: "NetworkID", identity: `AN-BUYER-${who.tenantId}-${made}-${crypto.randomUUID().slice(0, 8)}` };
  const res = await call(await operatorTokenFor(), "/admin/api/procurement-connections", {
    method: "POST",
    json: { tenantId: who.tenantId, mode: options.mode ?? "live", ...connectionMapping(buyer, who, `Suite ${made}`), ...options.extra },
  });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return {
    id: body.data.connection.id,
    clientId: body.data.connection.clientId,
    secret: body.data.sharedSecret,
    buyer,
    mode: options.mode ?? "live",
  };
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A cXML Request document from the connection's buyer; `secret` overrides the SharedSecret. */
export function requestDocument(
  connection: TestConnection,
  body: string,
  options: { secret?: string; to?: string; payloadId?: string } = {},
) {
  const credential = (party: { domain: string; identity: string }, secret?: string) =>
    `<Credential domain="${xmlText(party.domain)}"><Identity>${xmlText(party.identity)}</Identity>${secret !== undefined ? `<SharedSecret>${xmlText(secret)}</SharedSecret>` : ""}</Credential>`;
  const payloadId = options.payloadId ?? `${Date.now()}.${crypto.randomUUID()}@suite.example.com`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.063/cXML.dtd">
<cXML payloadID="${payloadId}" timestamp="2026-11-29T10:00:00+00:00" xml:lang="en-US">
<Header><From>${credential(connection.buyer)}</From><To>${credential({ domain: SUPPLIER.domain, identity: options.to ?? SUPPLIER.identity })}</To>
<Sender>${credential(connection.buyer, options.secret ?? connection.secret)}<UserAgent>Test suite</UserAgent></Sender></Header>
<Request deploymentMode="${connection.mode === "test" ? "test" : "production"}">${body}</Request>
</cXML>`;
}

export const profileRequest = () => "<ProfileRequest/>";

export function setupRequest(operation = "create", items = "", cookie = "cookie-123") {
  return `<PunchOutSetupRequest operation="${operation}"><BuyerCookie>${xmlText(cookie)}</BuyerCookie><BrowserFormPost><URL>${xmlText(FORM_POST_URL)}</URL></BrowserFormPost><Contact role="endUser"><Name xml:lang="en">J Smith</Name></Contact><SupplierSetup><URL>${CXML_URL}</URL></SupplierSetup>${items}</PunchOutSetupRequest>`;
}

export interface OrderLine {
  productId: string;
  priceOptionId?: string;
  quantity: number;
  price: string;
  currency?: string;
  /** ItemDetail Extrinsics (a PunchOut cart's `requiredField:{fieldId}` values, which suites carry to the order). */
  extrinsics?: Record<string, string>;
}

export const itemOut = (line: OrderLine, i: number) =>
  `<ItemOut quantity="${line.quantity}" lineNumber="${i + 1}"><ItemID><SupplierPartID>${xmlText(line.productId)}</SupplierPartID>${
    line.priceOptionId ? `<SupplierPartAuxiliaryID>${xmlText(line.priceOptionId)}</SupplierPartAuxiliaryID>` : ""
  }</ItemID><ItemDetail><UnitPrice><Money currency="${line.currency ?? "USD"}">${line.price}</Money></UnitPrice><Description xml:lang="en">Part</Description><UnitOfMeasure>EA</UnitOfMeasure><Classification domain="UNSPSC">42000000</Classification>${Object.entries(
    line.extrinsics ?? {},
  )
    .map(([name, value]) => `<Extrinsic name="${xmlText(name)}">${xmlText(value)}</Extrinsic>`)
    .join("")}</ItemDetail></ItemOut>`;

export function orderRequest(orderId: string, lines: OrderLine[], options: { type?: string; addressId?: string } = {}) {
  const address = options.addressId
    ? `<ShipTo><Address addressID="${xmlText(options.addressId)}"><Name xml:lang="en">Dock</Name></Address></ShipTo>`
    : "";
  return `<OrderRequest><OrderRequestHeader orderID="${xmlText(orderId)}" orderDate="2026-11-29T10:00:00+00:00" type="${options.type ?? "new"}"><Total><Money currency="USD">0.00</Money></Total>${address}<Comments>Via the suite</Comments></OrderRequestHeader>${lines.map(itemOut).join("")}</OrderRequest>`;
}

export interface CxmlAnswer {
  http: number;
  code: number;
  text: string;
  root: XmlElement;
  body: string;
}

/** POSTs a document to /cxml and reads the cXML Response. */
export async function postCxml(document: string | Uint8Array, headers: Record<string, string> = {}): Promise<CxmlAnswer> {
  const res = await dispatch(CXML_URL, { method: "POST", headers: { "Content-Type": "text/xml", ...headers }, body: document });
  const body = await res.text();
  expect(res.headers.get("Content-Type")).toMatch(/^text\/xml/);
  const root = readXml(new TextEncoder().encode(body));
  const status = root.children.find((child) => child.name === "Response")?.children.find((child) => child.name === "Status");
  expect(status, body).toBeDefined();
  return { http: res.status, code: Number(status!.attributes.code), text: status!.text.trim(), root, body };
}

/** The element at a path of names below `root`. */
export { findIn as find } from "../../scripts/demo/cxml-suite";
