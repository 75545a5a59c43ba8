import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import {
  addresses,
  invoiceLines,
  invoices,
  orderLines,
  orders,
  type RequiredFieldValue,
  shippingDocumentLines,
  shippingDocuments,
  unitReturns,
} from "../../db/schema";
import { notFound, ProblemError } from "../../platform/errors";
import { amountText, centsToText, MARKET_CURRENCY } from "../../platform/money";
import type { LineStatus } from "../orders/lifecycle";
import { pendingChangeView } from "../orders/line-history";
import type { ShippingMethod } from "../orders/options";
import { VENDOR_STEP_STATUSES } from "../returns/steps";
import type { Attention } from "./projection/schema";
import type { LineCondition } from "./projection/search";

/**
 * What a vendor sees of the orders it fulfils: its own order lines, each with what it needs to ship it (the ship-to
 * address and the buyer's shipping method) and its shipments. Never the order's other lines, prices of other vendors,
 * the buyer's tenant or users: every query here is scoped by the vendor of the line.
 */

/** Lines still to fulfil: the default of the vendor's list. */
export const OPEN_LINE_STATUSES: readonly LineStatus[] = ["Ordered", "Acknowledged", "Backordered"];

export interface VendorShipment {
  shippingDocId: number;
  trackingNumber: string | null;
  carrierName: string;
  serviceLevel: string;
  quantity: number;
  shippedAt: string;
}

/**
 * An order's ship-to address (`addresses` joined on `orders.shipping_address_id`), named as a shipping document's
 * columns: the vendor's view shows it, and a parcel's shipping document copies it.
 */
export const shipToColumns = {
  attentionTo: addresses.attentionTo,
  address1: addresses.line1,
  city: addresses.city,
  state: addresses.state,
  zip: addresses.zip,
  country: addresses.country,
};

const lineColumns = {
  lineId: orderLines.id,
  orderNumber: orders.orderNumber,
  lineNumber: orderLines.lineNumber,
  orderDate: orders.createdAt,
  statusName: orderLines.statusName,
  partNumber: orderLines.partNumber,
  description: orderLines.description,
  quantity: orderLines.quantity,
  shippedQuantity: orderLines.shippedQuantity,
  priceCents: orderLines.priceCents,
  extendedPriceCents: orderLines.extendedPriceCents,
  poNumber: orderLines.poNumber,
  requiredFields: orderLines.requiredFields,
  promisedShipDate: orderLines.promisedShipDate,
  expectedShipDate: orderLines.expectedShipDate,
  statusReason: orderLines.statusReason,
  deliveredAt: orderLines.deliveredAt,
  contractPriceCents: orderLines.contractPriceCents,
  confirmationCode: orderLines.confirmationCode,
  proposedChange: orderLines.proposedChange,
  shippingMethod: orders.shippingMethod,
  ...shipToColumns,
  // What waits for the vendor besides the line's state: its returns whose next step is the vendor's, and the invoices
  // billing it that are in exception (a desk's worklist counts both; the store publishes the line when either changes).
  returnsToReceive: sql<number>`(select count(*) from ${unitReturns} where ${unitReturns.lineId} = ${orderLines.id} and (${unitReturns.kind} || ':' || ${unitReturns.status}) in (select value from json_each(${JSON.stringify(VENDOR_STEP_STATUSES)})))`,
  invoicesInException: sql<number>`(select count(distinct ${invoiceLines.invoiceId}) from ${invoiceLines} join ${invoices} on ${invoices.id} = ${invoiceLines.invoiceId} where ${invoiceLines.orderLineId} = ${orderLines.id} and ${invoices.status} = 'exception')`,
  // The line's parcels, oldest first; a document made with the order counts the whole line.
  shipments: sql<string>`(select json_group_array(json_object('shippingDocId', ${shippingDocuments.id}, 'trackingNumber', ${shippingDocuments.trackingNumber}, 'carrierName', ${shippingDocuments.carrierName}, 'serviceLevel', ${shippingDocuments.serviceLevel}, 'quantity', coalesce(${shippingDocumentLines.quantity}, ${orderLines.quantity}), 'shippedAt', ${shippingDocuments.shippedAt}) order by ${shippingDocuments.id}) from ${shippingDocumentLines} join ${shippingDocuments} on ${shippingDocuments.id} = ${shippingDocumentLines.shippingDocumentId} where ${shippingDocumentLines.lineId} = ${orderLines.id} and ${shippingDocuments.shippedAt} is not null)`,
};

function linesQuery(db: Database) {
  return db
    .select(lineColumns)
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(addresses, eq(addresses.id, orders.shippingAddressId));
}

