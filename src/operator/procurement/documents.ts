import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { centsToText } from "../../platform/money";
import { LATEST_VERSION } from "../../platform/versions/calendar";
import { randomToken } from "../../shared/auth/secrets";
import { tenantStoreDatabase } from "../../shared/tenants/store-database";
import { type Connection, readConnection } from "./connections";
import { CXML_DTD, cxmlDocument, cxmlTimestamp, el, type Markup, money } from "./cxml";
import { unitOfMeasureCode } from "./shop/order-message";

/**
 * Documents back to the suite (docs/api.md, "Procurement systems (cXML)"). A connection with a documentUrl has a webhook
 * endpoint of its tenant (`we_cxml_{id}`, connection_id set), so its events go through the outbox, queue, ordering and
 * retries of every webhook; the API Worker's delivery asks this plane for each event's document (POST
 * /__procurement/documents/{connectionId}, reachable only over the ADMIN binding) and posts it, signed, as text/xml.
 * An event of an order no OrderRequest placed, or of a kind the suite is not told, has no document (204).
 */

export const DOCUMENTS_PATH = "/__procurement/documents";

/** The events that make a document: confirmations of lines, parcels shipped, invoices. */
export const DOCUMENT_EVENT_TYPES = [
  "order.acknowledged",
  "order.backordered",
  "order.rejected",
  "order.confirmed",
  "order.shipped",
  "invoice.received",
];

export const documentEndpointId = (connectionId: number) => `we_cxml_${connectionId}`;

/** Creates, points or disables the connection's endpoint in its tenant's home (DB or store): after each write of it. */
export async function syncDocumentEndpoint(env: AppEnv["Bindings"], connection: Connection): Promise<void> {
  const dataTenantId = connection.mode === "test" ? -connection.tenantId : connection.tenantId;
  const db = tenantStoreDatabase(env, dataTenantId);
  const id = documentEndpointId(connection.id);
  if (connection.documentUrl === null) {
    await db.prepare("UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'documentUrl removed' WHERE id = ?").bind(id).run();
    return;
  }
  await db
    .prepare(
      "INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, secret_salt, enabled, created_at, api_version, connection_id) " +
        "VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8) ON CONFLICT (id) DO UPDATE SET url = excluded.url, event_types = excluded.event_types, " +
        "enabled = 1, disabled_reason = NULL, failing_since = NULL",
    )
    .bind(
      id,
      dataTenantId,
      connection.documentUrl,
      JSON.stringify(DOCUMENT_EVENT_TYPES),
      randomToken(16),
      new Date().toISOString(),
      LATEST_VERSION,
      connection.id,
    )
    .run();
}

export interface OrderLineRef {
  lineNumber: string;
  quantity: number;
  unitOfMeasure: string;
}

export interface PlacedOrder {
  orderId: string;
  payloadId: string;
  orderDate: string | null;
  /** By Medparts line id. */
  lines: Record<string, OrderLineRef>;
}

/** Remembers what an OrderRequest placed, for the documents its events make later. */
export async function recordPlacedOrder(db: D1Database, connectionId: number, orderNumber: string, placed: PlacedOrder): Promise<void> {
  await db
    .prepare(
      "INSERT INTO procurement_orders (order_number, connection_id, order_id, payload_id, order_date, lines, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) " +
        "ON CONFLICT (order_number) DO NOTHING",
    )
    .bind(
      orderNumber,
      connectionId,
      placed.orderId,
      placed.payloadId,
      placed.orderDate,
      JSON.stringify(placed.lines),
      new Date().toISOString(),
    )
    .run();
}

