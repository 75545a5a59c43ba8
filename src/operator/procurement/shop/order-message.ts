import { centsToText } from "../../../platform/money";
import type { Connection } from "../connections";
import { cxmlDocument, el, money } from "../cxml";
import { REQUIRED_FIELD_PREFIX } from "../items";
import type { CartLine, PunchOutOperation } from "../sessions";

/**
 * The PunchOutOrderMessage "Transfer cart" posts to the suite's BrowserFormPost URL: one ItemIn per cart line with its
 * quote (SupplierPartAuxiliaryID), so the OrderRequest that follows is held to it. Validated against the cXML 1.2.063 DTD
 * in test/cxml/outbound.node.test.ts.
 */

/** UNSPSC segment 42 (Medical Equipment and Accessories and Supplies): the catalog keeps no finer code yet. */
export const DEFAULT_UNSPSC = "42000000";

/** UN/CEFACT Recommendation 20 codes for the units of measure offers use (EA, BX...); anything else as sent, upper-cased. */
const UN_CEFACT: Record<string, string> = { EA: "EA", BX: "BX", CS: "CS", PK: "PK", KT: "KT", PR: "PR", ST: "SET", RL: "RO" };
export const unitOfMeasureCode = (unit: string) => UN_CEFACT[unit.toUpperCase()] ?? (unit.toUpperCase() || "EA");

export interface OrderMessageInput {
  connection: Pick<Connection, "buyerIdentities" | "supplierIdentity" | "mode">;
  buyerCookie: string;
  operation: PunchOutOperation;
  cart: CartLine[];
  now?: Date;
}

const credential = (party: { domain: string; identity: string }) =>
  el("Credential", { domain: party.domain }, el("Identity", {}, party.identity));

export function punchOutOrderMessage(input: OrderMessageInput): string {
  const { connection, cart } = input;
  const totalCents = cart.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const header = el(
    "Header",
    {},
    el("From", {}, credential(connection.supplierIdentity)),
    el("To", {}, connection.buyerIdentities.map(credential)),
    el("Sender", {}, credential(connection.supplierIdentity), el("UserAgent", {}, "Medparts PunchOut")),
  );
  const items = cart.map((line, i) =>
    el(
      "ItemIn",
      { quantity: line.quantity, lineNumber: i + 1 },
      el("ItemID", {}, el("SupplierPartID", {}, line.productId), el("SupplierPartAuxiliaryID", {}, line.priceOptionId)),
      el(
        "ItemDetail",
        {},
        el("UnitPrice", {}, money(centsToText(line.unitPriceCents))),
        el("Description", { "xml:lang": "en-US" }, line.description || line.productId),
        el("UnitOfMeasure", {}, unitOfMeasureCode(line.unitOfMeasure)),
        el("Classification", { domain: "UNSPSC" }, DEFAULT_UNSPSC),
        line.manufacturerPartId ? el("ManufacturerPartID", {}, line.manufacturerPartId) : null,
        line.manufacturerName ? el("ManufacturerName", {}, line.manufacturerName) : null,
        line.leadTimeDays !== null ? el("LeadTime", {}, line.leadTimeDays) : null,
        line.purchaseType !== "buy" ? el("Extrinsic", { name: "purchaseType" }, line.purchaseType) : null,
        (line.requiredFields ?? []).map((field) => el("Extrinsic", { name: `${REQUIRED_FIELD_PREFIX}${field.fieldId}` }, field.value)),
      ),
    ),
  );
  const message = el(
    "Message",
    connection.mode === "test" ? { deploymentMode: "test" } : {},
    el(
      "PunchOutOrderMessage",
      {},
      el("BuyerCookie", {}, input.buyerCookie),
      el(
        "PunchOutOrderMessageHeader",
        { operationAllowed: input.operation === "inspect" ? "inspect" : "edit" },
        el("Total", {}, money(centsToText(totalCents))),
      ),
      items,
    ),
  );
  return cxmlDocument([header, message], input.now ? { now: input.now } : {});
}
