import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { appConfig } from "../../env";
import { inBackground } from "../../platform/background";
import { centsToText, MARKET_CURRENCY } from "../../platform/money";
import { normalizePostPage, PaginationSchema, SORT_DIRECTIONS } from "../../platform/pagination";
import { envelope, envelopeResponse, type JsonText, jsonText } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  currencyCode,
  envelopeSchema,
  moneyAmount,
  notFoundResponse,
  requesterForbiddenResponse,
  requiredJsonBody,
} from "../../platform/schemas";
import { sideBySide } from "../../platform/side-by-side";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../auth/bearer";
import { requireFacilityAccess, requireRememberedFacilityAccess } from "../users/access";
import { findCatalogProduct, searchCatalog } from "./catalog";
import { loadEligibleOffers } from "./eligible-prices";
import { parseKeywords } from "./keywords";
import { PURCHASE_TYPES, PurchaseTermsViewSchema, presentTerms } from "./purchase-terms";
import { type IssuedOption, issuePriceOptions, priceOptionKeys } from "./quotes";
import {
  CACHE_STATUS_HEADER,
  CACHE_STATUSES,
  type CacheStatus,
  cacheSearch,
  catalogVersion,
  readCachedSearch,
  requestedCaching,
  type SearchCacheKey,
  searchCacheKey,
} from "./search-cache";
import { CATALOG_SORT_FIELDS, type CatalogFilters, type CatalogPage, EXACT_COUNT_LIMIT, FACET_FIELDS } from "./search-sql";

const listOf = (values: readonly string[]) => values.join(", ");

const ids = {
  facilityId: z.number().int().positive().openapi({ example: 1001 }),
  requesterId: z.number().int().positive().openapi({ description: "The user's contactId (GET /users/lookup)", example: 50001 }),
};

const FacetFilterSchema = closedObject({
  field: z.enum(FACET_FIELDS, { error: `Unknown facet field; valid fields: ${listOf(FACET_FIELDS)}.` }),
  values: z
    // The pattern documents what trimming refuses: a value of spaces only.
    .array(z.string().max(200).regex(/\S/, "Must contain a non-space character.").trim().openapi({ example: "GE Healthcare" }))
    .min(1)
    .max(50)
    .openapi({ description: "Alternatives: a product matches when it has any of them (case-insensitive)", example: ["GE Healthcare"] }),
}).openapi("CatalogFacetFilter");

const CatalogSearchRequestSchema = closedObject({
  filters: closedObject({
    query: z.string().max(200).nullish().openapi({
      description:
        "Keywords, each matched as a word prefix in part numbers, description, manufacturer and categories. One word that is a device identifier of a product (GTIN, HIBCC or ICCBBA, any packaging level) searches that product's part number. Empty lists all.",
      example: "12-345 A",
    }),
    facets: z.array(FacetFilterSchema).max(10).nullish().openapi({
      description: "Narrow down: every facet given must hold. Values of one field are alternatives.",
    }),
  }).nullish(),
  pagination: closedObject({
    limit: z.union([z.number(), z.string()]).nullish().openapi({
      description:
        "1 to 10,000, default 50; out-of-range or non-numeric values are corrected silently (above 10,000 -> 10,000, below 1 -> 50)",
      example: 50,
    }),
    offset: z
      .union([z.number(), z.string()])
      .nullish()
      .openapi({ description: "Default 0; negative or non-numeric becomes 0", example: 0 }),
    sortBy: z
      .enum(CATALOG_SORT_FIELDS, { error: `Unknown sortBy; valid values: ${listOf(CATALOG_SORT_FIELDS)}.` })
      .nullish()
      .openapi({ description: "Default Relevance with a query, PartNumber without" }),
    sortDirection: z
      .enum(SORT_DIRECTIONS, { error: `Unknown sortDirection; valid values: ${listOf(SORT_DIRECTIONS)}.` })
      .nullish()
      .openapi({ description: "Default Desc (most relevant first) for Relevance, Asc otherwise" }),
  }).nullish(),
  ...ids,
}).openapi("CatalogSearchRequest");