interface EventRecord {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

const orderReference = (order: PlacedOrder) =>
  el("OrderReference", { orderID: order.orderId, orderDate: order.orderDate }, el("DocumentReference", { payloadID: order.payloadId }));

const header = (connection: Pick<Connection, "buyerIdentities" | "supplierIdentity">) => {
  const credential = (party: { domain: string; identity: string }) =>
    el("Credential", { domain: party.domain }, el("Identity", {}, party.identity));
  return el(
    "Header",
    {},
    el("From", {}, credential(connection.supplierIdentity)),
    el("To", {}, connection.buyerIdentities.map(credential)),
    el("Sender", {}, credential(connection.supplierIdentity), el("UserAgent", {}, "Medparts")),
  );
};

const request = (
  connection: Pick<Connection, "buyerIdentities" | "supplierIdentity" | "mode">,
  body: Markup,
  now: Date,
  dtd = "Fulfill.dtd",
) =>
  cxmlDocument([header(connection), el("Request", connection.mode === "test" ? { deploymentMode: "test" } : {}, body)], {
    now,
    dtd: CXML_DTD(dtd),
  });

type ConfirmationStatus = "accept" | "reject" | "backordered" | "detail";

interface ConfirmedLine {
  line: OrderLineRef;
  status: ConfirmationStatus;
  quantity?: number;
  shipmentDate?: string | null;
  comment?: string | null;
}

/** A ConfirmationRequest of some lines of a placed order (Fulfill.dtd). */
export function confirmationRequest(
  connection: Pick<Connection, "buyerIdentities" | "supplierIdentity" | "mode">,
  order: PlacedOrder,
  type: "accept" | "detail" | "backordered" | "reject" | "except",
  lines: ConfirmedLine[],
  confirmId: string,
  now = new Date(),
): string {
  const items = lines.map(({ line, status, quantity, shipmentDate, comment }) =>
    el(
      "ConfirmationItem",
      { quantity: line.quantity, lineNumber: line.lineNumber },
      el("UnitOfMeasure", {}, unitOfMeasureCode(line.unitOfMeasure)),
      el(
        "ConfirmationStatus",
        { quantity: quantity ?? line.quantity, type: status, shipmentDate: shipmentDate ? `${shipmentDate}T00:00:00+00:00` : undefined },
        el("UnitOfMeasure", {}, unitOfMeasureCode(line.unitOfMeasure)),
        comment ? el("Comments", { "xml:lang": "en-US" }, comment) : null,
      ),
    ),
  );
  return request(
    connection,
    el(
      "ConfirmationRequest",
      {},
      el("ConfirmationHeader", { confirmID: confirmId, type, noticeDate: cxmlTimestamp(now) }),
      orderReference(order),
      items,
    ),
    now,
  );
}

interface ShippedUnit {
  lot: string | null;
  serial: string | null;
  expiry: string | null;
  units: number;
}

/** A ShipNoticeRequest of one parcel (Fulfill.dtd): carrier, tracking, lots with their expiry, serial numbers. */
export function shipNoticeRequest(
  connection: Pick<Connection, "buyerIdentities" | "supplierIdentity" | "mode">,
  order: PlacedOrder,
  parcel: {
    shipmentId: string;
    line: OrderLineRef;
    quantity: number;
    carrierName: string;
    trackingNumber: string;
    shippedAt: string;
    units: ShippedUnit[];
  },
  now = new Date(),
): string {
  const lots = [...new Map(parcel.units.filter((unit) => unit.lot).map((unit) => [unit.lot!, unit.expiry])).entries()];
  const serials = parcel.units.map((unit) => unit.serial).filter((serial): serial is string => Boolean(serial));
  return request(
    connection,
    el(
      "ShipNoticeRequest",
      {},
      el("ShipNoticeHeader", {
        shipmentID: parcel.shipmentId,
        operation: "new",
        noticeDate: cxmlTimestamp(now),
        shipmentDate: cxmlTimestamp(new Date(parcel.shippedAt)),
      }),
      el(
        "ShipControl",
        {},
        el("CarrierIdentifier", { domain: "companyName" }, parcel.carrierName),
        el("ShipmentIdentifier", {}, parcel.trackingNumber),
      ),
      el(
        "ShipNoticePortion",
        {},
        orderReference(order),
        el(
          "ShipNoticeItem",
          { quantity: parcel.quantity, lineNumber: parcel.line.lineNumber },
          el("UnitOfMeasure", {}, unitOfMeasureCode(parcel.line.unitOfMeasure)),
          lots.map(([lot, expiry]) =>
            el("Batch", { expirationDate: expiry ? `${expiry.slice(0, 10)}T00:00:00+00:00` : undefined }, el("SupplierBatchID", {}, lot)),
          ),
          serials.map((serial) => el("AssetInfo", { serialNumber: serial })),
        ),
      ),
    ),
    now,
  );
}

export interface InvoiceDoc {
  number: string;
  invoiceDate: string;
  currency: string;
  subtotalCents: number;
  taxCents: number;
  freightCents: number;
  totalCents: number;
  lines: {
    lineNumber: number;
    orderLineId: number | null;
    partNumber: string | null;
    description: string | null;
    quantity: number;
    unitPriceCents: number;
    amountCents: number;
    taxCents: number;
  }[];
}

/** A line number as cXML's %uint: the suite's own when it is one, else the invoice line's. */
const uint = (text: string | undefined, fallback: number) => (text && /^\d{1,9}$/.test(text) ? text : String(fallback));

/**
 * An InvoiceDetailRequest of a vendor's invoice (InvoiceDetail.dtd): each line at its unit price against the suite's
 * line number, with its tax; the summary's subtotal, tax, freight and total exactly as invoiced, in integer cents.
 */
export function invoiceDetailRequest(
  connection: Pick<Connection, "buyerIdentities" | "supplierIdentity" | "mode">,
  order: PlacedOrder,
  invoice: InvoiceDoc,
  now = new Date(),
): string {
  const amount = (cents: number) => money(centsToText(cents), invoice.currency);
  const tax = (cents: number) => el("Tax", {}, amount(cents), el("Description", { "xml:lang": "en-US" }, "Sales tax"));
  const taxInLine = invoice.lines.some((line) => line.taxCents !== 0);
  const items = invoice.lines.map((line) => {
    const ref = line.orderLineId === null ? undefined : order.lines[String(line.orderLineId)];
    return el(
      "InvoiceDetailItem",
      { invoiceLineNumber: line.lineNumber, quantity: line.quantity },
      el("UnitOfMeasure", {}, unitOfMeasureCode(ref?.unitOfMeasure ?? "EA")),
      el("UnitPrice", {}, amount(line.unitPriceCents)),
      el(
        "InvoiceDetailItemReference",
        { lineNumber: uint(ref?.lineNumber, line.lineNumber) },
        line.partNumber ? el("ItemID", {}, el("SupplierPartID", {}, line.partNumber)) : null,
        line.description ? el("Description", { "xml:lang": "en-US" }, line.description) : null,
      ),
      el("SubtotalAmount", {}, amount(line.amountCents)),
      taxInLine ? tax(line.taxCents) : null,
    );
  });
  return request(
    connection,
    el(
      "InvoiceDetailRequest",
      {},
      el(
        "InvoiceDetailRequestHeader",
        {
          invoiceID: invoice.number,
          purpose: "standard",
          operation: "new",
          invoiceDate: `${invoice.invoiceDate.slice(0, 10)}T00:00:00+00:00`,
        },
        el("InvoiceDetailHeaderIndicator"),
        el("InvoiceDetailLineIndicator", taxInLine ? { isTaxInLine: "yes" } : {}),
      ),
      el("InvoiceDetailOrder", {}, el("InvoiceDetailOrderInfo", {}, orderReference(order)), items),
      el(
        "InvoiceDetailSummary",
        {},
        el("SubtotalAmount", {}, amount(invoice.subtotalCents)),
        tax(invoice.taxCents),
        invoice.freightCents !== 0 ? el("ShippingAmount", {}, amount(invoice.freightCents)) : null,
        el("GrossAmount", {}, amount(invoice.totalCents)),
        el("NetAmount", {}, amount(invoice.totalCents)),
        el("DueAmount", {}, amount(invoice.totalCents)),
      ),
    ),
    now,
    "InvoiceDetail.dtd",
  );
}

/** An invoice of the connection's tenant (live or twin), read where the tenant's data lives. */
async function invoiceOf(env: AppEnv["Bindings"], connection: Connection, invoiceId: number): Promise<InvoiceDoc | null> {
  const dataTenantId = connection.mode === "test" ? -connection.tenantId : connection.tenantId;
  const db = tenantStoreDatabase(env, dataTenantId);
  const [invoices, lines] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        "SELECT number, invoice_date, currency, subtotal_cents, tax_cents, freight_cents, total_cents FROM invoices WHERE id = ? AND tenant_id = ? AND kind = 'invoice'",
      )
      .bind(invoiceId, dataTenantId),
    db
      .prepare(
        "SELECT line_number, order_line_id, part_number, description, quantity, unit_price_cents, amount_cents, tax_cents FROM invoice_lines WHERE invoice_id = ? ORDER BY line_number",
      )
      .bind(invoiceId),
  ]);
  const row = invoices!.results[0] as unknown as InvoiceRow | undefined;
  if (!row) return null;
  return {
    number: row.number,
    invoiceDate: row.invoice_date,
    currency: row.currency,
    subtotalCents: row.subtotal_cents,
    taxCents: row.tax_cents,
    freightCents: row.freight_cents,
    totalCents: row.total_cents,
    lines: (lines!.results as unknown as InvoiceLineRow[]).map((line) => ({
      lineNumber: line.line_number,
      orderLineId: line.order_line_id,
      partNumber: line.part_number,
      description: line.description,
      quantity: line.quantity,
      unitPriceCents: line.unit_price_cents,
      amountCents: line.amount_cents,
      taxCents: line.tax_cents,
    })),
  };
}

