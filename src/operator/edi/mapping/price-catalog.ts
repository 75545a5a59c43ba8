import type { Segment, TransactionSet } from "../x12/document";
import { element } from "../x12/elements";
import { fromScaled, toScaled } from "./decimal";
import { loopAfter } from "./loops";

/**
 * The X12 832 (price/sales catalog) a partner sends, read into the rows of a price file (`{ sku, ...OfferInput }`,
 * docs/api.md "Offers and contract prices"), to go through a price file job of the vendor as any file does (its
 * progress, its rejected rows). Per LIN: the SKU is the VC id, the product its GTIN (UK), the price CTP*CAT (the list
 * price) or else the line's first CTP, its unit CTP05 (the pack's size PO402 when the unit is not EA), the dates
 * DTM*007 (effective) and DTM*036 (expiration). What an 832 does not carry (condition, purchase choice, warranty,
 * lead time) comes from `defaults`, the partner's.
 */

export interface OfferDefaults {
  condition: string;
  purchaseChoice: string;
  warranty: string;
  leadTimeDays: number;
}

/**
 * What a partner's 832 offers are when it does not say (an 832 carries no condition, purchase choice, warranty or lead
 * time): new OEM parts to buy, the manufacturer's warranty, three days. The vendor changes an offer's through the offers API.
 */
export const EDI_OFFER_DEFAULTS: OfferDefaults = {
  condition: "New OEM",
  purchaseChoice: "Buy",
  warranty: "Manufacturer's warranty",
  leadTimeDays: 3,
};

export interface PriceFileRow extends OfferDefaults {
  sku: string;
  gtin?: string;
  /** The offers API's form of a price: a decimal string of two places, exact. */
  price: string;
  unitOfMeasure: string;
  packQuantity?: number;
  effectiveFrom?: string;
  effectiveTo?: string;
}

const startOfDay = (ccyymmdd: string) =>
  /^\d{8}$/.test(ccyymmdd) ? `${ccyymmdd.slice(0, 4)}-${ccyymmdd.slice(4, 6)}-${ccyymmdd.slice(6)}T00:00:00.000Z` : undefined;

function qualified(segment: Segment, qualifier: string): string | undefined {
  for (let position = 2; element(segment, position) !== ""; position += 2) {
    if (element(segment, position) === qualifier) return element(segment, position + 1);
  }
  return undefined;
}

export function priceFileFrom832(
  set: TransactionSet,
  defaults: OfferDefaults,
): { rows: PriceFileRow[]; problems: { segment: string; message: string }[] } {
  const body = set.segments;
  const problems: { segment: string; message: string }[] = [];
  const rows: PriceFileRow[] = [];
  body.forEach((lin, index) => {
    if (lin.id !== "LIN") return;
    const following = loopAfter(body, index, ["LIN", "CTT", "SE"]);
    const sku = qualified(lin, "VC");
    if (!sku) {
      problems.push({
        segment: "LIN",
        message: `LIN ${element(lin, 1)} has no vendor catalog number (VC): a price file row needs its SKU.`,
      });
      return;
    }
    const prices = following.filter((segment) => segment.id === "CTP");
    const price = prices.find((segment) => element(segment, 2) === "CAT") ?? prices[0];
    if (!price) {
      problems.push({ segment: "CTP", message: `LIN ${element(lin, 1)} (${sku}) has no price.` });
      return;
    }
    const unit = element(price, 5) || "EA";
    const po4 = following.find((segment) => segment.id === "PO4");
    const effective = following.find((segment) => segment.id === "DTM" && element(segment, 1) === "007");
    const expiration = following.find((segment) => segment.id === "DTM" && element(segment, 1) === "036");
    const packSize = po4 ? Number(element(po4, 2)) : Number.NaN;
    const gtin = qualified(lin, "UK");
    let priceText: string;
    try {
      priceText = fromScaled(toScaled(element(price, 3)), 2);
    } catch {
      problems.push({
        segment: "CTP",
        message: `LIN ${element(lin, 1)} (${sku}): CTP03 ${JSON.stringify(element(price, 3))} is not a price.`,
      });
      return;
    }
    rows.push({
      sku,
      ...(gtin ? { gtin } : {}),
      ...defaults,
      price: priceText,
      unitOfMeasure: unit,
      ...(unit !== "EA" && Number.isInteger(packSize) && packSize > 0 ? { packQuantity: packSize } : {}),
      ...(effective && startOfDay(element(effective, 2)) ? { effectiveFrom: startOfDay(element(effective, 2))! } : {}),
      ...(expiration && startOfDay(element(expiration, 2)) ? { effectiveTo: startOfDay(element(expiration, 2))! } : {}),
    });
  });
  return { rows, problems };
}