const CatalogItemSchema = z
  .object({
    id: z.string().openapi({ description: "Use as productId in catalog detail and orders" }),
    partNumber: z.string(),
    displayPartNumber: z.string(),
    description: z.string(),
    oem: z.string().openapi({ description: "Manufacturer name" }),
    categories: z.array(z.string()),
  })
  .openapi("CatalogItem");

const COUNT_RELATION = z.enum(["eq", "gte"]);

const FacetCountsSchema = z
  .object({
    field: z.enum(FACET_FIELDS),
    values: z.array(z.object({ value: z.string(), count: z.number().int() })),
    countsRelation: COUNT_RELATION.openapi({
      description: `"eq": exact counts. "gte": more than ${EXACT_COUNT_LIMIT.toLocaleString("en-US")} products are counted, and the counts are those of the first ${EXACT_COUNT_LIMIT.toLocaleString("en-US")} read (each a lower bound)`,
    }),
  })
  .openapi("CatalogFacetCounts", {
    description:
      "Products per value for the current query and the other facets (this facet's own selection left out); largest first, at most 100",
  });

const CatalogSearchResultSchema = z.object({
  items: z.array(CatalogItemSchema),
  pagination: PaginationSchema.extend({
    totalRelation: COUNT_RELATION.openapi({
      description: `"eq": total is exact. "gte": more than total products match (counting stops at ${EXACT_COUNT_LIMIT.toLocaleString("en-US")}, or at the page's end if further); hasMore is exact either way`,
    }),
  }),
  facets: z.array(FacetCountsSchema),
  sort: z
    .object({ sortBy: z.enum(CATALOG_SORT_FIELDS), sortDirection: z.enum(SORT_DIRECTIONS) })
    .openapi({ description: "The order actually used" }),
});

const CatalogDetailRequestSchema = closedObject({
  productId: z.string().min(1).max(64).openapi({ example: "MP-0000001" }),
  ...ids,
}).openapi("CatalogDetailRequest");

const CustomFieldSchema = z
  .object({
    fieldId: z.string().openapi({ description: "Use in the order line's requiredFields" }),
    prompt: z.string(),
    isRequired: z.boolean(),
    formatRegex: z.string(),
    errorMessage: z.string(),
  })
  .openapi("CustomField");

export const PriceOptionSchema = z
  .object({
    priceOptionId: z.string().openapi({ description: "Quote id for POST /orders, valid until expiresAt (30 days)" }),
    price: moneyAmount("Unit price"),
    currency: currencyCode,
    condition: z.string().openapi({ example: "New OEM" }),
    warranty: z.string().openapi({ example: "12 months" }),
    purchaseChoice: z.string().openapi({ example: "Buy" }),
    purchaseType: z.enum(PURCHASE_TYPES).openapi({
      description: "buy, exchange (a core goes back), loan, or repair (the buyer's unit is sent in): what an order of this option opens",
    }),
    purchaseTerms: PurchaseTermsViewSchema,
    customFields: z.array(CustomFieldSchema),
    vendorName: z.string(),
    leadTimeDays: z.number().int(),
    returnPolicy: z.string(),
    expiresAt: z.string().datetime(),
    priceSource: z.enum(["list", "contract"]).openapi({
      description:
        "Where `price` comes from: the offer's list price, or a price agreement of the vendor that applies to this tenant, facility or its tier (the lowest such price wins over the list price)",
    }),
    agreementId: z.number().int().nullable().openapi({ description: "The price agreement whose price this is; null for a list price" }),
    agreementReference: z.string().nullable().openapi({ description: "The vendor's reference of that agreement (its contract number)" }),
    listPrice: moneyAmount("The offer's list price (equal to `price` for a list price)"),
    vendorSku: z.string().openapi({ description: "The vendor's own number for this offer" }),
    unitOfMeasure: z.string().openapi({ description: "What one unit of `price` is, e.g. EA (each), BX (box)", example: "EA" }),
    packQuantity: z.number().int().openapi({ description: "Items in one unit of measure", example: 1 }),
    quantityAvailable: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "What the vendor last said it had in stock; null when not said" }),
    quantityCountedAt: z.string().datetime().nullable().openapi({ description: "When quantityAvailable was counted" }),
  })
  .openapi("PriceOption");