interface InvoiceRow {
  number: string;
  invoice_date: string;
  currency: string;
  subtotal_cents: number;
  tax_cents: number;
  freight_cents: number;
  total_cents: number;
}

interface InvoiceLineRow {
  line_number: number;
  order_line_id: number | null;
  part_number: string | null;
  description: string | null;
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
  tax_cents: number;
}

/** The X12 855 confirmation types Medparts keeps (order.confirmed) as cXML's ConfirmationHeader types. */
const HEADER_TYPES = new Set(["accept", "detail", "except", "backordered", "reject"]);

/** The document an event makes for the suite, or null when it makes none. */
export function documentOf(connection: Connection, order: PlacedOrder, event: EventRecord, now = new Date()): string | null {
  const data = event.data;
  const line = order.lines[String(data.lineId)];
  const confirm = (type: "accept" | "backordered" | "reject", status: ConfirmationStatus, extra: Partial<ConfirmedLine> = {}) =>
    line ? confirmationRequest(connection, order, type, [{ line, status, ...extra }], event.id, now) : null;
  switch (event.type) {
    case "order.acknowledged":
      return confirm("accept", "accept", { shipmentDate: data.promisedShipDate as string | null });
    case "order.backordered":
      return confirm("backordered", "backordered", {
        shipmentDate: data.expectedShipDate as string | null,
        comment: data.reason as string | null,
      });
    case "order.rejected":
      return confirm("reject", "reject", { comment: data.reason as string });
    case "order.confirmed": {
      const confirmed = (data.lines as { lineId: number; name: string; lineStatus: string; quantity?: number; reason?: string | null }[])
        .map((changed) => ({ changed, ref: order.lines[String(changed.lineId)] }))
        .filter((entry): entry is { changed: (typeof entry)["changed"]; ref: OrderLineRef } => entry.ref !== undefined)
        .map(({ changed, ref }) => ({
          line: ref,
          status: (changed.lineStatus === "Rejected" || changed.lineStatus === "Cancelled"
            ? "reject"
            : changed.lineStatus === "Backordered"
              ? "backordered"
              : changed.name === "accepted"
                ? "accept"
                : "detail") as ConfirmationStatus,
          ...(changed.quantity !== undefined ? { quantity: changed.quantity } : {}),
          comment: changed.reason ?? (changed.name === "accepted" ? null : changed.name),
        }));
      const type = String(data.type);
      return confirmed.length > 0
        ? confirmationRequest(connection, order, (HEADER_TYPES.has(type) ? type : "detail") as "detail", confirmed, event.id, now)
        : null;
    }
    case "order.shipped":
      return line
        ? shipNoticeRequest(
            connection,
            order,
            {
              // One notice per line of a parcel: the tracking number and the line make its shipmentID unique.
              shipmentId: `${String(data.trackingNumber ?? event.id)}-${line.lineNumber}`,
              line,
              quantity: Number(data.quantity),
              carrierName: String(data.carrierName ?? ""),
              trackingNumber: String(data.trackingNumber ?? ""),
              shippedAt: String(data.shippedAt ?? event.createdAt),
              units: (data.units as ShippedUnit[] | undefined) ?? [],
            },
            now,
          )
        : null;
    default:
      return null;
  }
}

