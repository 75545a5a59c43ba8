import { el } from "../../src/operator/procurement/cxml";
import type { XmlElement } from "../../src/operator/procurement/xml";
import { REQUESTER } from "../bench/scenarios";

/**
 * The procurement suite's side of cXML, for `npm run demo -- --punchout` and the tests that play a suite: reading what
 * Medparts sends (the shop's pages, a PunchOutOrderMessage) and the OrderRequest a suite makes of a transferred cart.
 */

/** A procurement connection of the demo tenant's requester (REQUESTER, scripts/bench/scenarios.ts): the body of its POST. */
export const demoConnection = (
  name: string,
  buyerIdentity: string,
  supplierIdentity: { domain: string; identity: string },
  documentUrl: string | null,
) => ({
  tenantId: 1,
  name,
  buyerIdentities: [{ domain: "NetworkID", identity: buyerIdentity }],
  supplierIdentity,
  facilityId: REQUESTER.facilityId,
  requesterId: REQUESTER.requesterId,
  userId: REQUESTER.userId,
  shipToAddressId: REQUESTER.shippingAddressId,
  billToAddressId: REQUESTER.billingAddressId,
  documentUrl,
});

/** The element at a path of child names below `root`. */
export const findIn = (root: XmlElement | undefined, ...names: string[]): XmlElement | undefined =>
  names.reduce<XmlElement | undefined>((element, name) => element?.children.find((child) => child.name === name), root);

/** An HTML attribute's text as the browser reads it (the shop escapes &, <, >, " and '). */
export const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The OrderRequest a suite makes of a transferred cart: each ItemIn as an ItemOut with its quantity, ids (the quote
 * included), unit price and Extrinsics (the quote's custom fields), numbered by `lineNumber`.
 */
export function orderRequestOfCart(orderId: string, items: XmlElement[], lineNumber = (i: number) => i + 1): string {
  const text = (item: XmlElement, ...path: string[]) => findIn(item, ...path)?.text ?? "";
  const itemOuts = items.map((item, i) =>
    el(
      "ItemOut",
      { quantity: item.attributes.quantity, lineNumber: lineNumber(i) },
      el(
        "ItemID",
        {},
        el("SupplierPartID", {}, text(item, "ItemID", "SupplierPartID")),
        el("SupplierPartAuxiliaryID", {}, text(item, "ItemID", "SupplierPartAuxiliaryID")),
      ),
      el(
        "ItemDetail",
        {},
        el("UnitPrice", {}, el("Money", { currency: "USD" }, text(item, "ItemDetail", "UnitPrice", "Money"))),
        el("Description", { "xml:lang": "en" }, text(item, "ItemDetail", "Description")),
        el("UnitOfMeasure", {}, text(item, "ItemDetail", "UnitOfMeasure")),
        el("Classification", { domain: "UNSPSC" }, text(item, "ItemDetail", "Classification")),
        (findIn(item, "ItemDetail")?.children ?? [])
          .filter((child) => child.name === "Extrinsic")
          .map((extrinsic) => el("Extrinsic", { name: extrinsic.attributes.name }, extrinsic.text)),
      ),
    ),
  );
  const header = el(
    "OrderRequestHeader",
    { orderID: orderId, orderDate: new Date().toISOString(), type: "new" },
    el("Total", {}, el("Money", { currency: "USD" }, "0")),
  );
  return el("OrderRequest", {}, header, itemOuts).xml;
}
