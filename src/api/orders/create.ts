import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunk } from "../../db/bulk-insert";
import { products } from "../../db/catalog-schema";
import { type Database, database } from "../../db/client";
import {
  addresses,
  orderLines,
  orders,
  outboxEvents,
  quotes,
  type StoredResponse,
  shippingDocumentLines,
  shippingDocuments,
  users,
} from "../../db/schema";
import type { Bindings } from "../../env";
import { BusinessRuleError, ProblemError } from "../../platform/errors";
import type { StoreRun } from "../../platform/idempotency/key-lock";
import { committedResultStatements, type IdempotentRequest } from "../../platform/idempotency/results";
import { centsToText, MARKET_CURRENCY } from "../../platform/money";
import type { Principal } from "../../platform/principal";
import { sideBySide } from "../../platform/side-by-side";
import { isSignedPriceOptionId } from "../../shared/catalog/price-option-ids";
import { type OrderedProduct, recallOrderedProducts, rememberOrderedProduct } from "../../shared/catalog/quoted-references";
import { loadLiveQuotes, type QuoteRecord } from "../../shared/catalog/quotes";
import { type OrderingContext, requireFacilityAccess, requireUserFacilityAccess } from "../../shared/users/access";
import type { EventData } from "../events/schemas";
import type { EventType } from "../events/types";
import { lineViolations, type OrderLineInput } from "./line-rules";
import { type PaymentMethod, SHIPPING_METHODS, type ShippingMethod } from "./options";
import { openRepairReturns } from "./repair-lines";

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
  eventId: string;
}

export const ORDER_CREATED_EVENT = "order.created" satisfies EventType;
export const LINE_STATUS_ORDERED = "Ordered";

type OrderEnv = Pick<Bindings, "DB" | "CATALOG" | "QUOTES" | "QUOTE_SIGNING_KEY" | "QUOTE_SIGNING_KEY_PREVIOUS">;
type AddressRow = typeof addresses.$inferSelect;

/** A new order's number and its order.created event's id, drawn before it is written (`newOrderIdentity`). */
export interface OrderIdentity {
  orderNumber: string;
  eventId: string;
}

export interface CreateOrderOptions {
  /** The tenant the order is stored under, when not the requester's (test mode, src/platform/test-mode.ts). */
  storeUnder?: number;
  /** A statement committed in the order's own batch, e.g. the idempotent result of the request that creates it. */
  commitWith?: (created: OrderCreated) => readonly BatchItem<"sqlite">[];
  /** What the order is checked against (the store's directory, the catalog's and the quotes' reads), and their time. */
  read: { inputs: OrderInputs; now: Date };
  /** The tenant's store, where its own data is read and the order written. */
  tenantDb: D1Database;
  /** The order's number and event id, when drawn already (an order placed in a tenant's store: `placeOrderInStore`). */
  identity?: OrderIdentity;
}

/** What an order is checked against in the tenant's own data: the requester's and the user's access, the addresses. */
export type DirectoryInputs = Awaited<ReturnType<typeof readDirectoryInputs>>;
/** What an order is checked against outside the tenant's data: the quotes (their offers in DB) and the products. */
export type CatalogInputs = Awaited<ReturnType<typeof readCatalogInputs>>;
export type OrderInputs = DirectoryInputs & CatalogInputs;

/** In the tenant's database (`DB`, or the tenant's store: docs/tenant-stores.md), side by side. */
async function readDirectoryInputs(db: Database, tenantId: number, command: CreateOrderCommand) {
  const [requester, , directory] = await sideBySide([
    requireFacilityAccess(db, tenantId, command.requesterId, command.facilityId),
    requireUserFacilityAccess(db, tenantId, command.userId, command.facilityId),
    loadDirectoryReferences(db, command),
  ]);
  return { requester, ...directory };
}

/**
 * The quotes' offers in DB and the lines' products in the catalog, side by side (quotes stored before signed ids that KV
 * misses, in the tenant's database `tenantDb`). `remembered`: what the isolate remembers of them is not read again
 * (src/shared/catalog/quoted-references.ts).
 */
