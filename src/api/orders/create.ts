import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunk } from "../../db/bulk-insert";
import { products } from "../../db/catalog-schema";
import { type Database, database } from "../../db/client";
import { addresses, orderLines, orders, outboxEvents, quotes, shippingDocumentLines, shippingDocuments, users } from "../../db/schema";
import type { Bindings } from "../../env";
import { BusinessRuleError, ProblemError } from "../../platform/errors";
import { centsToDecimal } from "../../platform/money";
import { sideBySide } from "../../platform/side-by-side";
import { isSignedPriceOptionId } from "../../shared/catalog/price-option-ids";
import { loadLiveQuotes, type QuoteRecord } from "../../shared/catalog/quotes";
import { type OrderingContext, requireFacilityAccess, requireUserFacilityAccess } from "../../shared/users/access";
import type { EventData } from "../events/schemas";
import type { EventType } from "../events/types";
import { lineViolations, type OrderLineInput } from "./line-rules";
import { type PaymentMethod, SHIPPING_METHODS, type ShippingMethod } from "./options";

/** Order creation (spec 4.7): checks in order 403, 404, 422, then one atomic D1 batch. */

export interface CreateOrderCommand {
  requesterId: number;
  userId: number;
  facilityId: number;
  shippingAddressId: number;
  billingAddressId: number;
  shippingMethod: ShippingMethod;
  paymentMethod: PaymentMethod;
  poNumber: string | null;
  notes: string | null;
  lines: OrderLineInput[];
}

export interface OrderCreated {
  orderNumber: string;
  createdAt: string;
  success: true;
  eventId: string;
}

export const ORDER_CREATED_EVENT = "order.created" satisfies EventType;
export const LINE_STATUS_ORDERED = "Ordered";

type OrderEnv = Pick<Bindings, "DB" | "CATALOG" | "QUOTES" | "QUOTE_SIGNING_KEY" | "QUOTE_SIGNING_KEY_PREVIOUS">;
type ProductRow = typeof products.$inferSelect;
type AddressRow = typeof addresses.$inferSelect;

export interface CreateOrderOptions {
  /** The tenant the order is stored under, when not the requester's (test mode, src/platform/test-mode.ts). */
  storeUnder?: number;
  /** A statement committed in the order's own batch, e.g. the idempotent result of the request that creates it. */
  commitWith?: (created: OrderCreated) => readonly BatchItem<"sqlite">[];
  /** The reads of `readOrderInputs`, if already made (started alongside the idempotency check), and their time. */
  read?: { inputs: OrderInputs; now: Date } | undefined;
  /** Where the tenant's own data is read and the order written: DB (the default) or the tenant's store. */
  tenantDb?: D1Database;
  now?: Date;
}

/**
 * Everything an order is checked against, read side by side in one round trip: the requester's access and the
 * addresses in the tenant's database (`tenantDb`: DB, or the tenant's store, docs/tenant-stores.md), the quotes' offers
 * in DB, the products in the catalog.
 */
export function readOrderInputs(env: OrderEnv, tenantId: number, command: CreateOrderCommand, now: Date, tenantDb: D1Database = env.DB) {
  const db = database(tenantDb);
  return sideBySide([
    requireFacilityAccess(db, tenantId, command.requesterId, command.facilityId),
    requireUserFacilityAccess(db, tenantId, command.userId, command.facilityId),
    loadLiveQuotes(
      env,
      tenantId,
      command.lines.map((l) => l.priceOptionId),
      now,
    ),
    loadReferences(db, database(env.CATALOG), command),
  ]);
}
export type OrderInputs = Awaited<ReturnType<typeof readOrderInputs>>;

