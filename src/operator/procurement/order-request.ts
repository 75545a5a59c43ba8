import { PROCESSING_MESSAGE } from "../../platform/idempotency/middleware";
import { centsToText } from "../../platform/money";
import { sha256Hex } from "../../platform/sha256";
import { apiErrors, apiOf, callApi } from "./api";
import { type CxmlCall, type Outcome, refused } from "./call";
import { at, childNamed, textOf } from "./cxml";
import { recordPlacedOrder } from "./documents";
import { type ItemOut, readItems, requiredFieldsOf } from "./items";

/**
 * OrderRequest -> a Medparts order through POST /orders, as an integrator places one (docs/api.md, "Procurement systems
 * (cXML)"). Its orderID is the PO number. Each line is held to its quote by SupplierPartAuxiliaryID (the price option the
 * PunchOut cart carried); a line that names none, or a quote the API refuses, is named in the answer and nothing is
 * ordered. Idempotent by orderID: the Idempotency-Key is derived from the connection and the orderID, so a resent
 * document (same payloadID, or a new one with the same order) answers the first order for 24 hours.
 * type="delete" cancels the orders of that orderID this connection placed; type="update" places the new version, then
 * cancels those it replaces.
 */

const PATH = "/cXML/Request/OrderRequest";
const HEADER = `${PATH}/OrderRequestHeader`;