/** The event's document, rendered now (an invoice read where the tenant's data lives), or null when it makes none. */
async function renderDocument(
  env: AppEnv["Bindings"],
  connection: Connection,
  order: PlacedOrder,
  event: EventRecord,
): Promise<string | null> {
  if (event.type !== "invoice.received") return documentOf(connection, order, event);
  const invoice = await invoiceOf(env, connection, Number(event.data.invoiceId));
  return invoice === null ? null : invoiceDetailRequest(connection, order, invoice);
}

/**
 * Sent documents are kept as long as the events they render (EVENT_RETENTION_DAYS, src/api/events/types.ts, which the
 * operator plane does not import; a test holds the two equal): no delivery of an event outlives it.
 */
export const SENT_DOCUMENT_RETENTION_DAYS = 30;

/** Housekeeping: sent documents past their retention are deleted in bounded batches. */
export async function purgeSentDocuments(db: D1Database, now: Date, limit = 500): Promise<number> {
  const before = new Date(now.getTime() - SENT_DOCUMENT_RETENTION_DAYS * 86_400_000).toISOString();
  const { meta } = await db
    .prepare(
      "DELETE FROM procurement_sent_documents WHERE rowid IN (SELECT rowid FROM procurement_sent_documents WHERE created_at < ? LIMIT ?)",
    )
    .bind(before, limit)
    .run();
  return meta.changes ?? 0;
}

