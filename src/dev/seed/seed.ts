import { bulkInsertStatement, type SeedDatabase } from "../../db/bulk-insert";
import { PART_NUMBER_AGENCY, type ProductCode } from "../../shared/catalog/product-codes";
import { generateDeviceIdentifiers, generateOffers, generateProduct, MANUFACTURERS, type ProductRow, VENDORS } from "./catalog";
import { ADDRESSES, COMPANIES, FACILITIES, TENANTS, USERS } from "./organizations";

export const DEFAULT_PRODUCT_COUNT = 600;
const PRODUCTS_PER_BATCH = 2000;
const SEEDED_AT = "2026-01-01T00:00:00.000Z";

export interface SeedOptions {
  products?: number;
  /** Device identifiers of the products (catalog-migrations/0004); off for a catalog schema from before them. */
  deviceIdentifiers?: boolean;
  /** The offers' SKUs (migrations/0016); off for a schema from before them. */
  offerSkus?: boolean;
  /** The products' codes copied into DB (migrations/0024); off for a schema from before them. */
  productCodes?: boolean;
  /** The users' user names (migrations/0021); off for a schema from before them. */
  userNames?: boolean;
  /** The tenants' rows in the registry of their stores (migrations/0028); off for a schema from before it. */
  tenantStores?: boolean;
  onProgress?: (inserted: number, total: number) => void;
}

/** The two databases: transactional (DB) and catalog (CATALOG), see docs/architecture.md. */
export interface SeedDatabases<S> {
  db: SeedDatabase<S>;
  catalog: SeedDatabase<S>;
}

/**
 * Demo tenants, organizations, users and vendors (DB), a deterministic catalog (CATALOG) and the vendors' offers on
 * it (DB). The tenants live in their stores from the start, as every tenant does: their registry rows come first, so
 * that their directory's rows are recorded as changes to push; `seedDemoStores` (./stores.ts) pushes them and writes
 * the demo orders into the stores. Safe to run again.
 */
export async function seedDemoData<S>({ db, catalog }: SeedDatabases<S>, options: SeedOptions = {}): Promise<void> {
  await db.batch(organizationStatements(db, options.userNames !== false, options.tenantStores !== false));
  await catalog.batch([
    bulkInsertStatement(
      catalog,
      "manufacturers",
      ["id", "name"],
      MANUFACTURERS.map((m) => [m.id, m.name]),
    ),
  ]);
  const total = options.products ?? DEFAULT_PRODUCT_COUNT;
  for (let start = 0; start < total; start += PRODUCTS_PER_BATCH) {
    const end = Math.min(total, start + PRODUCTS_PER_BATCH);
    const products = Array.from({ length: end - start }, (_, i) => generateProduct(start + i));
    // One after the other: Miniflare's proxy to local D1 (scripts) does not take concurrent batches reliably.
    const identifiers = options.deviceIdentifiers === false ? [] : [deviceIdentifiersStatement(catalog, start, end)];
    await catalog.batch([productsStatement(catalog, products), ...identifiers]);
    const codes = options.productCodes === false ? [] : [productCodesStatement(db, start, products, options.deviceIdentifiers !== false)];
    await db.batch([offerStatement(db, start, end, options.offerSkus !== false), ...codes]);
    options.onProgress?.(end, total);
  }
}

function organizationStatements<S>(d1: SeedDatabase<S>, userNames: boolean, tenantStores: boolean): S[] {
  return [
    bulkInsertStatement(
      d1,
      "tenants",
      ["id", "name", "created_at"],
      TENANTS.map((t) => [t.id, t.name, SEEDED_AT]),
    ),
    ...(tenantStores
      ? [
          bulkInsertStatement(
            d1,
            "tenant_stores",
            ["tenant_id", "state", "started_at", "finished_at"],
            TENANTS.map((t) => [t.id, "store", SEEDED_AT, SEEDED_AT]),
          ),
        ]
      : []),
    bulkInsertStatement(
      d1,
      "companies",
      ["id", "tenant_id", "name"],
      COMPANIES.map((c) => [c.id, c.tenantId, c.name]),
    ),
    bulkInsertStatement(
      d1,
      "facilities",
      ["id", "company_id", "name"],
      FACILITIES.map((f) => [f.id, f.companyId, f.name]),
    ),
    bulkInsertStatement(
      d1,
      "addresses",
      ["id", "company_id", "kind", "attention_to", "line1", "city", "state", "zip", "country"],
      ADDRESSES.map((a) => [a.id, a.companyId, a.kind, a.attentionTo, a.line1, a.city, a.state, a.zip, a.country]),
    ),
    bulkInsertStatement(
      d1,
      "users",
      [
        "id",
        "tenant_id",
        "contact_id",
        "login_user_id",
        "first_name",
        "last_name",
        "email",
        "created_at",
        ...(userNames ? ["user_name"] : []),
      ],
      USERS.map((u) => [
        u.id,
        u.tenantId,
        u.contactId,
        u.loginUserId,
        u.firstName,
        u.lastName,
        u.email,
        SEEDED_AT,
        ...(userNames ? [u.loginUserId] : []),
      ]),
    ),
    bulkInsertStatement(
      d1,
      "user_companies",
      ["user_id", "company_id"],
      USERS.flatMap((u) => u.companies.map((c) => [u.id, c])),
    ),
    bulkInsertStatement(
      d1,
      "user_facilities",
      ["user_id", "facility_id"],
      USERS.flatMap((u) => u.facilities.map((f) => [u.id, f])),
    ),
    bulkInsertStatement(
      d1,
      "vendors",
      ["id", "name", "return_policy"],
      VENDORS.map((v) => [v.id, v.name, v.returnPolicy]),
    ),
  ];
}

