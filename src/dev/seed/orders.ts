import { SHIPPING_METHODS } from "../../api/orders/options";
import { bulkInsertStatement, type SeedDatabase } from "../../db/bulk-insert";
import { rangeFloor } from "../../shared/tenants/id-ranges";
import { generateOffers, generateProduct, prng, VENDORS } from "./catalog";
import { ADDRESSES, FACILITIES, USERS } from "./organizations";

/**
 * Deterministic demo orders for tenants 1 and 2 (and one for tenant 3), with lines, the quotes they
 * consumed and shipping documents: the data `/orders/search` shows on a fresh runtime. They live in their tenant's
 * store, their ids in its range (src/shared/tenants/id-ranges.ts), from DEMO_ID_BASE above its floor, so that a
 * vendor's line id finds its store and re-seeding never touches orders created through the API (the store's own ids
 * come after the highest it holds).
 */

export const DEMO_ID_BASE = 100_000;
const ORDERS_PER_USER = 4;
/** Products the demo lines use: the first ones of the deterministic catalog. */
export const DEMO_PRODUCT_RANGE = 48;
const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_ORDER_DAY = Date.UTC(2025, 8, 1); // 2025-09-01
const QUOTE_VALIDITY_MS = 30 * DAY_MS;

/** Shipping methods with the carrier and service level their shipping documents carry. */
const SHIPPING = (["GROUND", "SECOND_DAY", "NEXT_DAY", "THREE_DAY", "FREIGHT"] as const).map((method) => ({
  method,
  ...SHIPPING_METHODS[method],
}));
const STATUSES = ["Ordered", "Acknowledged", "Shipped", "Delivered", "Cancelled"];
const PAYMENT_METHODS = ["PO", "PO", "NET_TERMS", "CREDIT_CARD_ON_FILE"];

export interface DemoOrder {
  id: number;
  orderNumber: string;
  tenantId: number;
  companyId: number;
  facilityId: number;
  userId: number;
  requesterContactId: number;
  requesterName: string;
  poNumber: string | null;
  paymentMethod: string;
  shippingMethod: string;
  shippingAddressId: number;
  billingAddressId: number;
  status: string;
  totalCents: number;
  eventId: string;
  createdAt: string;
  updatedAt: string;
  lines: DemoLine[];
  shippingDocuments: DemoShippingDocument[];
}

export interface DemoLine {
  id: number;
  lineNumber: number;
  quote: DemoQuote;
  productId: string;
  vendorId: number;
  partNumber: string;
  description: string;
  quantity: number;
  priceCents: number;
  extendedPriceCents: number;
}

interface DemoQuote {
  id: string;
  offerId: number;
  condition: string;
  warranty: string;
  purchaseChoice: string;
  leadTimeDays: number;
  returnPolicy: string;
}

