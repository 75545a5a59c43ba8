import { EVENT_TYPES } from "../../../src/api/events/types";
import { UsageError } from "../../cli";
import type { Listener, ReceivedEvent } from "../webhook-listener";
import type { Session } from "./session";

/**
 * `trigger <type>`: makes an event of that type happen for real in test mode (a test order, then the simulated vendor's
 * scenarios and the buyer's own moves: docs/api.md, "Sandbox"), and shows its delivery to a listener registered for
 * the run. The few types no scenario reaches are sent as the endpoint's signed sample, and say so.
 */

type Step =
  | { scenario: string; with?: Record<string, unknown> }
  | { buyer: "cancel" | "accept-change" | "decline-change" | "accept-invoice" | "dispute-invoice" | "request-return" };

interface Recipe {
  /** The purchase choice the order's line is bought on (an exchange opens a core, a loan a loaner). */
  choice?: "exchange" | "loan";
  steps: Step[];
}

const ship: Step = { scenario: "ship" };
const deliver: Step = { scenario: "deliver" };
const invoice: Step = { scenario: "invoice" };
const exception: Step = { scenario: "invoice", with: { exception: "price_variance" } };
const priceChange: Step = { scenario: "confirm", with: { code: "IP" } };

/** How each event type is made to happen; a type without a recipe is sent as a sample. */
export const RECIPES: Partial<Record<(typeof EVENT_TYPES)[number], Recipe>> = {
  "order.created": { steps: [] },
  "order.acknowledged": { steps: [{ scenario: "acknowledge" }] },
  "order.backordered": { steps: [{ scenario: "backorder", with: { reason: "Awaiting stock" } }] },
  "order.shipped": { steps: [ship] },
  "order.delivered": { steps: [ship, deliver] },
  "order.cancelled": { steps: [{ buyer: "cancel" }] },
  "order.rejected": { steps: [{ scenario: "reject_line", with: { reason: "Discontinued by the manufacturer" } }] },
  "order.confirmed": { steps: [{ scenario: "confirm" }] },
  "order.change_accepted": { steps: [priceChange, { buyer: "accept-change" }] },
  "order.change_declined": { steps: [priceChange, { buyer: "decline-change" }] },
  "invoice.received": { steps: [ship, invoice] },
  "invoice.matched": { steps: [ship, invoice] },
  "invoice.exception": { steps: [ship, exception] },
  "invoice.accepted": { steps: [ship, exception, { buyer: "accept-invoice" }] },
  "invoice.disputed": { steps: [ship, exception, { buyer: "dispute-invoice" }] },
  "core.opened": { choice: "exchange", steps: [ship, deliver] },
  "core.shipped": { choice: "exchange", steps: [ship, deliver, { scenario: "core_received" }] },
  "core.received": { choice: "exchange", steps: [ship, deliver, { scenario: "core_received" }] },
  "core.refused": { choice: "exchange", steps: [ship, deliver, { scenario: "core_refused", with: { reason: "Cracked housing" } }] },
  "core.overdue": { choice: "exchange", steps: [ship, deliver, { scenario: "core_overdue" }] },
  "core.charged": { choice: "exchange", steps: [ship, deliver, { scenario: "core_overdue" }] },
  "loaner.opened": { choice: "loan", steps: [ship, deliver] },
  "loaner.due_soon": { choice: "loan", steps: [ship, deliver, { scenario: "loaner_overdue" }] },
  "loaner.overdue": { choice: "loan", steps: [ship, deliver, { scenario: "loaner_overdue" }] },
  "loaner.shipped": { choice: "loan", steps: [ship, deliver, { scenario: "loaner_received" }] },
  "loaner.received": { choice: "loan", steps: [ship, deliver, { scenario: "loaner_received" }] },
  "loaner.charged": { choice: "loan", steps: [ship, deliver, { scenario: "loaner_overdue" }, { scenario: "loaner_received" }] },
  "return.requested": { steps: [ship, deliver, { buyer: "request-return" }] },
  "return.declined": {
    steps: [ship, deliver, { buyer: "request-return" }, { scenario: "rma_declined", with: { reason: "Past the window" } }],
  },
  "recall.affects_you": { steps: [ship, deliver, { scenario: "recall" }] },
};

export const triggerableTypes = () => EVENT_TYPES.filter((type) => RECIPES[type] !== undefined);

/** The demo buyer: `npm start`'s data (portal/guides/getting-started.md). */
const DEMO = { requesterId: 50001, userId: 1, facilityId: 1001, shippingAddressId: 11, billingAddressId: 13 };
/** The demo products with an option of each purchase choice, and values for the demo data's required order fields. */
const DEMO_PRODUCTS = { buy: "MP-0000003", exchange: "MP-0000003", loan: "MP-0000010" } as const;
const DEMO_FIELD_VALUES: Record<string, string> = { coreSerialNumber: "SN-TRIGGER1", loanReturnDate: "2030-01-31", costCenter: "4410" };

interface PriceOption {
  priceOptionId: string;
  price: string;
  purchaseChoice: string;
  customFields: { fieldId: string; isRequired: boolean }[];
}

