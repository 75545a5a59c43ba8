import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { closestName } from "../../platform/closest-name";
import type { StoreRun } from "../../platform/idempotency/key-lock";
import {
  beforeTheStore,
  failedBeforeTheStore,
  IDEMPOTENCY_CACHED_HEADER,
  type InStore,
  idempotentWith,
  ranInStore,
  storedJson,
} from "../../platform/idempotency/middleware";
import type { IdempotentRequest } from "../../platform/idempotency/results";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  decimalPrice,
  envelopeSchema,
  idempotencyKeyHeaders,
  problem,
  requesterForbiddenResponse,
} from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../../shared/auth/bearer";
import { RepairRequestSchema } from "../../shared/catalog/purchase-terms";
import { tenantStore } from "../../shared/tenants/stub";
import {
  type CreateOrderCommand,
  newOrderIdentity,
  type OrderCreated,
  type OrderPlacingStore,
  orderCreated,
  readCatalogInputs,
} from "./create";
import { ORDER_LIMITS, PAYMENT_METHOD_CODES, type PaymentMethod, SHIPPING_METHOD_CODES } from "./options";

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A code from a reference list, exactly as the document's enum spells it (docs/decisions.md). */
const code = <T extends string>(codes: readonly [T, ...T[]], what: string) =>
  z.enum(codes, {
    error: (issue) => {
      const meant = typeof issue.input === "string" ? closestName(issue.input, codes) : undefined;
      return `Unknown ${what}; valid values: ${codes.join(", ")}.${meant ? ` Did you mean ${meant}?` : ""}`;
    },
  });

/** Surrounding spaces are trimmed; a blank PO number is no PO number, so the document says "a non-space character". */
const poNumber = z
  .string()
  .max(ORDER_LIMITS.poNumberLength)
  .regex(/\S/, "Must contain a non-space character.")
  .trim()
  .openapi({ example: "PO-1001" });

const RequiredFieldSchema = closedObject({
  fieldId: z.string().min(1).max(100),
  value: z.string().max(ORDER_LIMITS.requiredFieldValueLength),
});

const QuoteItemSchema = closedObject({
  priceOptionId: z.string().min(1).max(100).openapi({ description: "From POST /catalog/detail; usable for one order" }),
  productId: z.string().min(1).max(100),
  quantity: z.number().int().min(1).max(ORDER_LIMITS.maxQuantity),
  price: decimalPrice("Unit price; must equal the price option's price to the cent (else 422)"),
  requiredFields: z
    .array(RequiredFieldSchema)
    .max(50)
    .nullish()
    .openapi({ description: "Values for the option's customFields; fieldIds are unique" }),
  repair: RepairRequestSchema.optional(),
}).superRefine((item, ctx) => {
  const seen = new Set<string>();
  item.requiredFields?.forEach((field, i) => {
    if (seen.has(field.fieldId)) ctx.addIssue({ code: "custom", path: ["requiredFields", i, "fieldId"], message: "Duplicate fieldId." });
    seen.add(field.fieldId);
  });
});

const CreateOrderSchema = closedObject({
  requesterId: id.openapi({ description: "The requester's contactId (users/lookup)" }),
  userId: id.openapi({ description: "The user placing the order; needs access to the facility too" }),
  facilityId: id,
  shippingAddressId: id.openapi({ description: "A shipping address of the facility's company; shared by all lines" }),
  billingAddressId: id.openapi({ description: "A billing address of the facility's company" }),
  shippingMethod: code(SHIPPING_METHOD_CODES, "shippingMethod"),
  quoteItems: z
    .array(QuoteItemSchema)
    .min(1)
    .max(ORDER_LIMITS.maxLines)
    .openapi({ description: "The order lines, each line its own priceOptionId" }),
  poNumber: poNumber.nullish().openapi({ description: "Top-level form: payment by PO; must equal payment.poNumber when both are given" }),
  payment: closedObject({ paymentMethod: code(PAYMENT_METHOD_CODES, "paymentMethod"), poNumber: poNumber.nullish() })
    .nullish()
    .openapi({ description: "Alternative form; PO requires poNumber" }),
  notes: z.string().max(ORDER_LIMITS.notesLength).nullish(),
})
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.quoteItems.forEach((item, i) => {
      if (seen.has(item.priceOptionId)) {
        ctx.addIssue({ code: "custom", path: ["quoteItems", i, "priceOptionId"], message: "Each line needs its own priceOptionId." });
      }
      seen.add(item.priceOptionId);
    });
    const { payment } = body;
    if (!payment) return; // spec 4.7: both forms are optional (docs/decisions.md: the default payment method)
    if (payment.paymentMethod === "PO" && !payment.poNumber && !body.poNumber) {
      ctx.addIssue({ code: "custom", path: ["payment", "poNumber"], message: "Required when paymentMethod is PO." });
    }
    if (body.poNumber && payment.poNumber && body.poNumber !== payment.poNumber) {
      ctx.addIssue({ code: "custom", path: ["poNumber"], message: "Differs from payment.poNumber; give one PO number." });
    }
  })
  .openapi("CreateOrderRequest", {
    // The demo data's jsmith (npm start): take priceOptionId and price from POST /catalog/detail of the product.
    example: {
      requesterId: 50001,
      userId: 1,
      facilityId: 1001,
      shippingAddressId: 11,
      billingAddressId: 13,
      shippingMethod: "GROUND",
      payment: { paymentMethod: "PO", poNumber: "PO-1001" },
      quoteItems: [{ priceOptionId: "po_3oVh0cLQm5N1cX2tWlqHxg7ZrY8bKd4A", productId: "MP-0000003", quantity: 2, price: "123.45" }],
      notes: "Deliver to the biomed shop, building C",
    },
  });

