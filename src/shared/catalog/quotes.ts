import { and, eq, inArray, isNull, lte } from "drizzle-orm";
import { type Database, database } from "../../db/client";
import { quotes, vendorOffers, vendors } from "../../db/schema";
import type { Bindings } from "../../env";
import { deleteOldest } from "../../platform/housekeeping";
import type { Principal } from "../../platform/principal";
import type { EligibleOffer } from "./eligible-prices";
import { isSignedPriceOptionId, type PriceOptionKeys, readPriceOption, signPriceOption } from "./price-option-ids";
import {
  type OrderedProduct,
  type QuotedOffer,
  recallQuotedOffers,
  rememberOrderedProduct,
  rememberQuotedOffer,
} from "./quoted-references";

/**
 * Quotes (price options). Issued by /catalog/detail, valid 30 days, read by POST /orders (docs/architecture.md,
 * "Quotes without storage"). A quote is its id: the terms it does not share with its offer revision (price, scope,
 * agreement, time) are signed into it, and the offer revision it names is never changed in place, so detail writes
 * nothing and an order reads one row per offer. Quotes issued before (random ids stored in KV and in the tenant's
 * database, migrations/0002) are honoured until they expire.
 */

export const QUOTE_VALIDITY_SECONDS = 30 * 24 * 60 * 60;

export interface QuoteScope {
  tenantId: number;
  requesterContactId: number;
  facilityId: number;
}

export interface QuoteRecord extends QuoteScope, QuotedOffer {
  priceOptionId: string;
  priceCents: number;
  /** The buyer's contract price when the quote is one (it names a price agreement); null for a list price. */
  contractPriceCents: number | null;
  createdAt: string;
  expiresAt: string;
}

type QuoteEnv = Pick<Bindings, "DB" | "QUOTES" | "QUOTE_SIGNING_KEY" | "QUOTE_SIGNING_KEY_PREVIOUS">;

/**
 * The keys that sign and verify the price options of one mode. Test mode's are derived from live's, so a price option
 * issued in one mode is no price option in the other (its tenant's sandbox twin keeps its own orders: docs/decisions.md).
 */
export function priceOptionKeys(
  env: Pick<Bindings, "QUOTE_SIGNING_KEY" | "QUOTE_SIGNING_KEY_PREVIOUS">,
  mode: Principal["mode"] = "live",
): PriceOptionKeys {
  const ofMode = (key: string) => (mode === "live" ? key : `${key}:test-mode`);
  return {
    current: ofMode(env.QUOTE_SIGNING_KEY),
    previous: env.QUOTE_SIGNING_KEY_PREVIOUS === undefined ? undefined : ofMode(env.QUOTE_SIGNING_KEY_PREVIOUS),
  };
}

export const quoteKvKey = (priceOptionId: string) => `quote:${priceOptionId}`;

const expiryOf = (issuedAtSeconds: number) => new Date((issuedAtSeconds + QUOTE_VALIDITY_SECONDS) * 1000).toISOString();

/** A price option as detail shows it: the offer at its eligible price, with its id and expiry. */
export interface IssuedOption {
  priceOptionId: string;
  offer: EligibleOffer;
  expiresAt: string;
}

/**
 * Every eligible offer of `product` becomes a fresh quote bound to the caller's scope: signed, nothing stored. The
 * isolate remembers the offers and the product for an order of them (src/shared/catalog/quoted-references.ts).
 */
export async function issuePriceOptions(
  keys: PriceOptionKeys,
  scope: QuoteScope,
  product: OrderedProduct,
  offers: readonly EligibleOffer[],
  now = new Date(),
): Promise<IssuedOption[]> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  if (offers.length > 0) rememberOrderedProduct(product);
  for (const offer of offers) rememberQuotedOffer(quotedOfferOf(product.id, offer));
  return Promise.all(
    offers.map(async (offer) => ({
      priceOptionId: await signPriceOption(keys, {
        offerId: offer.offerId,
        tenantId: scope.tenantId,
        requesterContactId: scope.requesterContactId,
        facilityId: scope.facilityId,
        priceCents: offer.priceCents,
        agreementId: offer.contract?.agreementId ?? 0,
        issuedAt,
      }),
      offer,
      expiresAt: expiryOf(issuedAt),
    })),
  );
}

/**
 * Loads live quotes of the tenant by id: signed ones from their id and their offer revision (one read, none for the
 * offers the isolate remembers when `remembered`), stored ones from KV, then for what KV misses from their records in
 * `tenantDb`, the tenant's database (its store: docs/tenant-stores.md), and their vendors' names in DB. Expiry is always
 * checked here. Quotes that are unknown, forged, expired or of another tenant are simply absent from the result.
 */
export async function loadLiveQuotes(
  env: QuoteEnv,
  tenantId: number,
  ids: readonly string[],
  now = new Date(),
  { remembered = false, tenantDb = env.DB, mode }: { remembered?: boolean; tenantDb?: D1Database; mode: Principal["mode"] },
): Promise<Map<string, QuoteRecord>> {
  const unique = [...new Set(ids)];
  const signed = unique.filter(isSignedPriceOptionId);
  const stored = unique.filter((id) => !isSignedPriceOptionId(id));
  const [fromSigned, fromStored] = await Promise.all([
    loadSignedQuotes(env, signed, remembered, mode),
    loadStoredQuotes(env, tenantDb, stored),
  ]);
  const found = new Map([...fromSigned, ...fromStored]);
  const nowIso = now.toISOString();
  for (const [id, record] of found) {
    if (record.tenantId !== tenantId || record.expiresAt <= nowIso) found.delete(id);
  }
  return found;
}