export async function createOrder(
  env: OrderEnv,
  tenantId: number,
  command: CreateOrderCommand,
  { commitWith, read, now: given, storeUnder, tenantDb = env.DB }: CreateOrderOptions = {},
): Promise<OrderCreated> {
  const db = database(tenantDb);
  const now = read?.now ?? given ?? new Date();
  const [requester, , liveQuotes, refs] = read?.inputs ?? (await readOrderInputs(env, tenantId, command, now, tenantDb));
  const lineQuotes = requireQuotes(command, liveQuotes);
  const violations = [
    ...addressViolations(command, requester.companyId, refs.addresses),
    ...command.lines.flatMap((line, i) => lineViolations(i, line, lineQuotes[i]!)),
    ...withdrawnProductViolations(command.lines, lineQuotes, refs.products),
  ];
  if (violations.length > 0) throw new BusinessRuleError(422, violations);

  // The order, its lines and its event belong to `storeUnder` when given (test mode: the tenant's sandbox twin).
  const order = buildOrder(command, storeUnder === undefined ? requester : { ...requester, tenantId: storeUnder }, lineQuotes, refs, now);
  const created: OrderCreated = { orderNumber: order.orderNumber, createdAt: order.createdAt, success: true, eventId: order.eventId };
  await writeOrder(db, order, commitWith ? commitWith(created) : []);
  return created;
}

/**
 * A live quote whose product has since left the catalog (another database, so no foreign key holds them together)
 * cannot be ordered: the line would have no part number or description. 422, naming the line. (Products are read by
 * the lines' productId; a line naming another product than its quote's already has its own violation.)
 */
function withdrawnProductViolations(
  lines: readonly OrderLineInput[],
  lineQuotes: readonly QuoteRecord[],
  products: ReadonlyMap<string, unknown>,
): string[] {
  return lineQuotes.flatMap((quote, i) =>
    lines[i]!.productId !== quote.productId || products.has(quote.productId)
      ? []
      : [`quoteItems[${i}]: product "${quote.productId}" of price option "${quote.priceOptionId}" is no longer in the catalog.`],
  );
}

/** The requester's name and the addresses from the transactional database, the products from the catalog's, side by side. */
async function loadReferences(db: Database, catalog: Database, command: CreateOrderCommand) {
  const [[requesterRows, addressRows], productRows] = await sideBySide([
    db.batch([
      db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.contactId, command.requesterId)),
      db
        .select()
        .from(addresses)
        .where(inArray(addresses.id, [command.shippingAddressId, command.billingAddressId])),
    ]),
    catalog
      .select()
      .from(products)
      .where(inArray(products.id, [...new Set(command.lines.map((l) => l.productId))])),
  ]);
  const requester = requesterRows[0];
  return {
    requesterName: requester ? `${requester.firstName} ${requester.lastName}` : "",
    addresses: new Map(addressRows.map((a) => [a.id, a])),
    products: new Map(productRows.map((p) => [p.id, p])),
  };
}
type References = Awaited<ReturnType<typeof loadReferences>>;

/**
 * Every line needs a live quote of this tenant issued to this requester for this facility; otherwise the
 * whole order is 404 (spec 7.1), naming each bad line. Unknown, expired and foreign quotes look alike.
 */
function requireQuotes(command: CreateOrderCommand, live: Map<string, QuoteRecord>): QuoteRecord[] {
  const missing: string[] = [];
  const found = command.lines.map((line, i) => {
    const quote = live.get(line.priceOptionId);
    if (quote && quote.requesterContactId === command.requesterId && quote.facilityId === command.facilityId) return quote;
    missing.push(`quoteItems[${i}].priceOptionId "${line.priceOptionId}" does not exist or has expired.`);
    return undefined;
  });
  if (missing.length > 0) {
    throw new ProblemError(
      404,
      "price-option-not-found",
      "Price option not found",
      "A price option of this order does not exist, has expired or was not issued to this requester and facility; the whole order was rejected. Request fresh options with /catalog/detail.",
      { errors: missing },
    );
  }
  return found as QuoteRecord[];
}

function addressViolations(command: CreateOrderCommand, companyId: number, known: Map<number, AddressRow>): string[] {
  const check = (field: "shippingAddressId" | "billingAddressId", kind: AddressRow["kind"]) => {
    const address = known.get(command[field]);
    // A disabled address (the operator's) is no address to ship or bill to: the same answer as one of another company.
    return address && address.companyId === companyId && address.kind === kind && address.disabledAt === null
      ? []
      : [`${field} ${command[field]} is not a ${kind} address of the facility's company.`];
  };
  return [...check("shippingAddressId", "shipping"), ...check("billingAddressId", "billing")];
}

const ORDER_NUMBER_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O, U