export const CatalogDetailSchema = z.object({
  product: z
    .object({
      id: z.string(),
      partNumber: z.string(),
      title: z.string(),
      description: z.string(),
      manufacturer: z.string(),
      status: z.enum(["active", "discontinued", "withdrawn"]).openapi({
        description: "active; discontinued (no longer made, quoted while vendors offer it); withdrawn (never quoted: no options)",
      }),
      deviceIdentifiers: z
        .array(
          z
            .object({
              agency: z.enum(["GS1", "HIBCC", "ICCBBA"]).openapi({ description: "The UDI issuing agency" }),
              deviceId: z.string().openapi({ description: "The device identifier; a GS1 GTIN as GTIN-14", example: "00614100000022" }),
              containsDeviceId: z
                .string()
                .nullable()
                .openapi({ description: "A package level (e.g. a case): the device identifier it contains; null for the unit" }),
              quantity: z.number().int().min(1).nullable().openapi({ description: "How many of `containsDeviceId` the package holds" }),
            })
            .openapi("DeviceIdentifier"),
        )
        .openapi({ description: "UDI device identifiers of the product, unit level first (empty when none is known)" }),
    })
    .openapi("CatalogProduct"),
  options: z.array(PriceOptionSchema),
});

const routeBasics = {
  method: "post" as const,
  tags: ["Catalog"],
  ...scopedAccess("catalog:read"),
};

const searchRoute = createRoute({
  ...routeBasics,
  path: "/catalog/search",
  summary: "Search the catalog by keywords and facets",
  description:
    "Keyword search of the global catalog, narrowed by facet selections, with each facet's counts for the current query; it quotes no prices: POST /catalog/detail does, per product.",
  request: requiredJsonBody(CatalogSearchRequestSchema),
  responses: {
    200: {
      description: "A page of products",
      headers: {
        [CACHE_STATUS_HEADER]: {
          description:
            "HIT: answered from the edge cache of catalog searches (same catalog version); MISS: searched now (and cached); BYPASS: searched now because the request sent Cache-Control: no-cache (then cached) or no-store (kept nowhere)",
          schema: { type: "string", enum: [...CACHE_STATUSES] },
        },
      },
      content: { "application/json": { schema: envelopeSchema(CatalogSearchResultSchema) } },
    },
    ...authenticatedErrorResponses,
    ...requesterForbiddenResponse,
  },
});

const detailRoute = createRoute({
  ...routeBasics,
  path: "/catalog/detail",
  summary: "Get a product with its price options",
  description:
    "The price options are at the buyer's eligible price; every call issues fresh 30-day quotes. For a requester at a facility: the product and each vendor offer's price option at the price that buyer is eligible for (list or agreement). Each priceOptionId is a quote to order with, valid 30 days.",
  request: requiredJsonBody(CatalogDetailRequestSchema),
  responses: {
    200: {
      description: "The product and its price options",
      content: { "application/json": { schema: envelopeSchema(CatalogDetailSchema) } },
    },
    ...authenticatedErrorResponses,
    ...requesterForbiddenResponse,
    ...notFoundResponse,
  },
});

type FacetSelection = z.infer<typeof FacetFilterSchema>[];
type CatalogSearchResult = Awaited<ReturnType<typeof searchCatalog>>;

/**
 * The answer as JSON text: from the cache, or searched now (then also what `storeAt` is cached under). `caching`:
 * what the request's Cache-Control asked (search-cache.ts requestedCaching).
 */
async function cachedOrSearched(
  catalog: D1Database,
  versionMaxAge: number,
  filters: CatalogFilters,
  page: CatalogPage,
  caching: ReturnType<typeof requestedCaching>,
): Promise<{ status: CacheStatus; json: JsonText<CatalogSearchResult>; storeAt?: SearchCacheKey }> {
  const searched = async () => jsonText(await searchCatalog(catalog, filters, page));
  // no-store: nothing is read from or written to the cache, so neither the version nor the key is needed.
  if (caching === "none") return { status: "BYPASS", json: await searched() };
  const key = searchCacheKey(await catalogVersion(catalog, versionMaxAge), filters, page);
  // The cache holds only what `searched` made for the same key.
  const cached: JsonText<CatalogSearchResult> | undefined = caching === "use" ? await readCachedSearch(key) : undefined;
  if (cached !== undefined) return { status: "HIT", json: cached };
  return { status: caching === "use" ? "MISS" : "BYPASS", json: await searched(), storeAt: key };
}

