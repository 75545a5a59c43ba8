import { type Database, database } from "../../db/client";
import { ProblemError } from "../../platform/errors";
import { randomToken } from "../../shared/auth/secrets";
import type { LineStatus } from "../orders/lifecycle";
import { type MoveOutcome, moveLine, type VendorMove } from "../vendors/fulfilment";
import { type InvoiceException, simulateConfirmations, simulateInvoices } from "./purchasing";
import { RETURN_SCENARIOS, simulateReturns } from "./returns";

/**
 * The sandbox's simulated vendor (docs/api.md, "Sandbox"): it moves a test-mode order's lines through the very commit
 * path a real vendor's moves take (`moveLine`, sandbox lines only), so every step writes the real events and webhook
 * deliveries. A scenario runs on demand (POST /test-helpers/orders/{orderNumber}/simulate); by default the order is
 * acknowledged, shipped and delivered on a short schedule (src/api/sandbox/schedule.ts).
 */

export const SCENARIOS = [
  "acknowledge",
  "backorder",
  "ship_partial",
  "ship",
  "deliver",
  "reject_line",
  "confirm",
  "invoice",
  ...RETURN_SCENARIOS,
  "recall",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface ScenarioOptions {
  /** acknowledge: the promised ship date (default: in 2 days). */
  promisedShipDate?: string | undefined;
  /** backorder: the expected ship date (default: in 14 days) and why. */
  expectedShipDate?: string | undefined;
  reason?: string | undefined;
  /** reject_line, ship_partial, ship, deliver, backorder: only this line (default: every line the step applies to). */
  lineId?: number | undefined;
  /** confirm: the X12 855 code (or its name) each line gets; default IA. */
  code?: string | undefined;
  /** confirm: the unit price (IP, IC, IS) or quantity (IQ, IC, BP) the vendor sends instead of the scenario's own. */
  unitPrice?: string | undefined;
  quantity?: number | undefined;
  /** invoice: the exception the invoice carries (on its first line); default none (it matches). */
  exception?: InvoiceException | undefined;
}

interface SandboxLine {
  id: number;
  vendor_id: number;
  status_name: LineStatus;
  quantity: number;
  shipped_quantity: number;
  price_cents: number;
  contract_price_cents: number | null;
  part_number: string;
}

const newTrackingNumber = () => `SBX${randomToken(9).replace(/[-_]/g, "0").toUpperCase()}`;

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * The lines of a test-mode order of the sandbox tenant, in order, and whether it is driven by hand (off the default
 * schedule), in one read; null when it has no such order.
 */
export async function sandboxLines(
  db: D1Database,
  dataTenantId: number,
  orderNumber: string,
): Promise<{ orderId: number; manual: boolean; lines: SandboxLine[] } | null> {
  const { results } = await db
    .prepare(
      "SELECT o.id AS order_id, EXISTS (SELECT 1 FROM sandbox_manual_orders m WHERE m.order_id = o.id) AS manual, " +
        "l.id, l.vendor_id, l.status_name, l.quantity, l.shipped_quantity, l.price_cents, l.contract_price_cents, l.part_number FROM orders o JOIN order_lines l ON l.order_id = o.id " +
        "WHERE o.tenant_id = ?1 AND o.tenant_id < 0 AND o.order_number = ?2 ORDER BY l.id",
    )
    .bind(dataTenantId, orderNumber)
    .all<SandboxLine & { order_id: number; manual: number }>();
  return results.length === 0 ? null : { orderId: results[0]!.order_id, manual: results[0]!.manual === 1, lines: results };
}

/** A scenario stopped after some lines moved: those moves stand (each its own commit), and their events go out. */
export class ScenarioInterrupted extends ProblemError {
  constructor(
    readonly eventIds: string[],
    cause: ProblemError,
  ) {
    super(409, cause.slug, cause.title, `${eventIds.length} move(s) of the scenario were made, then: ${cause.detail}`);
  }
}

export const nothingToDo = (scenario: Scenario, orderNumber: string) =>
  new ProblemError(
    409,
    "invalid-transition",
    "Invalid transition",
    `No line of order ${orderNumber} can take the ${scenario} step now (see the lines' statuses with GET /orders/${orderNumber}).`,
  );

/** Runs a scenario on a test-mode order: each line's moves in turn, each its own commit and event. */
export async function runScenario(
  db: D1Database,
  dataTenantId: number,
  orderNumber: string,
  scenario: Scenario,
  options: ScenarioOptions & { unlessManual?: boolean } = {},
): Promise<{ eventIds: string[]; orderStatus: string | null } | null> {
  const order = await sandboxLines(db, dataTenantId, orderNumber);
  // The default schedule leaves an order driven by hand alone (read with its lines, so a scenario run just before wins).
  if (!order || (options.unlessManual && order.manual)) return null;
  const orm: Database = database(db);
  const eventIds: string[] = [];
  let orderStatus: string | null = null;
  const move = async (line: SandboxLine, step: VendorMove) => {
    const outcome: MoveOutcome = await moveLine(orm, line.vendor_id, line.id, step, undefined, true);
    eventIds.push(...outcome.eventIds);
    orderStatus = outcome.orderStatus;
  };
  const lines = order.lines.filter((line) => options.lineId === undefined || line.id === options.lineId);
  const acknowledge = (line: SandboxLine) => move(line, { action: "acknowledge", promisedShipDate: options.promisedShipDate ?? day(2) });
  const ship = async (line: SandboxLine, trackingNumber: string, quantity?: number) => {
    if (line.status_name === "Ordered") await acknowledge(line);
    await move(line, { action: "ship", trackingNumber, ...(quantity ? { quantity } : {}) });
  };
  const shippable = (line: SandboxLine) =>
    ["Ordered", "Acknowledged", "Backordered"].includes(line.status_name) ||
    (line.status_name === "Shipped" && line.shipped_quantity < line.quantity);

  // The lines the step applies to, each moved in turn.
  const moveLines = async (): Promise<SandboxLine[]> => {
    let applicable: SandboxLine[] = [];
    switch (scenario) {
      case "acknowledge":
        applicable = lines.filter((line) => line.status_name === "Ordered" || line.status_name === "Backordered");
        for (const line of applicable) await acknowledge(line);
        break;
      case "backorder":
        applicable = lines.filter((line) => line.status_name === "Ordered" || line.status_name === "Acknowledged");
        for (const line of applicable) {
          await move(line, {
            action: "backorder",
            expectedShipDate: options.expectedShipDate ?? day(14),
            reason: options.reason ?? "Sandbox: awaiting stock",
          });
        }
        break;
      case "ship_partial": {
        // One parcel per vendor (a parcel is a vendor's tracking number) with half of what remains (at least 1) of each
        // of its lines: one shipping document listing several lines, and the order shows PartiallyShipped.
        applicable = lines.filter(shippable);
        const parcels = new Map<number, string>();
        for (const line of applicable) {
          const parcel = parcels.get(line.vendor_id) ?? newTrackingNumber();
          parcels.set(line.vendor_id, parcel);
          await ship(line, parcel, Math.max(1, Math.floor((line.quantity - line.shipped_quantity) / 2)));
        }
        break;
      }
      case "ship":
        applicable = lines.filter(shippable);
        for (const line of applicable) await ship(line, newTrackingNumber());
        break;
      case "deliver":
        applicable = lines.filter((line) => line.status_name === "Shipped" && line.shipped_quantity >= line.quantity);
        for (const line of applicable) await move(line, { action: "deliver" });
        break;
      case "confirm":
        applicable = lines.filter((line) => ["Ordered", "Acknowledged", "Backordered"].includes(line.status_name));
        for (const outcome of await simulateConfirmations(orm, applicable, options)) {
          eventIds.push(...outcome.eventIds);
          orderStatus = outcome.orderStatus;
        }
        break;
      case "invoice":
        applicable = lines.filter((line) => line.shipped_quantity > 0);
        if (applicable.length === 0) break;
        for (const outcome of await simulateInvoices(orm, orderNumber, applicable, options)) eventIds.push(...outcome.eventIds);
        orderStatus = await db
          .prepare("SELECT status FROM orders WHERE tenant_id = ?1 AND order_number = ?2")
          .bind(dataTenantId, orderNumber)
          .first<string>("status");
        break;
      case "core_received":
      case "core_refused":
      case "core_overdue":
      case "loaner_overdue":
      case "loaner_received":
      case "repair_beyond_flat_rate":
      case "rma_declined": {
        const outcome = await simulateReturns(orm, dataTenantId, order.orderId, scenario, options);
        eventIds.push(...outcome.eventIds);
        applicable = outcome.moved > 0 ? lines : [];
        orderStatus = await db
          .prepare("SELECT status FROM orders WHERE tenant_id = ?1 AND order_number = ?2")
          .bind(dataTenantId, orderNumber)
          .first<string>("status");
        break;
      }
      case "reject_line":
        // A vendor rejects only before acknowledging: the first line still Ordered, unless one is named.
        applicable = lines.filter((line) => line.status_name === "Ordered").slice(0, 1);
        for (const line of applicable)
          await move(line, { action: "reject", reason: options.reason ?? "Sandbox: discontinued by the manufacturer" });
        break;
    }
    return applicable;
  };
  let applicable: SandboxLine[];
  try {
    applicable = await moveLines();
  } catch (error) {
    if (eventIds.length > 0 && error instanceof ProblemError) throw new ScenarioInterrupted(eventIds, error);
    throw error;
  }
  if (applicable.length === 0) throw nothingToDo(scenario, orderNumber);
  return { eventIds, orderStatus };
}