/** `ORD-YYYYMMDD-XXXXXXXX`: readable on the phone, 40 random bits per day (the UNIQUE index backs it). */
function newOrderNumber(now: Date): string {
  const random = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => ORDER_NUMBER_ALPHABET[b % 32]).join("");
  return `ORD-${now.toISOString().slice(0, 10).replaceAll("-", "")}-${random}`;
}

function buildOrder(command: CreateOrderCommand, requester: OrderingContext, lineQuotes: QuoteRecord[], refs: References, now: Date) {
  const createdAt = now.toISOString();
  const lines = command.lines.map((line, i) => {
    const quote = lineQuotes[i]!;
    const product: ProductRow | undefined = refs.products.get(quote.productId);
    if (!product) throw new Error(`product ${quote.productId} of quote ${quote.priceOptionId} is missing`);
    return {
      lineNumber: i + 1,
      quote,
      product,
      quantity: line.quantity,
      extendedPriceCents: quote.priceCents * line.quantity,
      requiredFields: line.requiredFields,
    };
  });
  return {
    command,
    requester,
    requesterName: refs.requesterName,
    shippingAddress: refs.addresses.get(command.shippingAddressId)!,
    orderNumber: newOrderNumber(now),
    eventId: crypto.randomUUID(),
    createdAt,
    totalCents: lines.reduce((sum, l) => sum + l.extendedPriceCents, 0),
    lines,
  };
}
type NewOrder = ReturnType<typeof buildOrder>;

/** 14 bound values per line, and D1 allows 100 per statement. */
const LINES_PER_INSERT = 7;
/** 16 bound values per ordered quote (the order id is a subquery of one more). */
const QUOTES_PER_INSERT = 5;

/**
 * Order, lines, quote consumption, shipping document and outbox event in one D1 batch (one transaction).
 * Single use of quotes is enforced inside it by the UNIQUE index on order_lines(quote_id): a quote that
 * another order consumed, even a concurrent one, makes the whole batch roll back.
 */
async function writeOrder(db: Database, order: NewOrder, alsoCommit: readonly BatchItem<"sqlite">[]): Promise<void> {
  const { command } = order;
  const quoteIds = order.lines.map((l) => l.quote.priceOptionId);
  const orderId = sql`(select ${orders.id} from ${orders} where ${orders.orderNumber} = ${order.orderNumber})`;
  const shipping = SHIPPING_METHODS[command.shippingMethod];
  const address = order.shippingAddress;

  const lineRows = order.lines.map((l) => ({
    orderId,
    lineNumber: l.lineNumber,
    quoteId: l.quote.priceOptionId,
    productId: l.product.id,
    vendorId: l.quote.vendorId,
    partNumber: l.product.partNumber,
    requestedPartNumber: l.product.partNumber,
    poNumber: command.poNumber,
    description: l.product.title,
    quantity: l.quantity,
    priceCents: l.quote.priceCents,
    extendedPriceCents: l.extendedPriceCents,
    statusName: LINE_STATUS_ORDERED,
    requiredFields: l.requiredFields,
  }));
  const lineInserts = chunk(lineRows, LINES_PER_INSERT).map((rows) => db.insert(orderLines).values(rows));
  // An ordered signed quote's record is its terms as loaded (loadLiveQuotes), under its id.
  const orderedQuoteRows = order.lines
    .filter((l) => isSignedPriceOptionId(l.quote.priceOptionId))
    .map(({ quote: { priceOptionId, vendorName: _vendorName, ...terms } }) => ({ ...terms, id: priceOptionId, usedByOrderId: orderId }));
  const orderedQuoteInserts = chunk(orderedQuoteRows, QUOTES_PER_INSERT).map((rows) => db.insert(quotes).values(rows));

  try {
    await db.batch([
      db.insert(orders).values({
        orderNumber: order.orderNumber,
        tenantId: order.requester.tenantId,
        companyId: order.requester.companyId,
        facilityId: command.facilityId,
        requesterContactId: command.requesterId,
        userId: command.userId,
        requesterName: order.requesterName,
        poNumber: command.poNumber,
        paymentMethod: command.paymentMethod,
        shippingMethod: command.shippingMethod,
        shippingAddressId: command.shippingAddressId,
        billingAddressId: command.billingAddressId,
        notes: command.notes,
        status: LINE_STATUS_ORDERED,
        totalCents: order.totalCents,
        eventId: order.eventId,
        createdAt: order.createdAt,
        updatedAt: order.createdAt,
      }),
      // Each ordered signed quote becomes the record of the terms the line was ordered on (its lines refer to it); its
      // primary key, like order_lines(quote_id), lets a quote be ordered once.
      ...orderedQuoteInserts,
      ...lineInserts,
      // Stored quotes (issued before signed ids) are marked used, so that the housekeeping keeps them.
      db
        .update(quotes)
        .set({ usedByOrderId: orderId })
        .where(and(inArray(quotes.id, quoteIds), isNull(quotes.usedByOrderId))),
      db.insert(shippingDocuments).values({
        orderId,
        attentionTo: address.attentionTo,
        address1: address.line1,
        city: address.city,
        state: address.state,
        zip: address.zip,
        country: address.country,
        carrierName: shipping.carrierName,
        serviceLevel: shipping.serviceLevel,
      }),
      db.insert(shippingDocumentLines).select(
        db
          // quantity null: the order's own document lists what is left to ship of each line
          .select({ shippingDocumentId: shippingDocuments.id, lineId: orderLines.id, quantity: sql<null>`null`.as("quantity") })
          .from(orderLines)
          .innerJoin(shippingDocuments, eq(shippingDocuments.orderId, orderLines.orderId))
          .where(eq(orderLines.orderId, orderId)),
      ),
      db.insert(outboxEvents).values({
        id: order.eventId,
        type: ORDER_CREATED_EVENT,
        tenantId: order.requester.tenantId,
        aggregateId: order.orderNumber,
        payload: orderCreatedPayload(order),
        sequence: 1,
        createdAt: order.createdAt,
      }),
      ...alsoCommit,
    ]);
  } catch (err) {
    await rejectUsedQuotes(db, command, quoteIds, order.requester.tenantId);
    throw err;
  }
}