export async function readCatalogInputs(
  env: OrderEnv,
  tenantId: number,
  command: CreateOrderCommand,
  now: Date,
  { remembered = false, tenantDb, mode }: { remembered?: boolean; tenantDb: D1Database; mode: Principal["mode"] },
) {
  const [liveQuotes, orderedProducts] = await Promise.all([
    loadLiveQuotes(
      env,
      tenantId,
      command.lines.map((l) => l.priceOptionId),
      now,
      { remembered, tenantDb, mode },
    ),
    loadOrderedProducts(env.CATALOG, command, remembered),
  ]);
  return { liveQuotes, products: orderedProducts };
}

export async function createOrder(
  command: CreateOrderCommand,
  { commitWith, read, storeUnder, tenantDb, identity }: CreateOrderOptions,
): Promise<OrderCreated> {
  const db = database(tenantDb);
  const { now, inputs } = read;
  const { requester } = inputs;
  const lineQuotes = requireQuotes(command, inputs.liveQuotes);
  const violations = [
    ...addressViolations(command, requester.companyId, inputs.addresses),
    ...command.lines.flatMap((line, i) => lineViolations(i, line, lineQuotes[i]!)),
    ...withdrawnProductViolations(command.lines, lineQuotes, inputs.products),
  ];
  if (violations.length > 0) throw new BusinessRuleError(422, violations);

  // The order, its lines and its event belong to `storeUnder` when given (test mode: the tenant's sandbox twin).
  const orderer = storeUnder === undefined ? requester : { ...requester, tenantId: storeUnder };
  const order = buildOrder(command, orderer, lineQuotes, inputs, identity ?? newOrderIdentity(now), now);
  const created = orderCreated(order, order.createdAt);
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

/** The requester's name and the addresses, from the tenant's database in one batch. */
async function loadDirectoryReferences(db: Database, command: CreateOrderCommand) {
  const [requesterRows, addressRows] = await db.batch([
    db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.contactId, command.requesterId)),
    db
      .select()
      .from(addresses)
      .where(inArray(addresses.id, [command.shippingAddressId, command.billingAddressId])),
  ]);
  const requester = requesterRows[0];
  return {
    requesterName: requester ? `${requester.firstName} ${requester.lastName}` : "",
    addresses: new Map(addressRows.map((a) => [a.id, a])),
  };
}

/** The lines' products from the catalog (those the isolate remembers, if `remembered`, are not read again). */
async function loadOrderedProducts(
  catalog: D1Database,
  command: CreateOrderCommand,
  remembered: boolean,
): Promise<Map<string, OrderedProduct>> {
  const ids = command.lines.map((l) => l.productId);
  const recalled = recallOrderedProducts(ids, remembered);
  if (recalled.missing.length === 0) return recalled.found;
  const rows = await database(catalog)
    .select({ id: products.id, partNumber: products.partNumber, title: products.title })
    .from(products)
    .where(inArray(products.id, recalled.missing));
  for (const row of rows) {
    recalled.found.set(row.id, row);
    if (remembered) rememberOrderedProduct(row);
  }
  return recalled.found;
}

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

const READABLE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O, U

/** `length` random Crockford base32 characters (5 bits each): readable on the phone (order and RMA numbers). */
export const readableToken = (length: number) =>
  [...crypto.getRandomValues(new Uint8Array(length))].map((b) => READABLE_ALPHABET[b % 32]).join("");

/** `ORD-YYYYMMDD-XXXXXXXX`: readable on the phone, 40 random bits per day (the UNIQUE index backs it). */
function newOrderNumber(now: Date): string {
  return `ORD-${now.toISOString().slice(0, 10).replaceAll("-", "")}-${readableToken(8)}`;
}

export const newOrderIdentity = (now: Date): OrderIdentity => ({ orderNumber: newOrderNumber(now), eventId: crypto.randomUUID() });

/** The answer's data for an order of this identity created at `createdAt`. */
export const orderCreated = ({ orderNumber, eventId }: OrderIdentity, createdAt: string): OrderCreated => ({
  orderNumber,
  createdAt,
  eventId,
});