/** A UUID (the form POST /orders requires) derived from a text: the same text, the same key. */
export async function derivedKey(text: string): Promise<string> {
  const hex = await sha256Hex(text);
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface Mapped {
  body: Record<string, unknown>;
  items: ItemOut[];
}

function mapOrder(call: CxmlCall, orderId: string): Mapped | Outcome {
  const header = childNamed(call.message, "OrderRequestHeader")!;
  const { items, problems } = readItems(call.message, PATH);
  if (items.length === 0 && problems.length === 0) return refused(400, `The order has no ItemOut (at ${PATH}).`);
  const total = at(header, "Total", "Money");
  for (const [currency, where] of [
    [total?.attributes.currency, `${HEADER}/Total/Money/@currency`],
    ...items.map((item) => [item.currency, `${item.where}/ItemDetail/UnitPrice/Money/@currency`]),
  ] as [string | undefined, string][]) {
    if (currency !== undefined && currency.toUpperCase() !== "USD") problems.push(`Medparts prices in USD, not ${currency} (at ${where}).`);
  }
  const addressId = at(header, "ShipTo", "Address")?.attributes.addressID?.trim();
  let shippingAddressId = call.connection.shipToAddressId;
  if (addressId) {
    const mapped = call.connection.shipToAddresses.find((entry) => entry.code === addressId)?.addressId;
    if (mapped === undefined) {
      problems.push(
        `ShipTo addressID "${addressId}" is not one of this connection's addresses: ask Medparts to map it (at ${HEADER}/ShipTo/Address/@addressID).`,
      );
    } else shippingAddressId = mapped;
  }
  if (problems.length > 0) return refused(400, problems.join(" "));
  const comments = textOf(childNamed(header, "Comments"));
  return {
    items,
    body: {
      requesterId: call.connection.requesterId,
      userId: call.connection.userId,
      facilityId: call.connection.facilityId,
      shippingAddressId,
      billingAddressId: call.connection.billToAddressId,
      shippingMethod: call.connection.shippingMethod,
      payment: { paymentMethod: call.connection.paymentMethod, poNumber: orderId },
      ...(comments ? { notes: comments } : {}),
      quoteItems: items.map((item) => {
        const requiredFields = requiredFieldsOf(item);
        return {
          priceOptionId: item.priceOptionId,
          productId: item.productId,
          quantity: item.quantity,
          price: centsToText(item.unitPriceCents),
          ...(requiredFields.length > 0 ? { requiredFields } : {}),
        };
      }),
    },
  };
}

/**
 * The API's messages with its fields named as the document's elements: `quoteItems[i]` as where the line is, the PO number
 * as the orderID, the notes as the Comments (the orders API's rules, such as its limits, stay its own).
 */
const inDocument = (messages: string[], items: ItemOut[]) =>
  messages.map((message) =>
    message
      .replace(/quoteItems\[(\d+)\]/g, (whole, i: string) => items[Number(i)]?.where ?? whole)
      .replace(/^(payment\.)?poNumber\b/, `${HEADER}/@orderID`)
      .replace(/^notes\b/, `${HEADER}/Comments`)
      .replace(/^quoteItems\b/, `${PATH}/ItemOut`),
  );

/**
 * What an idempotency conflict says (the same document still being placed, or another one under its key): a problem
 * of type `idempotency-conflict` says it in its detail, a `{ error }` of a version before 2026-12-07 in `error`.
 */
export function idempotencyConflictOf(body: unknown): string | undefined {
  const problem = body as { error?: unknown; type?: unknown; detail?: unknown } | null;
  const said = typeof problem?.type === "string" && problem.type.endsWith("/idempotency-conflict") ? problem.detail : problem?.error;
  return typeof said === "string" ? said : undefined;
}

/** A failed API answer as the cXML Status the suite acts on. */
function failed(status: number, body: unknown, items: ItemOut[], what: string): Outcome {
  const messages = inDocument(apiErrors(body), items).join(" ");
  const conflict = idempotencyConflictOf(body);
  // The same document still being placed (a suite's retry while the first attempt runs): the suite should send it again.
  if (status === 409 && conflict === PROCESSING_MESSAGE)
    return refused(500, `${what}: the same orderID is being placed now; send the document again.`);
  if (status === 409 && conflict !== undefined) {
    return refused(409, `This orderID was already ordered with other content; send a new orderID, or type="update" (${messages}).`);
  }
  if (status === 409) return refused(409, `${what}: ${messages}`);
  if (status === 400 || status === 422 || status === 404) return refused(400, `${what}: ${messages}`);
  if (status === 401 || status === 403) return refused(401, `${what}: ${messages}`);
  return refused(500, `${what}: Medparts is briefly unavailable (${status}); send the document again.`);
}

/**
 * The orders this connection's OrderRequests placed for an orderID (procurement_orders), oldest first: a delete or an
 * update acts on these only, never on an order of the same PO number placed otherwise (the JSON API, another suite).
 */
async function ordersOfOrderId(call: CxmlCall, orderId: string): Promise<string[]> {
  const { results } = await call.c.env.DB.prepare(
    "SELECT order_number FROM procurement_orders WHERE connection_id = ? AND order_id = ? ORDER BY created_at, order_number",
  )
    .bind(call.connection.id, orderId)
    .all<{ order_number: string }>();
  return results.map((row) => row.order_number);
}

/** Cancels what remains open of each order (one already cancelled answers 200 with nothing cancelled). */
async function cancelOrders(call: CxmlCall, orderId: string, orderNumbers: string[]): Promise<Outcome | null> {
  for (const orderNumber of orderNumbers) {
    const key = await derivedKey(`${call.connection.clientId} cancel ${orderId} ${orderNumber}`);
    const { status, body } = await callApi(
      apiOf(call.c.env),
      call.token,
      "POST",
      `/orders/${encodeURIComponent(orderNumber)}/cancel`,
      {},
      {
        "Idempotency-Key": key,
      },
    );
    if (status !== 200) return failed(status, body, [], `Order ${orderNumber} of orderID ${orderId} cannot be cancelled`);
  }
  return null;
}

/** The placed order's lines (in the order of the ItemOuts) with the suite's line numbers, for its documents (documents.ts). */
async function rememberOrder(call: CxmlCall, orderNumber: string, orderId: string, items: ItemOut[], bookmark: string | null) {
  const { status, body } = await callApi<{ data: { orderDate?: string; lineItems: { lineId: number; quantity: number }[] } }>(
    apiOf(call.c.env),
    call.token,
    "GET",
    `/orders/${encodeURIComponent(orderNumber)}?include=lineItems`,
    undefined,
    bookmark ? { "X-Session-Bookmark": bookmark } : {},
  );
  if (status !== 200) throw new Error(`GET /orders/${orderNumber} answered ${status}`);
  const lines = [...body.data.lineItems].sort((a, b) => a.lineId - b.lineId);
  const header = childNamed(call.message, "OrderRequestHeader");
  await recordPlacedOrder(call.c.env.DB, call.connection.id, orderNumber, {
    orderId,
    payloadId: call.payloadId,
    orderDate: header?.attributes.orderDate ?? null,
    lines: Object.fromEntries(
      lines.map((line, i) => [
        String(line.lineId),
        { lineNumber: items[i]?.lineNumber ?? String(i + 1), quantity: line.quantity, unitOfMeasure: items[i]?.unitOfMeasure ?? "EA" },
      ]),
    ),
  });
}

export async function orderRequest(call: CxmlCall): Promise<Outcome> {
  const header = childNamed(call.message, "OrderRequestHeader");
  if (!header) return refused(400, `OrderRequestHeader is missing (at ${HEADER}).`);
  const orderId = (header.attributes.orderID ?? "").trim();
  if (!orderId) return refused(400, `orderID is missing: it is the order's PO number (at ${HEADER}/@orderID).`);
  const type = header.attributes.type ?? "new";
  if (type !== "new" && type !== "update" && type !== "delete") {
    return refused(406, `OrderRequest type "${type}" is not supported: new, update or delete (at ${HEADER}/@type).`);
  }
  if (type === "delete") {
    const orders = await ordersOfOrderId(call, orderId);
    if (orders.length === 0)
      return { code: 200, detail: `No order of orderID ${orderId} was placed through this connection: nothing to cancel.` };
    return (await cancelOrders(call, orderId, orders)) ?? { code: 200, detail: `Cancelled: ${orders.join(", ")}.` };
  }
  const mapped = mapOrder(call, orderId);
  if ("code" in mapped) return mapped;
  // An update is a new version of the order: its own key, so that it never replays the version it replaces. It is placed
  // before the versions it replaces are cancelled: a version that cannot be placed leaves the order as it was.
  const key = await derivedKey(`${call.connection.clientId} order ${orderId}${type === "update" ? ` ${call.payloadId}` : ""}`);
  const { status, body, headers } = await callApi<{ data: { orderNumber: string } }>(
    apiOf(call.c.env),
    call.token,
    "POST",
    "/orders",
    mapped.body,
    {
      "Idempotency-Key": key,
    },
  );
  if (status !== 200 && status !== 201) return failed(status, body, mapped.items, `orderID ${orderId} was not ordered`);
  const orderNumber = body.data.orderNumber;
  // Off the answer's path: what the documents sent back later need (the suite's orderID and line numbers).
  call.c.executionCtx.waitUntil(
    rememberOrder(call, orderNumber, orderId, mapped.items, headers.get("X-Session-Bookmark")).catch((err: unknown) =>
      console.error(
        JSON.stringify({ message: "cxml.order_not_recorded", orderNumber, error: err instanceof Error ? err.message : String(err) }),
      ),
    ),
  );
  if (type === "update") {
    const replaced = (await ordersOfOrderId(call, orderId)).filter((placed) => placed !== orderNumber);
    const cancelled = await cancelOrders(call, orderId, replaced);
    if (cancelled) return { ...cancelled, detail: `Medparts order ${orderNumber} placed for this version, but ${cancelled.detail}` };
  }
  return { code: 200, detail: `Medparts order ${orderNumber} for orderID ${orderId}.` };
}