/** After a failed batch: 409 when the cause is a quote that an order already consumed (order_lines.quote_id is unique). */
async function rejectUsedQuotes(db: Database, command: CreateOrderCommand, quoteIds: string[], storedUnder: number): Promise<void> {
  const used = await db
    .select({ id: orderLines.quoteId, orderNumber: orders.orderNumber, tenantId: orders.tenantId })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(inArray(orderLines.quoteId, quoteIds));
  if (used.length === 0) return;
  // The order that used it is named only when the caller can see it: a test order to a live client (or the other way
  // round) stays unnamed (src/platform/test-mode.ts).
  const usedBy = new Map(used.map((u) => [u.id, u.tenantId === storedUnder ? `in order ${u.orderNumber}` : "in the tenant's other mode"]));
  throw new ProblemError(
    409,
    "price-option-used",
    "Price option already ordered",
    "A price option can be ordered once; request fresh options with /catalog/detail. The whole order was rejected.",
    {
      errors: command.lines.flatMap((line, i) => {
        const orderNumber = usedBy.get(line.priceOptionId);
        return orderNumber ? [`quoteItems[${i}].priceOptionId "${line.priceOptionId}" was already ordered ${orderNumber}.`] : [];
      }),
    },
  );
}

function orderCreatedPayload(order: NewOrder): EventData<typeof ORDER_CREATED_EVENT> {
  const { command } = order;
  return {
    orderNumber: order.orderNumber,
    companyId: order.requester.companyId,
    facilityId: command.facilityId,
    requesterId: command.requesterId,
    userId: command.userId,
    poNumber: command.poNumber,
    paymentMethod: command.paymentMethod,
    shippingMethod: command.shippingMethod,
    total: centsToDecimal(order.totalCents),
    createdAt: order.createdAt,
    lines: order.lines.map((l) => ({
      lineNumber: l.lineNumber,
      priceOptionId: l.quote.priceOptionId,
      productId: l.product.id,
      vendorId: l.quote.vendorId,
      quantity: l.quantity,
      price: centsToDecimal(l.quote.priceCents),
      extendedPrice: centsToDecimal(l.extendedPriceCents),
    })),
  };
}
