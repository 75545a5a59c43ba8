import { at, centsOf, childNamed, childrenNamed, textOf } from "./cxml";
import type { CartLine } from "./sessions";
import type { XmlElement } from "./xml";

/**
 * ItemOut elements (an OrderRequest's lines, an edit or inspect PunchOut's cart) read leniently: each line is read or
 * named with what is wrong with it, so one bad line never hides the others.
 */

export interface ItemOut {
  /** Where it is, for messages: /cXML/Request/OrderRequest/ItemOut[2] (lineNumber 20). */
  where: string;
  lineNumber: string;
  quantity: number;
  productId: string;
  priceOptionId: string;
  unitPriceCents: number;
  currency: string;
  description: string;
  unitOfMeasure: string;
  manufacturerPartId: string;
  manufacturerName: string;
  leadTimeDays: number | null;
  /** ItemDetail's Extrinsic elements by name: `requiredField:{fieldId}` ones carry a price option's custom fields. */
  extrinsics: Record<string, string>;
}

export const REQUIRED_FIELD_PREFIX = "requiredField:";

export function readItems(parent: XmlElement, path: string): { items: ItemOut[]; problems: string[] } {
  const items: ItemOut[] = [];
  const problems: string[] = [];
  childrenNamed(parent, "ItemOut").forEach((item, i) => {
    const lineNumber = item.attributes.lineNumber ?? String(i + 1);
    const where = `${path}/ItemOut[${i + 1}] (lineNumber ${lineNumber})`;
    const detail = childNamed(item, "ItemDetail");
    const quantityText = (item.attributes.quantity ?? "").trim();
    const quantity = /^\d{1,4}(\.0+)?$/.test(quantityText) ? Number.parseInt(quantityText, 10) : Number.NaN;
    const productId = textOf(at(item, "ItemID", "SupplierPartID"));
    const priceOptionId = textOf(at(item, "ItemID", "SupplierPartAuxiliaryID"));
    const money = at(detail, "UnitPrice", "Money");
    const unitPriceCents = centsOf(textOf(money));
    const mine: string[] = [];
    if (!Number.isInteger(quantity) || quantity < 1) mine.push(`quantity "${quantityText}" is not a whole number from 1 to 9999`);
    if (!productId) mine.push("ItemID/SupplierPartID is missing: order items from the Medparts PunchOut catalog");
    if (!priceOptionId) mine.push("ItemID/SupplierPartAuxiliaryID is missing: it carries the Medparts quote the item was added with");
    if (!detail) mine.push("ItemDetail is missing");
    else if (unitPriceCents === null) mine.push(`ItemDetail/UnitPrice/Money "${textOf(money)}" is not an amount with at most two decimals`);
    if (mine.length > 0) {
      problems.push(`${where}: ${mine.join("; ")}.`);
      return;
    }
    const extrinsics: Record<string, string> = {};
    for (const extrinsic of childrenNamed(detail, "Extrinsic")) {
      if (extrinsic.attributes.name) extrinsics[extrinsic.attributes.name] = textOf(extrinsic);
    }
    const leadTime = textOf(childNamed(detail, "LeadTime"));
    items.push({
      where,
      lineNumber,
      quantity,
      productId,
      priceOptionId,
      unitPriceCents: unitPriceCents!,
      currency: money?.attributes.currency ?? "USD",
      description: textOf(childNamed(detail, "Description")),
      unitOfMeasure: textOf(childNamed(detail, "UnitOfMeasure")) || "EA",
      manufacturerPartId: textOf(childNamed(detail, "ManufacturerPartID")),
      manufacturerName: textOf(childNamed(detail, "ManufacturerName")),
      leadTimeDays: /^\d{1,4}$/.test(leadTime) ? Number(leadTime) : null,
      extrinsics,
    });
  });
  return { items, problems };
}

/** An ItemOut back in a PunchOut cart (edit, inspect). */
export const cartLineOf = (item: ItemOut): CartLine => ({
  priceOptionId: item.priceOptionId,
  productId: item.productId,
  quantity: item.quantity,
  unitPriceCents: item.unitPriceCents,
  description: item.description.slice(0, 500),
  manufacturerName: item.manufacturerName.slice(0, 200),
  manufacturerPartId: item.manufacturerPartId.slice(0, 100),
  unitOfMeasure: item.unitOfMeasure.slice(0, 3),
  leadTimeDays: item.leadTimeDays,
  purchaseType: item.extrinsics.purchaseType ?? "buy",
  requiredFields: requiredFieldsOf(item),
});

/** The custom field values an item carries as `requiredField:{fieldId}` Extrinsics. */
export const requiredFieldsOf = (item: ItemOut) =>
  Object.entries(item.extrinsics)
    .filter(([name]) => name.startsWith(REQUIRED_FIELD_PREFIX))
    .map(([name, value]) => ({ fieldId: name.slice(REQUIRED_FIELD_PREFIX.length), value }));
