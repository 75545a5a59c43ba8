import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { orderLines, orders, shippingDocumentLines, shippingDocuments } from "../../db/schema";
import { notFound } from "../../platform/errors";
import { centsToText, MARKET_CURRENCY } from "../../platform/money";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageOf, pageWithTotal, planSearch, type SearchPlan, type SearchRequest } from "../../query/search";
import { pendingChangeView, revisionsQuery, revisionView } from "./line-history";
import { orderSearch } from "./search-fields";

/** Relations `include` can add to each order (spec 4.12); case-sensitive. */
export const ORDER_INCLUDES = ["lineItems", "shippingInfo", "history"] as const;
export type OrderInclude = (typeof ORDER_INCLUDES)[number];

/** `include=lineItems,shippingInfo` as a set; unknown names are ignored without error (spec 4.12). */
export function parseOrderIncludes(include: string | undefined): Set<OrderInclude> {
  const names = new Set((include ?? "").split(",").map((name) => name.trim()));
  return new Set(ORDER_INCLUDES.filter((name) => names.has(name)));
}

/**
 * Order search records (spec 2.10) of one tenant. Included relations are loaded for the whole page with one
 * query each (never per order), in the page's own batch: the page query again, as the set of its order ids.
 */
export async function searchOrders(db: Database, tenantId: number, request: SearchRequest, page: Page, include: ReadonlySet<OrderInclude>) {
  const plan = planSearch(orderSearch, request);
  return orderRecords(db, and(eq(orders.tenantId, tenantId), plan.filter)!, plan, page, include);
}

/** The 404 for an order number the tenant does not have; the number is not echoed (another tenant's looks the same). */
export const orderNotFound = () => notFound("This tenant has no order with that order number.");

/** One order record of the tenant by its number, with the same includes; null when the tenant has no such order. */
export async function findOrder(db: Database, tenantId: number, orderNumber: string, include: ReadonlySet<OrderInclude>) {
  const plan = planSearch(orderSearch, {});
  const where = and(eq(orders.tenantId, tenantId), eq(orders.orderNumber, orderNumber))!;
  const { orders: found } = await orderRecords(db, where, plan, { limit: 1, offset: 0 }, include);
  return found[0] ?? null;
}

async function orderRecords(db: Database, where: SQL, plan: SearchPlan, page: Page, include: ReadonlySet<OrderInclude>) {
  const pageIds = pageOf(db.select({ id: orders.id }).from(orders).$dynamic(), where, plan, page);
  const wantLines = include.has("lineItems");
  const wantDocuments = include.has("shippingInfo");
  const wantHistory = include.has("history");
  const { rows, total, related } = await pageWithTotal(
    db,
    pageOf(
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
        .$dynamic(),
      where,
      plan,
      page,
    ),
    orders,
    where,
    [
      ...(wantLines ? [linesQuery(db, pageIds)] : []),
      ...(wantDocuments ? [documentsQuery(db, pageIds)] : []),
      ...(wantHistory ? [revisionsQuery(db, pageIds)] : []),
    ],
  );
  const lines = wantLines ? (related[0] as LineRow[]) : null;
  const documents = wantDocuments ? (related[wantLines ? 1 : 0] as DocumentRow[]) : null;
  const history = wantHistory ? (related[Number(wantLines) + Number(wantDocuments)] as RevisionRow[]) : null;
  const records = rows.map(({ totalCents, ...order }) => ({
    ...order,
    total: centsToText(totalCents),
    currency: MARKET_CURRENCY,
    ...(lines && { lineItems: lines.filter((line) => line.orderId === order.orderId).map(lineItemView) }),
    ...(documents && { shippingInfo: documents.filter((doc) => doc.orderId === order.orderId).map(shippingInfoView) }),
    ...(history && {
      history: history.filter((row) => row.orderId === order.orderId).map(({ orderId: _order, ...revision }) => revisionView(revision)),
    }),
  }));
  return { orders: records, pagination: paginationOf(page, total, rows.length) };
}

type PageIds = SQLiteSelect;

function linesQuery(db: Database, pageIds: PageIds) {
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
      shippedQuantity: orderLines.shippedQuantity,
      promisedShipDate: orderLines.promisedShipDate,
      expectedShipDate: orderLines.expectedShipDate,
      statusReason: orderLines.statusReason,
      deliveredAt: orderLines.deliveredAt,
      contractPriceCents: orderLines.contractPriceCents,
      confirmationCode: orderLines.confirmationCode,
      proposedChange: orderLines.proposedChange,
    })
    .from(orderLines)
    .where(inArray(orderLines.orderId, pageIds))
    .orderBy(orderLines.orderId, orderLines.lineNumber, orderLines.id);
}

function documentsQuery(db: Database, pageIds: PageIds) {
  return db
    .select({
      orderId: shippingDocuments.orderId,
      shippingDocId: shippingDocuments.id,
      // Per line: its quantity in this parcel; on a document made with the order (no quantity), what is left to ship.
      // Written out qualified: in a single-table select drizzle leaves column names bare, and both tables have quantity.
      lines: sql<string>`(select json_group_array(json_object('lineId', sdl.line_id, 'quantity', coalesce(sdl.quantity, case when shipping_documents.shipped_at is null then ol.quantity - ol.shipped_quantity else ol.quantity end)) order by sdl.line_id) from ${shippingDocumentLines} sdl join ${orderLines} ol on ol.id = sdl.line_id where sdl.shipping_document_id = shipping_documents.id)`,
      attentionTo: shippingDocuments.attentionTo,
      address1: shippingDocuments.address1,
      city: shippingDocuments.city,
      state: shippingDocuments.state,
      zip: shippingDocuments.zip,
      country: shippingDocuments.country,
      carrierName: shippingDocuments.carrierName,
      serviceLevel: shippingDocuments.serviceLevel,
      trackingNumber: shippingDocuments.trackingNumber,
      shippedAt: shippingDocuments.shippedAt,
    })
    .from(shippingDocuments)
    .where(inArray(shippingDocuments.orderId, pageIds))
    .orderBy(shippingDocuments.orderId, shippingDocuments.id);
}

type LineRow = Awaited<ReturnType<typeof linesQuery>>[number];
type DocumentRow = Awaited<ReturnType<typeof documentsQuery>>[number];

type RevisionRow = Awaited<ReturnType<typeof revisionsQuery>>[number];

function lineItemView({ orderId: _order, priceCents, extendedPriceCents, contractPriceCents, proposedChange, ...line }: LineRow) {
  return {
    ...line,
    price: centsToText(priceCents),
    extendedPrice: centsToText(extendedPriceCents),
    contractPrice: contractPriceCents === null ? null : centsToText(contractPriceCents),
    pendingChange: pendingChangeView(proposedChange),
  };
}

function shippingInfoView({ orderId: _order, shippingDocId, lines, ...address }: DocumentRow) {
  const quantities = JSON.parse(lines) as { lineId: number; quantity: number }[];
  return { shippingDocId, lineItemIds: quantities.map((l) => l.lineId), lines: quantities, ...address };
}