function view(row: Awaited<ReturnType<ReturnType<typeof linesQuery>["all"]>>[number]) {
  const {
    priceCents,
    extendedPriceCents,
    attentionTo,
    address1,
    city,
    state,
    zip,
    country,
    shipments,
    contractPriceCents,
    proposedChange,
    ...line
  } = row;
  return {
    ...line,
    contractPrice: contractPriceCents === null ? null : centsToText(contractPriceCents),
    pendingChange: pendingChangeView(proposedChange),
    statusName: line.statusName as LineStatus,
    shippingMethod: line.shippingMethod as ShippingMethod,
    price: centsToText(priceCents),
    extendedPrice: centsToText(extendedPriceCents),
    currency: MARKET_CURRENCY,
    requiredFields: line.requiredFields as RequiredFieldValue[],
    shipTo: { attentionTo, address1, city, state, zip, country },
    shipments: JSON.parse(shipments) as VendorShipment[],
  };
}

export type VendorOrderLine = ReturnType<typeof view>;

/**
 * A line as a vendor's projection holds it, as the latest version gives it: one published before 2026-12-07 has its
 * amounts as JSON numbers and no currency (a line is published again only when it changes).
 */
export function storedLineNow(line: VendorOrderLine): VendorOrderLine {
  if (typeof (line.price as unknown) !== "number") return line;
  return {
    ...line,
    price: amountText(line.price),
    extendedPrice: amountText(line.extendedPrice),
    contractPrice: line.contractPrice === null ? null : amountText(line.contractPrice),
    currency: MARKET_CURRENCY,
  };
}

/**
 * Vendors see live orders only: a test-mode order (its tenant a sandbox twin, id < 0; src/platform/test-mode.ts) is
 * fulfilled by the sandbox's simulated vendor, and is a 404 to the real one like an unknown line.
 */
export const liveOrder = sql`exists (select 1 from ${orders} where ${orders.id} = ${orderLines.orderId} and ${orders.tenantId} > 0)`;

export const vendorLineNotFound = () => notFound("The vendor has no order line with that id.");

/**
 * A request about the vendor's lines of one order (a confirmation, a parcel) naming lines `found` lacks (another
 * order's, or none of the vendor's): a 422 naming each of them, or nothing when every id was found.
 */
export function expectLinesOfOneOrder(
  ids: readonly number[],
  found: ReadonlyMap<number, unknown>,
  orderNumber: string,
  what: string,
): void {
  const strangers = ids.filter((id) => !found.has(id));
  if (strangers.length === 0) return;
  throw new ProblemError(
    422,
    "lines-of-several-orders",
    "Lines of one order only",
    `${what} the vendor's lines of one order (${orderNumber}, that of lines[0]); not among them: ${strangers.join(", ")}.`,
    { errors: strangers.map((id) => `lines[${ids.indexOf(id)}].lineId: ${id} is not one of the vendor's lines of ${orderNumber}.`) },
  );
}

/** One of the vendor's lines; null when the id is unknown or the line is another vendor's (indistinguishable). */
export async function findVendorLine(db: Database, vendorId: number, lineId: number): Promise<VendorOrderLine | null> {
  const row = await linesQuery(db)
    .where(and(eq(orderLines.id, lineId), eq(orderLines.vendorId, vendorId), liveOrder))
    .get();
  return row ? view(row) : null;
}

/** Lines by id as their vendors read them (a tenant store publishing its changed lines), whoever the vendor. */
export async function linesById(db: Database, lineIds: readonly number[]): Promise<Map<number, VendorOrderLine>> {
  const rows = await linesQuery(db)
    .where(sql`${orderLines.id} in (select value from json_each(${JSON.stringify(lineIds)}))`)
    .all();
  return new Map(rows.map((row) => [row.lineId, view(row)]));
}

/** The vendor's lines of the given ids, sorted as its list is (oldest order first, then line id). */
export async function findVendorLines(db: Database, vendorId: number, lineIds: readonly number[]): Promise<VendorOrderLine[]> {
  if (lineIds.length === 0) return [];
  const rows = await linesQuery(db)
    .where(and(eq(orderLines.vendorId, vendorId), sql`${orderLines.id} in (select value from json_each(${JSON.stringify(lineIds)}))`))
    .orderBy(asc(orders.createdAt), asc(orderLines.id))
    .all();
  return rows.map(view);
}

/** The filter of a vendor's list of lines (src/api/vendors/projection/list.ts). */
export interface VendorLineFilter {
  statuses: readonly LineStatus[];
  orderNumber?: string | undefined;
  /** Instead of statuses and order: the lines on which a return (`returns`) or an invoice (`invoices`) waits for the vendor. */
  attention?: Attention | undefined;
  /** A q query's condition (projection/search.ts), with the statuses and order. */
  where?: LineCondition | undefined;
}