/** Values of the same field given in several elements add up; null when the field is not filtered. */
function facetValues(facets: FacetSelection | null | undefined, field: (typeof FACET_FIELDS)[number]): string[] | null {
  const values = (facets ?? []).filter((f) => f.field === field).flatMap((f) => f.values);
  return values.length > 0 ? [...new Set(values)] : null;
}

export const catalogRoutes = createRouter()
  .openapi(searchRoute, async (c) => {
    const body = c.req.valid("json");
    const principal = c.get("principal");
    const filters: CatalogFilters = {
      keywords: parseKeywords(body.filters?.query),
      manufacturers: facetValues(body.filters?.facets, "manufacturer"),
      categories: facetValues(body.filters?.facets, "category"),
    };
    const sortBy = body.pagination?.sortBy ?? (filters.keywords ? "Relevance" : "PartNumber");
    const page = {
      ...normalizePostPage(body.pagination),
      sortBy,
      sortDirection: body.pagination?.sortDirection ?? (sortBy === "Relevance" ? "Desc" : "Asc"),
    };
    // The access check and the search (edge cache first, then the catalog database) go out side by side: one round
    // trip. Nothing found is answered, or cached, unless the check passes; a refusal discards it.
    const [, found] = await sideBySide([
      requireRememberedFacilityAccess(
        database(tenantDatabase(c)),
        principal.tenantId,
        body.requesterId,
        body.facilityId,
        appConfig(c.env).ACCESS_CACHE_SECONDS,
      ),
      cachedOrSearched(c.env.CATALOG, appConfig(c.env).CATALOG_VERSION_CACHE_SECONDS, filters, page, requestedCaching(c.req.raw)),
    ]);
    if (found.storeAt) inBackground(c, cacheSearch(found.storeAt, found.json));
    c.header(CACHE_STATUS_HEADER, found.status);
    return envelopeResponse<CatalogSearchResult>(c, found.json);
  })
  .openapi(detailRoute, async (c) => {
    const { productId, facilityId, requesterId } = c.req.valid("json");
    const principal = c.get("principal");
    const now = new Date();
    // Reads side by side (one round trip); the quotes are signed, not stored, so nothing is written.
    const [, product, offers] = await sideBySide([
      requireFacilityAccess(database(tenantDatabase(c)), principal.tenantId, requesterId, facilityId),
      findCatalogProduct(database(c.env.CATALOG), productId),
      loadEligibleOffers(c.env.DB, { tenantId: principal.tenantId, facilityId, productId }, now),
    ]);
    // A withdrawn product is never quoted (catalog-migrations/0004): its detail shows it without options.
    const issued =
      product.status === "withdrawn"
        ? []
        : await issuePriceOptions(
            priceOptionKeys(c.env, principal.mode),
            { tenantId: principal.tenantId, requesterContactId: requesterId, facilityId },
            product,
            offers,
            now,
          );
    const options = issued.map(presentPriceOption);
    return c.json(envelope(c, { product, options }), 200);
  });

/** A price option as detail (and scan to order) shows it. */
export const presentPriceOption = ({ priceOptionId, offer, expiresAt }: IssuedOption) => ({
  priceOptionId,
  price: centsToText(offer.priceCents),
  currency: MARKET_CURRENCY,
  condition: offer.condition,
  warranty: offer.warranty,
  purchaseChoice: offer.purchaseChoice,
  purchaseType: offer.purchaseType,
  purchaseTerms: presentTerms(offer.purchaseTerms),
  customFields: offer.customFields,
  vendorName: offer.vendorName,
  leadTimeDays: offer.leadTimeDays,
  returnPolicy: offer.returnPolicy,
  expiresAt,
  priceSource: offer.contract ? ("contract" as const) : ("list" as const),
  agreementId: offer.contract?.agreementId ?? null,
  agreementReference: offer.contract?.reference ?? null,
  listPrice: centsToText(offer.listPriceCents),
  vendorSku: offer.sku,
  unitOfMeasure: offer.unitOfMeasure,
  packQuantity: offer.packQuantity,
  quantityAvailable: offer.quantityAvailable,
  quantityCountedAt: offer.quantityCountedAt,
});
