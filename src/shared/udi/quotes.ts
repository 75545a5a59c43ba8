import type { Principal } from "../../platform/principal";
import {
  type EligibleOffer,
  type EligibleRow,
  eligibleOffersByProduct,
  eligibleOffersSql,
  eligibleOffersStatement,
  loadEligibleOffersOf,
} from "../catalog/eligible-prices";
import { PRODUCTS_OF_CODES } from "../catalog/product-codes";
import { issuePriceOptions, priceOptionKeys } from "../catalog/quotes";
import { presentPriceOption } from "../catalog/routes";
import type { Resolution, ScanLookup } from "./resolve";

/**
 * Scan to order's quotes in the round trip of the catalog lookup (docs/decisions.md): beside it, the main database
 * reads the eligible offers of every product its copy of the catalog's codes names for the scanned codes
 * (src/shared/catalog/product-codes.ts). Only the products the catalog resolves are quoted, with the offers read for them; a
 * product the copy did not name (a code the copy lacks or names another product by) has its offers read after the
 * lookup, so a lagging copy costs a round trip, never a wrong or missing quote.
 */

export interface QuoteScope {
  tenantId: number;
  requesterId: number;
  facilityId: number;
}

export interface OffersOfCodes {
  /** The products the copy named: their offers are all in `offers` (none when absent). */
  named: Set<string>;
  offers: Map<string, EligibleOffer[]>;
}

export const ELIGIBLE_OFFERS_OF_CODES_SQL = eligibleOffersSql(`IN (${PRODUCTS_OF_CODES})`);

/** The named products and their eligible offers, one batch on the main database. */
export async function readOffersOfCodes(
  db: D1Database,
  lookups: readonly ScanLookup[],
  scope: QuoteScope,
  now: Date,
): Promise<OffersOfCodes> {
  if (lookups.length === 0) return { named: new Set(), offers: new Map() };
  const json = JSON.stringify(lookups);
  const [named, offers] = await db.batch<Record<string, unknown>>([
    db.prepare(PRODUCTS_OF_CODES).bind(json),
    eligibleOffersStatement(db, ELIGIBLE_OFFERS_OF_CODES_SQL, json, scope, now),
  ]);
  return {
    named: new Set(named!.results.map((row) => row.product_id as string)),
    offers: eligibleOffersByProduct(offers!.results as unknown as EligibleRow[]),
  };
}

/** The price options of every product resolved, issued as catalog detail issues them (a withdrawn product has none). */
export async function priceOptionsOf(
  env: { DB: D1Database; QUOTE_SIGNING_KEY: string; QUOTE_SIGNING_KEY_PREVIOUS?: string },
  resolutions: readonly Resolution[],
  read: OffersOfCodes,
  scope: QuoteScope,
  now: Date,
  mode: Principal["mode"],
) {
  const products = new Map(
    resolutions.flatMap((r) => (r.product && r.product.status !== "withdrawn" ? [[r.product.id, r.product] as const] : [])),
  );
  const quotable = [...products.keys()];
  const unread = quotable.filter((productId) => !read.named.has(productId));
  const offers = new Map([...read.offers, ...(await loadEligibleOffersOf(env.DB, unread, scope, now))]);
  const keys = priceOptionKeys(env, mode);
  const quoteScope = { tenantId: scope.tenantId, requesterContactId: scope.requesterId, facilityId: scope.facilityId };
  const issued = await Promise.all(
    quotable.map((productId) => issuePriceOptions(keys, quoteScope, products.get(productId)!, offers.get(productId) ?? [], now)),
  );
  return new Map(quotable.map((productId, i) => [productId, issued[i]!.map(presentPriceOption)]));
}