/**
 * Products in catalog order, in one statement: their rowids are the static search rank (catalog-migrations/0001_catalog.sql).
 * Their categories reach product_categories, and their words the full-text index, by trigger (catalog-migrations/0003).
 */
export function productsStatement<S>(d1: SeedDatabase<S>, products: readonly ProductRow[]): S {
  return bulkInsertStatement(
    d1,
    "products",
    ["id", "part_number", "display_part_number", "normalized_part_number", "title", "description", "manufacturer_id", "categories"],
    products.map((p) => [
      p.id,
      p.partNumber,
      p.displayPartNumber,
      p.normalizedPartNumber,
      p.title,
      p.description,
      p.manufacturerId,
      JSON.stringify(p.categories),
    ]),
  );
}

/** The rows `generate` makes for each demo product index from `start` to `end` (exclusive), in order. */
const rowsOfProducts = <T>(start: number, end: number, generate: (index: number) => T[]): T[] =>
  Array.from({ length: end - start }, (_, i) => generate(start + i)).flat();

function deviceIdentifiersStatement<S>(d1: SeedDatabase<S>, start: number, end: number): S {
  const rows = rowsOfProducts(start, end, generateDeviceIdentifiers);
  return bulkInsertStatement(
    d1,
    "device_identifiers",
    ["agency", "device_id", "product_id", "contains_device_id", "quantity"],
    rows.map((r) => [r.agency, r.deviceId, r.productId, r.containsDeviceId, r.quantity]),
  );
}

/** The products' codes as the main database keeps a copy of them (src/shared/catalog/product-codes.ts). */
function productCodesStatement<S>(d1: SeedDatabase<S>, start: number, products: readonly ProductRow[], withIdentifiers: boolean): S {
  const rows = products.flatMap((p, i): ProductCode[] => [
    [PART_NUMBER_AGENCY, p.normalizedPartNumber, p.id],
    ...(withIdentifiers ? generateDeviceIdentifiers(start + i) : []).map((d): ProductCode => [d.agency, d.deviceId, d.productId]),
  ]);
  return bulkInsertStatement(d1, "product_codes", ["agency", "code", "product_id"], rows);
}

/** When the demo offers were last updated, as their vendors would have it: fixed, so that seeding again changes nothing. */
const SEED_OFFERS_UPDATED_AT = "2026-11-01T00:00:00.000Z";

function offerStatement<S>(d1: SeedDatabase<S>, start: number, end: number, withSkus: boolean): S {
  const offers = rowsOfProducts(start, end, generateOffers);
  const columns = [
    "id",
    "product_id",
    "vendor_id",
    "condition",
    "purchase_choice",
    "warranty",
    "price_cents",
    "lead_time_days",
    "custom_fields",
  ];
  return bulkInsertStatement(
    d1,
    "vendor_offers",
    withSkus ? [...columns, "sku", "updated_at", "purchase_type", "purchase_terms"] : columns,
    offers.map((o) => [
      o.id,
      o.productId,
      o.vendorId,
      o.condition,
      o.purchaseChoice,
      o.warranty,
      o.priceCents,
      o.leadTimeDays,
      JSON.stringify(o.customFields),
      ...(withSkus
        ? [o.sku, SEED_OFFERS_UPDATED_AT, o.purchaseType, o.purchaseTerms === null ? null : JSON.stringify(o.purchaseTerms)]
        : []),
    ]),
  );
}