async function loadSignedQuotes(
  env: QuoteEnv,
  ids: readonly string[],
  remembered: boolean,
  mode: Principal["mode"],
): Promise<Map<string, QuoteRecord>> {
  const keys = priceOptionKeys(env, mode);
  const terms = (await Promise.all(ids.map(async (id) => [id, await readPriceOption(keys, id)] as const))).filter(
    (entry): entry is readonly [string, NonNullable<(typeof entry)[1]>] => entry[1] !== null,
  );
  if (terms.length === 0) return new Map();
  const offerIds = terms.map(([, t]) => t.offerId);
  const recalled = recallQuotedOffers(offerIds, remembered);
  const offers = new Map([...recalled.found, ...(await readQuotedOffers(env.DB, recalled.missing, remembered))]);
  const found = new Map<string, QuoteRecord>();
  for (const [id, t] of terms) {
    const offer = offers.get(t.offerId);
    if (!offer) continue;
    found.set(id, {
      ...offer,
      priceOptionId: id,
      tenantId: t.tenantId,
      requesterContactId: t.requesterContactId,
      facilityId: t.facilityId,
      priceCents: t.priceCents,
      contractPriceCents: t.agreementId ? t.priceCents : null,
      createdAt: new Date(t.issuedAt * 1000).toISOString(),
      expiresAt: expiryOf(t.issuedAt),
    });
  }
  return found;
}

/** What an order of a quote takes from its offer revision (and the revision's vendor). */
const quotedOfferOf = (productId: string, offer: Omit<QuotedOffer, "productId">): QuotedOffer => ({
  productId,
  offerId: offer.offerId,
  vendorId: offer.vendorId,
  vendorName: offer.vendorName,
  condition: offer.condition,
  warranty: offer.warranty,
  purchaseChoice: offer.purchaseChoice,
  leadTimeDays: offer.leadTimeDays,
  returnPolicy: offer.returnPolicy,
  customFields: offer.customFields,
  purchaseType: offer.purchaseType,
  purchaseTerms: offer.purchaseTerms,
});

/** The offer revisions by id, with their vendors' names and return policies; remembered for later orders if `remember`. */
async function readQuotedOffers(d1: D1Database, ids: readonly number[], remember: boolean): Promise<Map<number, QuotedOffer>> {
  if (ids.length === 0) return new Map();
  const rows = await database(d1)
    .select({ offer: vendorOffers, vendorName: vendors.name, returnPolicy: vendors.returnPolicy })
    .from(vendorOffers)
    .innerJoin(vendors, eq(vendors.id, vendorOffers.vendorId))
    .where(inArray(vendorOffers.id, [...ids]));
  const offers = new Map<number, QuotedOffer>();
  for (const { offer, vendorName, returnPolicy } of rows) {
    const quoted = quotedOfferOf(offer.productId, { ...offer, offerId: offer.id, vendorName, returnPolicy });
    offers.set(offer.id, quoted);
    if (remember) rememberQuotedOffer(quoted);
  }
  return offers;
}

/** Quotes issued before signed ids (stored in KV and in the tenant's database), until they expire. */
async function loadStoredQuotes(env: QuoteEnv, tenantDb: D1Database, ids: readonly string[]): Promise<Map<string, QuoteRecord>> {
  const found = new Map<string, QuoteRecord>();
  if (ids.length === 0) return found;
  const fromKv = await Promise.all(ids.map((id) => env.QUOTES.get<QuoteRecord>(quoteKvKey(id), "json")));
  const misses: string[] = [];
  ids.forEach((id, i) => {
    const record = fromKv[i];
    if (record)
      found.set(id, {
        ...record,
        contractPriceCents: record.contractPriceCents ?? null,
        purchaseType: record.purchaseType ?? "buy",
        purchaseTerms: record.purchaseTerms ?? null,
      });
    else misses.push(id);
  });
  if (misses.length > 0) {
    const records = await database(tenantDb).select().from(quotes).where(inArray(quotes.id, misses));
    if (records.length === 0) return found;
    // Vendors are the control plane's: their names are in DB.
    const names = await database(env.DB)
      .select({ id: vendors.id, name: vendors.name })
      .from(vendors)
      .where(inArray(vendors.id, [...new Set(records.map((quote) => quote.vendorId))]));
    const vendorName = new Map(names.map((vendor) => [vendor.id, vendor.name]));
    for (const { id, usedByOrderId: _used, ...rest } of records) {
      const name = vendorName.get(rest.vendorId);
      if (name === undefined) continue;
      found.set(id, { ...rest, priceOptionId: id, vendorName: name, contractPriceCents: null, purchaseType: "buy", purchaseTerms: null });
    }
  }
  return found;
}

/**
 * A day after expiry, a stored quote no order used is of no use to anyone: the scheduled housekeeping deletes such
 * quotes, oldest first, `limit` at a time. Quotes an order used stay (its lines reference them). The day of grace
 * lets an order that read a quote just before it expired finish writing. KV forgets them on its own (TTL).
 */
export const QUOTE_PURGE_GRACE_MS = 24 * 60 * 60 * 1000;

export async function purgeExpiredQuotes(db: Database, now: Date, limit: number): Promise<number> {
  const cutoff = new Date(now.getTime() - QUOTE_PURGE_GRACE_MS).toISOString();
  const unusedAndExpired = and(lte(quotes.expiresAt, cutoff), isNull(quotes.usedByOrderId));
  return deleteOldest(db, quotes, quotes.id, unusedAndExpired, quotes.expiresAt, limit);
}
