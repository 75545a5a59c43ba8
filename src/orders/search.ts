import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { orderLines, orders, shippingDocumentLines, shippingDocuments } from "../db/schema";
import { centsToDecimal } from "../platform/money";
import { type Page, paginationOf } from "../platform/pagination";
import { inIds, pageWithTotal, planSearch, type SearchRequest } from "../query/search";
import { orderSearch } from "./search-fields";

/** Relations `include` can add to each order (spec 4.12); case-sensitive. */
export const ORDER_INCLUDES = ["lineItems", "shippingInfo"] as const;
export type OrderInclude = (typeof ORDER_INCLUDES)[number];

/** `include=lineItems,shippingInfo` as a set; unknown names are ignored without error (spec 4.12). */
export function parseOrderIncludes(include: string | undefined): Set<OrderInclude> {
  const names = new Set((include ?? "").split(",").map((name) => name.trim()));
  return new Set(ORDER_INCLUDES.filter((name) => names.has(name)));
}

/**
 * Order search records (spec 2.10) of one tenant. Included relations are loaded for the whole page
 * with one query each (never per order), in a second batch once the page's ids are known.
 */
export async function searchOrders(db: Database, tenantId: number, request: SearchRequest, page: Page, include: ReadonlySet<OrderInclude>) {
  const plan = planSearch(orderSearch, request);
  const where: SQL = and(eq(orders.tenantId, tenantId), plan.filter)!;
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select({
        orderId: orders.id,
        orderNumber: orders.orderNumber,
        companyId: orders.companyId,
        facilityId: orders.facilityId,
        requesterId: orders.requesterContactId,
        poNumber: orders.poNumber,
        requesterName: orders.requesterName,
        orderDate: orders.createdAt,
        lastUpdated: orders.updatedAt,
        totalCents: orders.totalCents,
        shippingMethod: orders.shippingMethod,
        status: orders.status,
      })
      .from(orders)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    orders,
    where,
  );
  const ids = rows.map((row) => row.orderId);
  const [lines, documents] = await loadIncludes(db, ids, include);
  const records = rows.map(({ totalCents, ...order }) => ({
    ...order,
    total: centsToDecimal(totalCents),
    ...(lines && { lineItems: lines.filter((line) => line.orderId === order.orderId).map(lineItemView) }),
    ...(documents && { shippingInfo: documents.filter((doc) => doc.orderId === order.orderId).map(shippingInfoView) }),
  }));
  return { orders: records, pagination: paginationOf(page, total, rows.length) };
}

function linesQuery(db: Database, ids: number[]) {
  return db
    .select({
      orderId: orderLines.orderId,
      lineId: orderLines.id,
      partNumber: orderLines.partNumber,
      requestedPartNumber: orderLines.requestedPartNumber,
      replacementPartNumber: orderLines.replacementPartNumber,
      poNumber: orderLines.poNumber,
      description: orderLines.description,
      quantity: orderLines.quantity,
      priceCents: orderLines.priceCents,
      extendedPriceCents: orderLines.extendedPriceCents,
      statusName: orderLines.statusName,
    })
    .from(orderLines)
    .where(inIds(orderLines.orderId, ids))
    .orderBy(orderLines.orderId, orderLines.lineNumber, orderLines.id);
}

function documentsQuery(db: Database, ids: number[]) {
  return db
    .select({
      orderId: shippingDocuments.orderId,
      shippingDocId: shippingDocuments.id,
      lineIds: sql<string>`(select json_group_array(${shippingDocumentLines.lineId}) from ${shippingDocumentLines} where ${shippingDocumentLines.shippingDocumentId} = ${shippingDocuments.id})`,
      attentionTo: shippingDocuments.attentionTo,
      address1: shippingDocuments.address1,
      city: shippingDocuments.city,
      state: shippingDocuments.state,
      zip: shippingDocuments.zip,
      country: shippingDocuments.country,
      carrierName: shippingDocuments.carrierName,
      serviceLevel: shippingDocuments.serviceLevel,
    })
    .from(shippingDocuments)
    .where(inIds(shippingDocuments.orderId, ids))
    .orderBy(shippingDocuments.orderId, shippingDocuments.id);
}

type LineRow = Awaited<ReturnType<typeof linesQuery>>[number];
type DocumentRow = Awaited<ReturnType<typeof documentsQuery>>[number];

async function loadIncludes(
  db: Database,
  ids: number[],
  include: ReadonlySet<OrderInclude>,
): Promise<[LineRow[] | null, DocumentRow[] | null]> {
  const wantLines = include.has("lineItems");
  const wantDocuments = include.has("shippingInfo");
  if (ids.length === 0) return [wantLines ? [] : null, wantDocuments ? [] : null];
  if (wantLines && wantDocuments) return db.batch([linesQuery(db, ids), documentsQuery(db, ids)]);
  if (wantLines) return [await linesQuery(db, ids), null];
  if (wantDocuments) return [null, await documentsQuery(db, ids)];
  return [null, null];
}

function lineItemView({ orderId: _order, priceCents, extendedPriceCents, ...line }: LineRow) {
  return { ...line, price: centsToDecimal(priceCents), extendedPrice: centsToDecimal(extendedPriceCents) };
}

function shippingInfoView({ orderId: _order, shippingDocId, lineIds, ...address }: DocumentRow) {
  const lineItemIds = (JSON.parse(lineIds) as number[]).sort((a, b) => a - b);
  return { shippingDocId, lineItemIds, ...address };
}
