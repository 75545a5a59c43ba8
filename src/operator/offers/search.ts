import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { vendorOffers } from "../../db/schema";
import { type Page, paginationOf } from "../../platform/pagination";
import { defineSearchResource } from "../../query/fields";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { presentOffer } from "./offers";

/** GET /vendor/api/offers: the vendor's current offers (one per SKU), searched with the q language. */
export const offerSearch = defineSearchResource({
  name: "offers",
  path: "/vendor/api/offers",
  idColumn: vendorOffers.id,
  defaultSort: "sku",
  fields: [
    { name: "sku", type: "String", column: vendorOffers.sku, sortable: true, description: "The vendor's number of the offer" },
    { name: "productId", type: "String", column: vendorOffers.productId, sortable: true, description: "The catalog product" },
    { name: "condition", type: "String", column: vendorOffers.condition, sortable: true, description: 'e.g. `condition:"New OEM"`' },
    { name: "purchaseChoice", type: "String", column: vendorOffers.purchaseChoice, sortable: true, description: "e.g. Buy, Exchange" },
    { name: "warranty", type: "String", column: vendorOffers.warranty, sortable: false, description: "Warranty terms" },
    {
      name: "price",
      type: "Numeric",
      unit: "cents",
      column: vendorOffers.priceCents,
      sortable: true,
      description: "List price, a decimal with up to 2 places, e.g. `price<100`",
    },
    {
      name: "leadTimeDays",
      type: "Numeric",
      unit: "integer",
      column: vendorOffers.leadTimeDays,
      sortable: true,
      description: "Lead time in days",
    },
    {
      name: "quantityAvailable",
      type: "Numeric",
      unit: "integer",
      column: vendorOffers.quantityAvailable,
      sortable: true,
      description: "Units in stock as last said; `quantityAvailable:null` when never said",
    },
    {
      name: "withdrawnAt",
      type: "DateTime",
      column: vendorOffers.withdrawnAt,
      sortable: true,
      description: "When the offer was withdrawn; `withdrawnAt:null` lists the active ones",
    },
    { name: "effectiveTo", type: "DateTime", column: vendorOffers.effectiveTo, sortable: true, description: "Quoted until" },
    { name: "updatedAt", type: "DateTime", column: vendorOffers.updatedAt, sortable: true, description: "Last change" },
  ],
});

export async function searchOffers(db: Database, vendorId: number, request: SearchRequest, page: Page) {
  const { filter, orderBy } = planSearch(offerSearch, request);
  const where = and(eq(vendorOffers.vendorId, vendorId), isNull(vendorOffers.replacedAt), filter);
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select()
      .from(vendorOffers)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    vendorOffers,
    where,
  );
  const offers = rows.map(presentOffer);
  return { offers, pagination: paginationOf(page, total, rows.length) };
}