function buildOrder(
  command: CreateOrderCommand,
  requester: OrderingContext,
  lineQuotes: QuoteRecord[],
  refs: OrderInputs,
  identity: OrderIdentity,
  now: Date,
) {
  const createdAt = now.toISOString();
  const lines = command.lines.map((line, i) => {
    const quote = lineQuotes[i]!;
    const product = refs.products.get(quote.productId);
    if (!product) throw new Error(`product ${quote.productId} of quote ${quote.priceOptionId} is missing`);
    return {
      lineNumber: i + 1,
      quote,
      product,
      quantity: line.quantity,
      extendedPriceCents: quote.priceCents * line.quantity,
      requiredFields: line.requiredFields,
      repair: line.repair
        ? { serialNumber: line.repair.serialNumber, reason: line.repair.reason, description: line.repair.description ?? null }
        : null,
    };
  });
  return {
    command,
    requester,
    requesterName: refs.requesterName,
    shippingAddress: refs.addresses.get(command.shippingAddressId)!,
    orderNumber: identity.orderNumber,
    eventId: identity.eventId,
    createdAt,
    totalCents: lines.reduce((sum, l) => sum + l.extendedPriceCents, 0),
    lines,
  };
}
type NewOrder = ReturnType<typeof buildOrder>;

/** 19 bound values per line (the order id is a subquery), and D1 allows 100 per statement. */
const LINES_PER_INSERT = 5;
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
    contractPriceCents: l.quote.contractPriceCents,
    purchaseType: l.quote.purchaseType,
    purchaseTerms: l.quote.purchaseTerms,
    repair: l.repair,
  }));
  const lineInserts = chunk(lineRows, LINES_PER_INSERT).map((rows) => db.insert(orderLines).values(rows));
  // An ordered signed quote's record is its terms as loaded (loadLiveQuotes), under its id.
  const orderedQuoteRows = order.lines
    .filter((l) => isSignedPriceOptionId(l.quote.priceOptionId))
    .map(
      ({
        quote: {
          priceOptionId,
          vendorName: _vendorName,
          contractPriceCents: _contract,
          purchaseType: _type,
          purchaseTerms: _terms,
          ...terms
        },
      }) => ({
        ...terms,
        id: priceOptionId,
        usedByOrderId: orderId,
      }),
    );
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
      ...(order.lines.some((l) => l.repair) ? [openRepairReturns(db, orderId, order.createdAt)] : []),
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
    total: centsToText(order.totalCents),
    currency: MARKET_CURRENCY,
    createdAt: order.createdAt,
    lines: order.lines.map((l) => ({
      lineNumber: l.lineNumber,
      priceOptionId: l.quote.priceOptionId,
      productId: l.product.id,
      vendorId: l.quote.vendorId,
      quantity: l.quantity,
      price: centsToText(l.quote.priceCents),
      extendedPrice: centsToText(l.extendedPriceCents),
    })),
  };
}

/**
 * An order of a tenant that lives in its store, prepared by the Worker for one call to the store
 * (docs/tenant-stores.md, "Order creation"): the command with what was read outside the tenant's data (the quotes and
 * the products), the order's identity and time, and the 201 that commits as the key's result.
 */
export interface OrderPlan {
  request: IdempotentRequest;
  /** The requester's tenant, whose directory checks the order. */
  tenantId: number;
  /** The tenant the order is stored under (the twin in test mode). */
  storeUnder: number;
  command: CreateOrderCommand;
  quotes: QuoteRecord[];
  products: OrderedProduct[];
  now: string;
  identity: OrderIdentity;
  response: StoredResponse;
}

/** The tenant store as order creation calls it (the API Worker's class: src/api/stores/tenant-store.ts). */
export interface OrderPlacingStore {
  placeOrder(plan: OrderPlan): Promise<StoreRun>;
}

/** In the store, under the key's lock: the directory's checks, then the order with its result in one transaction. */
export async function placeOrderInStore(local: D1Database, plan: OrderPlan): Promise<void> {
  const db = database(local);
  const now = new Date(plan.now);
  const directory = await readDirectoryInputs(db, plan.tenantId, plan.command);
  const inputs: OrderInputs = {
    ...directory,
    liveQuotes: new Map(plan.quotes.map((quote) => [quote.priceOptionId, quote])),
    products: new Map(plan.products.map((product) => [product.id, product])),
  };
  await createOrder(plan.command, {
    read: { inputs, now },
    tenantDb: local,
    storeUnder: plan.storeUnder,
    identity: plan.identity,
    commitWith: () => committedResultStatements(db, plan.request, plan.response, now),
  });
}