/**
 * The operator plane's internal route the API Worker's delivery calls (over ADMIN only: no public path leads here). An
 * event's document is rendered once and kept (migrations/0035): every attempt sends the first one's bytes, payloadID
 * and timestamp included, as suites de-duplicate on payloadID. Two first attempts at once keep the one stored first.
 */
export const documentRoutes = new Hono<AppEnv>().post(`${DOCUMENTS_PATH}/:connectionId`, async (c) => {
  const connectionId = Number(c.req.param("connectionId"));
  const event = (await c.req.json()) as EventRecord;
  const orderNumber = typeof event.data?.orderNumber === "string" ? event.data.orderNumber : "";
  const xml = (document: string) => c.body(document, 200, { "Content-Type": "text/xml; charset=UTF-8" });
  const [connection, row, sent] = await Promise.all([
    readConnection(c.env.DB, connectionId),
    c.env.DB.prepare("SELECT * FROM procurement_orders WHERE order_number = ? AND connection_id = ?")
      .bind(orderNumber, connectionId)
      .first<{ order_id: string; payload_id: string; order_date: string | null; lines: string }>(),
    c.env.DB.prepare("SELECT document FROM procurement_sent_documents WHERE connection_id = ? AND event_id = ?")
      .bind(connectionId, event.id)
      .first<string>("document"),
  ]);
  if (sent !== null) return xml(sent);
  if (!connection || !row) return c.body(null, 204);
  const order: PlacedOrder = {
    orderId: row.order_id,
    payloadId: row.payload_id,
    orderDate: row.order_date,
    lines: JSON.parse(row.lines) as PlacedOrder["lines"],
  };
  const rendered = await renderDocument(c.env, connection, order, event);
  if (rendered === null) return c.body(null, 204);
  const kept = await c.env.DB.prepare(
    "INSERT INTO procurement_sent_documents (connection_id, event_id, document, created_at) VALUES (?1, ?2, ?3, ?4) " +
      "ON CONFLICT (connection_id, event_id) DO UPDATE SET document = procurement_sent_documents.document RETURNING document",
  )
    .bind(connectionId, event.id, rendered, new Date().toISOString())
    .first<string>("document");
  return xml(kept ?? rendered);
});
