import { and, eq, inArray, isNull, lte } from "drizzle-orm";
import { randomToken } from "../auth/secrets";
import { chunk } from "../db/bulk-insert";
import { type Database, database } from "../db/client";
import { type CustomFieldDefinition, quotes, vendorOffers, vendors } from "../db/schema";
import type { Bindings } from "../env";
import { deleteOldest } from "../platform/housekeeping";

/**
 * Quotes (price options). Issued by /catalog/detail, valid 30 days, read by POST /orders.
 * D1 is the durable record and the authority; KV is the fast path (see docs/architecture.md).
 */

export const QUOTE_VALIDITY_SECONDS = 30 * 24 * 60 * 60;
const QUOTE_ROWS_PER_INSERT = 6;

export interface QuoteScope {
  tenantId: number;
  requesterContactId: number;
  facilityId: number;
}

export interface QuoteRecord extends QuoteScope {
  priceOptionId: string;
  productId: string;
  offerId: number;
  vendorId: number;
  vendorName: string;
  priceCents: number;
  condition: string;
  warranty: string;
  purchaseChoice: string;
  leadTimeDays: number;
  returnPolicy: string;
  customFields: CustomFieldDefinition[];
  createdAt: string;
  expiresAt: string;
}

type QuoteEnv = Pick<Bindings, "DB" | "QUOTES">;

export const quoteKvKey = (priceOptionId: string) => `quote:${priceOptionId}`;

/** The vendor offers of a product, cheapest first: what /catalog/detail turns into quotes. */
export function loadVendorOffers(db: Database, productId: string) {
  return db
    .select({ offer: vendorOffers, vendorName: vendors.name, returnPolicy: vendors.returnPolicy })
    .from(vendorOffers)
    .innerJoin(vendors, eq(vendors.id, vendorOffers.vendorId))
    .where(eq(vendorOffers.productId, productId))
    .orderBy(vendorOffers.priceCents, vendorOffers.id);
}
export type VendorOffer = Awaited<ReturnType<typeof loadVendorOffers>>[number];

/** Every vendor offer of the product becomes a fresh quote bound to the caller's scope. */
export async function issueQuotes(
  env: QuoteEnv,
  scope: QuoteScope,
  productId: string,
  offers: readonly VendorOffer[],
  now = new Date(),
): Promise<QuoteRecord[]> {
  const db = database(env.DB);
  if (offers.length === 0) return [];

  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + QUOTE_VALIDITY_SECONDS * 1000).toISOString();
  const records: QuoteRecord[] = offers.map(({ offer, vendorName, returnPolicy }) => ({
    ...scope,
    priceOptionId: `po_${randomToken(24)}`,
    productId,
    offerId: offer.id,
    vendorId: offer.vendorId,
    vendorName,
    priceCents: offer.priceCents,
    condition: offer.condition,
    warranty: offer.warranty,
    purchaseChoice: offer.purchaseChoice,
    leadTimeDays: offer.leadTimeDays,
    returnPolicy,
    customFields: offer.customFields,
    createdAt,
    expiresAt,
  }));

  // D1 binds at most 100 parameters per statement (16 per quote row): many offers need several inserts.
  const rows = records.map(({ priceOptionId, vendorName: _vendor, ...rest }) => ({ id: priceOptionId, ...rest }));
  const [first, ...more] = chunk(rows, QUOTE_ROWS_PER_INSERT).map((part) => db.insert(quotes).values(part));
  await db.batch([first!, ...more]);
  await Promise.all(
    records.map((record) =>
      env.QUOTES.put(quoteKvKey(record.priceOptionId), JSON.stringify(record), { expirationTtl: QUOTE_VALIDITY_SECONDS }),
    ),
  );
  return records;
}

/**
 * Loads live quotes of the tenant by id: KV first, D1 for whatever KV misses (KV is eventually
 * consistent across locations). Expiry is always checked here, whatever the source. Quotes that are
 * unknown, expired or of another tenant are simply absent from the result.
 */
export async function loadLiveQuotes(
  env: QuoteEnv,
  tenantId: number,
  ids: readonly string[],
  now = new Date(),
): Promise<Map<string, QuoteRecord>> {
  const unique = [...new Set(ids)];
  const found = new Map<string, QuoteRecord>();
  const fromKv = await Promise.all(unique.map((id) => env.QUOTES.get<QuoteRecord>(quoteKvKey(id), "json")));
  const misses: string[] = [];
  unique.forEach((id, i) => {
    const record = fromKv[i];
    if (record) found.set(id, record);
    else misses.push(id);
  });

  if (misses.length > 0) {
    const db = database(env.DB);
    const rows = await db
      .select({ quote: quotes, vendorName: vendors.name })
      .from(quotes)
      .innerJoin(vendors, eq(vendors.id, quotes.vendorId))
      .where(inArray(quotes.id, misses));
    for (const { quote, vendorName } of rows) {
      const { id, usedByOrderId: _used, ...rest } = quote;
      found.set(id, { ...rest, priceOptionId: id, vendorName });
    }
  }

  const nowIso = now.toISOString();
  for (const [id, record] of found) {
    if (record.tenantId !== tenantId || record.expiresAt <= nowIso) found.delete(id);
  }
  return found;
}

/**
 * A day after expiry, a quote no order used is of no use to anyone: the scheduled housekeeping deletes such
 * quotes, oldest first, `limit` at a time. Quotes an order used stay (its lines reference them). The day of grace
 * lets an order that read a quote just before it expired finish writing. KV forgets them on its own (TTL).
 */
export const QUOTE_PURGE_GRACE_MS = 24 * 60 * 60 * 1000;

export async function purgeExpiredQuotes(db: Database, now: Date, limit: number): Promise<number> {
  const cutoff = new Date(now.getTime() - QUOTE_PURGE_GRACE_MS).toISOString();
  const unusedAndExpired = and(lte(quotes.expiresAt, cutoff), isNull(quotes.usedByOrderId));
  return deleteOldest(db, quotes, quotes.id, unusedAndExpired, quotes.expiresAt, limit);
}
