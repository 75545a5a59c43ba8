import type { CustomFieldDefinition, PurchaseTerms, PurchaseType } from "../../db/schema";
import { Remembered } from "../../platform/remembered";

/**
 * What an order of a signed quote reads besides the quote itself: the offer revision it names (with its vendor's name
 * and return policy) and the product's part number and title. Issuing a quote remembers both in the isolate that
 * issued it, so that a tenant's order of it reads neither and takes one call to its store: the key's lock,
 * the checks and the write (docs/tenant-stores.md, "Order creation"). An offer revision never changes in place; a
 * product's part number and title, and a vendor's name and return policy, are taken as the isolate last read them, at
 * most QUOTED_REFERENCES_SECONDS ago (docs/decisions.md). Whatever is not remembered is read as before.
 */
export const QUOTED_REFERENCES_SECONDS = 300;

/** An offer revision as a quote of it is ordered. */
export interface QuotedOffer {
  productId: string;
  offerId: number;
  vendorId: number;
  vendorName: string;
  condition: string;
  warranty: string;
  purchaseChoice: string;
  leadTimeDays: number;
  returnPolicy: string;
  customFields: CustomFieldDefinition[];
  purchaseType: PurchaseType;
  purchaseTerms: PurchaseTerms | null;
}

/** A product as an order line names it. */
export interface OrderedProduct {
  id: string;
  partNumber: string;
  title: string;
}

const offers = new Remembered<QuotedOffer>();
const products = new Remembered<OrderedProduct>();

export function rememberQuotedOffer(offer: QuotedOffer): void {
  offers.set(String(offer.offerId), offer);
}

export function rememberOrderedProduct(product: OrderedProduct): void {
  products.set(product.id, { id: product.id, partNumber: product.partNumber, title: product.title });
}

/** The values remembered for `ids`, and the ids that must be read (every one of them unless `use`). */
function recall<K extends string | number, V>(memory: Remembered<V>, ids: readonly K[], use: boolean): { found: Map<K, V>; missing: K[] } {
  const found = new Map<K, V>();
  const missing: K[] = [];
  for (const id of new Set(ids)) {
    const value = use ? memory.peek(String(id), QUOTED_REFERENCES_SECONDS) : undefined;
    if (value === undefined) missing.push(id);
    else found.set(id, value);
  }
  return { found, missing };
}

export const recallQuotedOffers = (ids: readonly number[], use: boolean) => recall(offers, ids, use);
export const recallOrderedProducts = (ids: readonly string[], use: boolean) => recall(products, ids, use);

/** Tests share an isolate across files whose databases reuse ids: each file starts with nothing remembered. */
export function forgetQuotedReferences(): void {
  offers.clear();
  products.clear();
}