async function placeOrder(session: Session, choice: Recipe["choice"]): Promise<{ orderNumber: string; lineId: number }> {
  const wanted = choice ?? "buy";
  const productId = DEMO_PRODUCTS[wanted];
  const detail = await session.call<{ options: PriceOption[] }>("POST", "/customer/api/catalog/detail", {
    json: { productId, requesterId: DEMO.requesterId, facilityId: DEMO.facilityId },
  });
  const fillable = (o: PriceOption) => o.customFields.every((f) => !f.isRequired || DEMO_FIELD_VALUES[f.fieldId] !== undefined);
  const option = detail.options.find((o) => o.purchaseChoice.toLowerCase() === wanted && fillable(o));
  if (!option) throw new UsageError(`The demo product ${productId} has no ${wanted} price option: is this npm start's demo data?`);
  const requiredFields = option.customFields
    .filter((f) => f.isRequired)
    .map((f) => ({ fieldId: f.fieldId, value: DEMO_FIELD_VALUES[f.fieldId]! }));
  const order = await session.call<{ orderNumber: string }>("POST", "/customer/api/orders", {
    idempotent: true,
    json: {
      requesterId: DEMO.requesterId,
      userId: DEMO.userId,
      facilityId: DEMO.facilityId,
      shippingAddressId: DEMO.shippingAddressId,
      billingAddressId: DEMO.billingAddressId,
      shippingMethod: "GROUND",
      quoteItems: [{ priceOptionId: option.priceOptionId, productId, quantity: 1, price: option.price, requiredFields }],
      payment: { paymentMethod: "PO", poNumber: `TRIGGER-${Date.now()}` },
    },
  });
  const read = await session.call<{ lineItems: { lineId: number }[] }>(
    "GET",
    `/customer/api/orders/${order.orderNumber}?include=lineItems`,
  );
  return { orderNumber: order.orderNumber, lineId: read.lineItems[0]!.lineId };
}

/** The data of the newest event of `type` the run has received (an invoice's id, say). */
const dataOf = (listener: Listener, type: string) => [...listener.received].reverse().find((event) => event.type === type)?.data;

async function waitFor(listener: Listener, matches: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const event = listener.received.find(matches);
    if (event) return event;
    if (Date.now() > deadline) throw new UsageError("No such delivery arrived in time: is the deployment's queue running?");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function buyerMove(session: Session, listener: Listener, order: { orderNumber: string; lineId: number }, move: string) {
  const base = `/customer/api/orders/${order.orderNumber}`;
  if (move === "cancel") return session.call("POST", `${base}/cancel`, { idempotent: true, json: { reason: "medparts trigger" } });
  if (move === "accept-change" || move === "decline-change") {
    await waitFor(listener, (e) => e.type === "order.confirmed" && e.orderNumber === order.orderNumber, 15_000);
    return session.call("POST", `${base}/lines/${order.lineId}/change-decision`, {
      idempotent: true,
      json: { decision: move === "accept-change" ? "accept" : "decline" },
    });
  }
  if (move === "request-return") {
    return session.call("POST", `${base}/lines/${order.lineId}/returns`, {
      idempotent: true,
      json: { quantity: 1, reason: "not_needed" },
    });
  }
  await waitFor(listener, (e) => e.type === "invoice.exception" && e.orderNumber === order.orderNumber, 15_000);
  const invoiceId = dataOf(listener, "invoice.exception")?.invoiceId;
  if (move === "accept-invoice") {
    return session.call("POST", `/customer/api/invoices/${invoiceId}/accept`, { idempotent: true, json: { note: "medparts trigger" } });
  }
  return session.call("POST", `/customer/api/invoices/${invoiceId}/dispute`, { idempotent: true, json: { reason: "medparts trigger" } });
}

/**
 * Runs the type's recipe against `listener`'s endpoint and returns the first delivery of that type (`sample` true when
 * it is the endpoint's signed sample rather than a real event).
 */
export async function trigger(
  session: Session,
  listener: Listener,
  type: string,
  say: (line: string) => void,
  timeoutMs = 30_000,
): Promise<{ event: ReceivedEvent; sample: boolean }> {
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`Unknown event type "${type}": one of ${EVENT_TYPES.join(", ")}.`);
  }
  const recipe = RECIPES[type as (typeof EVENT_TYPES)[number]];
  if (!recipe) {
    say(`No scenario makes ${type} happen: sending the endpoint's signed sample of it instead.`);
    await session.call("POST", `/customer/api/webhook-endpoints/${listener.endpointId}/test`, { json: { type } });
    return { event: await waitFor(listener, (e) => e.type === type, timeoutMs), sample: true };
  }
  const order = await placeOrder(session, recipe.choice);
  say(`test order ${order.orderNumber} placed${recipe.choice ? ` (${recipe.choice})` : ""}`);
  for (const step of recipe.steps) {
    if ("scenario" in step) {
      await session.call("POST", `/customer/api/test-helpers/orders/${order.orderNumber}/simulate`, {
        json: { scenario: step.scenario, ...step.with },
      });
      say(`simulated ${step.scenario}`);
    } else {
      await buyerMove(session, listener, order, step.buyer);
      say(`buyer: ${step.buyer}`);
    }
  }
  // Recall events name the recall, not the order; every other type is this order's.
  const ours = (e: ReceivedEvent) => e.type === type && (type.startsWith("recall.") || e.orderNumber === order.orderNumber);
  return { event: await waitFor(listener, ours, timeoutMs), sample: false };
}