export interface DemoShippingDocument {
  id: number;
  lineIds: number[];
  attentionTo: string | null;
  address1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  carrierName: string;
  serviceLevel: string;
  /** Set for parcels of shipped and delivered orders. */
  trackingNumber: string | null;
  shippedAt: string | null;
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** The demo orders for a catalog of `productCount` products (none when the catalog is empty). */
export function demoOrders(productCount: number): DemoOrder[] {
  const productRange = Math.min(productCount, DEMO_PRODUCT_RANGE);
  if (productRange === 0) return [];
  const requesters = USERS.filter((u) => u.facilities.length > 0 && (u.tenantId !== 3 || u.id === 10));
  const result: DemoOrder[] = [];
  let lineSequence = DEMO_ID_BASE;
  let documentSequence = DEMO_ID_BASE;
  requesters.forEach((user, userIndex) => {
    const count = user.tenantId === 3 ? 1 : ORDERS_PER_USER;
    const floor = rangeFloor(user.tenantId);
    for (let n = 0; n < count; n++) {
      const sequence = result.length + 1;
      const id = floor + DEMO_ID_BASE + sequence;
      const rand = prng(DEMO_ID_BASE + sequence);
      const facility = FACILITIES.find((f) => f.id === user.facilities[n % user.facilities.length])!;
      const companyAddresses = ADDRESSES.filter((a) => a.companyId === facility.companyId);
      const shippingAddress = companyAddresses.filter((a) => a.kind === "shipping")[n % 2]!;
      const billingAddress = companyAddresses.find((a) => a.kind === "billing")!;
      const shipping = SHIPPING[(userIndex + n) % SHIPPING.length]!;
      const status = STATUSES[(userIndex * 2 + n) % STATUSES.length]!;
      const paymentMethod = PAYMENT_METHODS[(userIndex + n * 3) % PAYMENT_METHODS.length]!;
      const created = FIRST_ORDER_DAY + Math.floor(rand() * 120) * DAY_MS + Math.floor(rand() * 10 * 3600) * 1000 + 7 * 3600 * 1000;
      const updated = status === "Ordered" ? created : created + (1 + Math.floor(rand() * 9)) * DAY_MS;
      const lines: DemoLine[] = [];
      const lineCount = 1 + Math.floor(rand() * 3);
      for (let lineNumber = 1; lineNumber <= lineCount; lineNumber++) {
        const productIndex = (sequence * 7 + lineNumber * 5) % productRange;
        const product = generateProduct(productIndex);
        const offer = generateOffers(productIndex).find((o) => o.customFields.every((f) => !f.isRequired))!;
        const quantity = 1 + Math.floor(rand() * 4);
        lines.push({
          id: floor + ++lineSequence,
          lineNumber,
          quote: {
            id: `demo-quote-${id}-${lineNumber}`,
            offerId: offer.id,
            condition: offer.condition,
            warranty: offer.warranty,
            purchaseChoice: offer.purchaseChoice,
            leadTimeDays: offer.leadTimeDays,
            returnPolicy: VENDORS.find((v) => v.id === offer.vendorId)!.returnPolicy,
          },
          productId: product.id,
          vendorId: offer.vendorId,
          partNumber: product.partNumber,
          description: product.title,
          quantity,
          priceCents: offer.priceCents,
          extendedPriceCents: offer.priceCents * quantity,
        });
      }
      const document = (lineIds: number[]): DemoShippingDocument => ({
        id: floor + ++documentSequence,
        lineIds,
        attentionTo: shippingAddress.attentionTo,
        address1: shippingAddress.line1,
        city: shippingAddress.city,
        state: shippingAddress.state,
        zip: shippingAddress.zip,
        country: shippingAddress.country,
        carrierName: shipping.carrierName,
        serviceLevel: shipping.serviceLevel,
        ...(status === "Shipped" || status === "Delivered"
          ? { trackingNumber: `1ZDEMO${String(documentSequence).padStart(10, "0")}`, shippedAt: new Date(updated).toISOString() }
          : { trackingNumber: null, shippedAt: null }),
      });
      // Cancelled orders never shipped; a shipped multi-line order may have gone out in two parcels.
      const lineIds = lines.map((l) => l.id);
      const shippingDocuments =
        status === "Cancelled"
          ? []
          : status === "Shipped" && lineIds.length > 1
            ? [document(lineIds.slice(0, 1)), document(lineIds.slice(1))]
            : [document(lineIds)];
      const date = new Date(created).toISOString().slice(0, 10).replaceAll("-", "");
      result.push({
        id,
        orderNumber: `ORD-${date}-DEMO${String(sequence).padStart(4, "0")}`,
        tenantId: user.tenantId,
        companyId: facility.companyId,
        facilityId: facility.id,
        userId: user.id,
        requesterContactId: user.contactId,
        requesterName: `${user.firstName} ${user.lastName}`,
        poNumber: paymentMethod === "CREDIT_CARD_ON_FILE" ? null : `PO-${user.tenantId}${String(4000 + sequence * 13)}`,
        paymentMethod,
        shippingMethod: shipping.method,
        shippingAddressId: shippingAddress.id,
        billingAddressId: billingAddress.id,
        status,
        totalCents: lines.reduce((sum, l) => sum + l.extendedPriceCents, 0),
        eventId: uuid(DEMO_ID_BASE + sequence),
        createdAt: new Date(created).toISOString(),
        updatedAt: new Date(updated).toISOString(),
        lines,
        shippingDocuments,
      });
    }
  });
  return result;
}

/** INSERT OR IGNORE statements for the demo orders, in foreign-key order; re-running changes nothing. */
export function orderStatements<S>(d1: SeedDatabase<S>, orders: readonly DemoOrder[]): S[] {
  if (orders.length === 0) return [];
  const lines = orders.flatMap((order) => order.lines.map((line) => ({ order, line })));
  const documents = orders.flatMap((order) => order.shippingDocuments.map((document) => ({ order, document })));
  return [
    bulkInsertStatement(
      d1,
      "quotes",
      [
        "id",
        "tenant_id",
        "requester_contact_id",
        "facility_id",
        "product_id",
        "offer_id",
        "vendor_id",
        "price_cents",
        "condition",
        "warranty",
        "purchase_choice",
        "lead_time_days",
        "return_policy",
        "custom_fields",
        "created_at",
        "expires_at",
        "used_by_order_id",
      ],
      lines.map(({ order, line }) => {
        const q = line.quote;
        const expiresAt = new Date(Date.parse(order.createdAt) + QUOTE_VALIDITY_MS).toISOString();
        return [
          q.id,
          order.tenantId,
          order.requesterContactId,
          order.facilityId,
          line.productId,
          q.offerId,
          line.vendorId,
          line.priceCents,
          q.condition,
          q.warranty,
          q.purchaseChoice,
          q.leadTimeDays,
          q.returnPolicy,
          "[]",
          order.createdAt,
          expiresAt,
          order.id,
        ];
      }),
    ),
    bulkInsertStatement(
      d1,
      "orders",
      [
        "id",
        "order_number",
        "tenant_id",
        "company_id",
        "facility_id",
        "requester_contact_id",
        "user_id",
        "requester_name",
        "po_number",
        "payment_method",
        "shipping_method",
        "shipping_address_id",
        "billing_address_id",
        "notes",
        "status",
        "total_cents",
        "event_id",
        "created_at",
        "updated_at",
      ],
      orders.map((o) => [
        o.id,
        o.orderNumber,
        o.tenantId,
        o.companyId,
        o.facilityId,
        o.requesterContactId,
        o.userId,
        o.requesterName,
        o.poNumber,
        o.paymentMethod,
        o.shippingMethod,
        o.shippingAddressId,
        o.billingAddressId,
        null,
        o.status,
        o.totalCents,
        o.eventId,
        o.createdAt,
        o.updatedAt,
      ]),
    ),
    bulkInsertStatement(
      d1,
      "order_lines",
      [
        "id",
        "order_id",
        "line_number",
        "quote_id",
        "product_id",
        "vendor_id",
        "part_number",
        "requested_part_number",
        "replacement_part_number",
        "po_number",
        "description",
        "quantity",
        "price_cents",
        "extended_price_cents",
        "status_name",
        "required_fields",
        "shipped_quantity",
      ],
      lines.map(({ order, line }) => [
        line.id,
        order.id,
        line.lineNumber,
        line.quote.id,
        line.productId,
        line.vendorId,
        line.partNumber,
        line.partNumber,
        null,
        order.poNumber,
        line.description,
        line.quantity,
        line.priceCents,
        line.extendedPriceCents,
        order.status, // every line of a demo order has the order's status (src/api/orders/lifecycle.ts derives it back)
        "[]",
        order.status === "Shipped" || order.status === "Delivered" ? line.quantity : 0,
      ]),
    ),
    bulkInsertStatement(
      d1,
      "shipping_documents",
      [
        "id",
        "order_id",
        "attention_to",
        "address1",
        "city",
        "state",
        "zip",
        "country",
        "carrier_name",
        "service_level",
        "tracking_number",
        "shipped_at",
      ],
      documents.map(({ order, document: d }) => [
        d.id,
        order.id,
        d.attentionTo,
        d.address1,
        d.city,
        d.state,
        d.zip,
        d.country,
        d.carrierName,
        d.serviceLevel,
        d.trackingNumber,
        d.shippedAt,
      ]),
    ),
    bulkInsertStatement(
      d1,
      "shipping_document_lines",
      ["shipping_document_id", "line_id"],
      documents.flatMap(({ document }) => document.lineIds.map((lineId) => [document.id, lineId])),
    ),
  ];
}