type CreateOrderBody = z.infer<typeof CreateOrderSchema>;

/** Without `payment`: a top-level PO number means payment by PO; no PO number at all, the account's net terms. */
const defaultPaymentMethod = (poNumber: string | null | undefined): PaymentMethod => (poNumber ? "PO" : "NET_TERMS");

function toCommand(body: CreateOrderBody): CreateOrderCommand {
  return {
    requesterId: body.requesterId,
    userId: body.userId,
    facilityId: body.facilityId,
    shippingAddressId: body.shippingAddressId,
    billingAddressId: body.billingAddressId,
    shippingMethod: body.shippingMethod,
    paymentMethod: body.payment?.paymentMethod ?? defaultPaymentMethod(body.poNumber),
    poNumber: body.payment?.poNumber ?? body.poNumber ?? null,
    notes: body.notes ?? null,
    lines: body.quoteItems.map((item) => ({ ...item, requiredFields: item.requiredFields ?? [] })),
  };
}

const OrderCreatedSchema = z
  .object({
    orderNumber: z.string(),
    createdAt: z.string().datetime(),
    eventId: z.string().openapi({ description: "Id of the order.created event" }),
  })
  .openapi("OrderCreated");

/**
 * The order in one call to the tenant's store, the key's lock included (docs/tenant-stores.md, "Order creation"). The quotes' offers and the products come first, from what the isolate
 * remembers (src/shared/catalog/quoted-references.ts) or else read side by side; the order's number, event id and
 * 201 are drawn here, so the store commits the very answer this Worker sends.
 */
const placeInStore: InStore = (c, body, request) => {
  const parsed = CreateOrderSchema.safeParse(body);
  return parsed.success ? placeWhole(c, toCommand(parsed.data), request) : undefined;
};

async function placeWhole(c: Context<AppEnv>, command: CreateOrderCommand, request: IdempotentRequest): Promise<StoreRun> {
  const principal = c.get("principal");
  const now = new Date();
  const { liveQuotes, products } = await beforeTheStore(
    readCatalogInputs(c.env, principal.tenantId, command, now, { remembered: true, tenantDb: tenantDatabase(c), mode: principal.mode }),
  );
  const identity = newOrderIdentity(now);
  const payload = envelope(c, orderCreated(identity, now.toISOString()));
  const store = tenantStore(c.env, principal.dataTenantId) as unknown as OrderPlacingStore;
  const run = await store.placeOrder({
    request,
    tenantId: principal.tenantId,
    storeUnder: principal.dataTenantId,
    command,
    quotes: [...liveQuotes.values()],
    products: [...products.values()],
    now: now.toISOString(),
    identity,
    response: storedJson(201, payload),
  });
  return "ran" in run && "value" in run.ran ? { ...run, ran: { value: payload } } : run;
}

const createOrderRoute = createRoute({
  method: "post",
  path: "/orders",
  tags: ["Orders"],
  summary: "Create an order",
  description:
    "From price options; idempotent with Idempotency-Key. Orders the price options (quotes) of POST /catalog/detail, each line at its quoted price. Send a new Idempotency-Key per order and the same key on retries: a retry answers the first result, marked X-Idempotency-Cached.",
  ...scopedAccess("orders:write", idempotentWith({ inStore: placeInStore })),
  request: {
    headers: idempotencyKeyHeaders("UUID (with dashes), one per logical order; results are replayed for 24 hours"),
    body: { required: true, content: { "application/json": { schema: CreateOrderSchema } } },
  },
  responses: {
    201: {
      description: `Order created. A replay of a cached result carries ${IDEMPOTENCY_CACHED_HEADER}: true.`,
      content: { "application/json": { schema: envelopeSchema(OrderCreatedSchema) } },
    },
    ...authenticatedErrorResponses,
    ...requesterForbiddenResponse,
    404: problem("A priceOptionId does not exist, has expired or is not for this requester and facility; the whole order fails"),
    409: problem("Idempotency conflict (`idempotency-conflict`), or a price option already ordered (`price-option-used`)"),
    422: problem("Business rule (`business-rule`): price mismatch, product mismatch, custom field missing or invalid, wrong address"),
    503: problem("The idempotency store is temporarily unavailable"),
  },
});

export const orderRoutes = createRouter().openapi(createOrderRoute, async (c) => {
  // The 201 commits in the order's own batch as the result of this Idempotency-Key: a retry after a crash at any
  // point gets exactly these bytes back (docs/architecture.md, "Crash-safe idempotency").
  const placed = ranInStore<ReturnType<typeof envelope<OrderCreated>>>(c);
  if (placed) return c.json(placed, 201);
  // Not placed: the reads before the store failed, and their failure is the answer (the key's lock decided first).
  await failedBeforeTheStore(c);
  throw new Error("POST /orders: the order was neither placed by its store nor refused before it");
});
