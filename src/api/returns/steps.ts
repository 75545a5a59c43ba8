import type { ReturnKind } from "../../db/schema";
import type { EventType } from "../events/types";
import { REPAIR_OPENED_STATUS } from "../orders/repair-lines";

/**
 * The state machines of units going back to their vendors (docs/api.md, "Returns, cores, loaners and repairs"): the one
 * place that says which step may follow which status, who takes it, where it leads and the one event it writes.
 * - core (an exchange's failed part): opened when the exchange ships; the buyer ships it back; the vendor receives and
 *   grades it (accepted, or refused); one not back by its due date is overdue; an overdue or refused core is charged.
 * - loaner: opened when it ships; overdue after its due date (late fees accrue per day); the buyer ships it back, the
 *   vendor receives it; late fees are charged.
 * - repair (send-in): opened with the order; the buyer sends the unit in, the vendor receives and diagnoses it (within
 *   the flat rate, or beyond it with a price the buyer approves or declines), and sends it back, repaired or not.
 * - rma (a return of bought units): the buyer requests it, the vendor authorizes or declines it, the buyer ships it, the
 *   vendor receives it (its credit memo follows, docs/api.md "Invoices").
 */

export const RETURN_KINDS = ["core", "loaner", "repair", "rma"] as const satisfies readonly ReturnKind[];

export type ReturnStep =
  | "open"
  | "request"
  | "due_soon"
  | "overdue"
  | "ship"
  | "authorize"
  | "decline"
  | "receive"
  | "refuse"
  | "diagnose"
  | "quote"
  | "approve"
  | "reject_quote"
  | "send_back"
  | "charge";

export type ReturnActor = "buyer" | "vendor" | "system";

export interface StepRule {
  /** The statuses it may start from; none: the step creates the return. */
  from: readonly string[];
  to: string;
  actor: ReturnActor;
  event: EventType;
}

const rule = (from: readonly string[], to: string, actor: ReturnActor, event: EventType): StepRule => ({ from, to, actor, event });

export const STEPS: Readonly<Record<ReturnKind, Partial<Record<ReturnStep, StepRule>>>> = {
  core: {
    open: rule([], "open", "vendor", "core.opened"),
    due_soon: rule(["open"], "open", "system", "core.due_soon"),
    overdue: rule(["open"], "overdue", "system", "core.overdue"),
    ship: rule(["open"], "shipped", "buyer", "core.shipped"),
    receive: rule(["shipped"], "accepted", "vendor", "core.received"),
    refuse: rule(["shipped"], "refused", "vendor", "core.refused"),
    charge: rule(["overdue", "refused"], "charged", "system", "core.charged"),
  },
  loaner: {
    open: rule([], "open", "vendor", "loaner.opened"),
    due_soon: rule(["open"], "open", "system", "loaner.due_soon"),
    overdue: rule(["open"], "overdue", "system", "loaner.overdue"),
    ship: rule(["open", "overdue"], "shipped", "buyer", "loaner.shipped"),
    receive: rule(["shipped"], "received", "vendor", "loaner.received"),
    charge: rule(["received"], "charged", "system", "loaner.charged"),
  },
  repair: {
    ship: rule([REPAIR_OPENED_STATUS], "shipped", "buyer", "repair.unit_shipped"),
    receive: rule(["shipped"], "received", "vendor", "repair.received"),
    diagnose: rule(["received"], "repairing", "vendor", "repair.diagnosed"),
    quote: rule(["received"], "quoted", "vendor", "repair.quoted"),
    approve: rule(["quoted"], "repairing", "buyer", "repair.approved"),
    reject_quote: rule(["quoted"], "declined", "buyer", "repair.declined"),
    send_back: rule(["repairing", "declined"], "returned", "vendor", "repair.returned"),
  },
  rma: {
    request: rule([], "requested", "buyer", "return.requested"),
    authorize: rule(["requested"], "authorized", "vendor", "return.authorized"),
    decline: rule(["requested"], "declined", "vendor", "return.declined"),
    ship: rule(["authorized"], "shipped", "buyer", "return.shipped"),
    receive: rule(["shipped"], "received", "vendor", "return.received"),
  },
};

/** The `kind:status` pairs in which a return's next step is its vendor's: what a vendor's desk lists to receive. */
export const VENDOR_STEP_STATUSES: readonly string[] = [
  ...new Set(
    Object.entries(STEPS).flatMap(([kind, steps]) =>
      Object.values(steps)
        .filter((step) => step.actor === "vendor")
        .flatMap((step) => step.from.map((status) => `${kind}:${status}`)),
    ),
  ),
];

/** Each kind's statuses in the order a return goes through them: no step leads to an earlier one. */
export const STATUS_ORDER: Readonly<Record<ReturnKind, readonly string[]>> = {
  core: ["open", "shipped", "overdue", "accepted", "refused", "charged"],
  loaner: ["open", "overdue", "shipped", "received", "charged"],
  repair: [REPAIR_OPENED_STATUS, "shipped", "received", "quoted", "repairing", "declined", "returned"],
  rma: ["requested", "authorized", "declined", "shipped", "received"],
};

/** Statuses in which a return still waits for something (the buyer's "open" view). */
export const FINAL_STATUSES: Readonly<Record<ReturnKind, readonly string[]>> = {
  core: ["accepted", "charged"],
  loaner: ["received", "charged"],
  repair: ["returned"],
  rma: ["declined", "received"],
};

export type StepCheck = { ok: true; rule: StepRule } | { ok: false; allowed: ReturnStep[] };

/** Whether `step` may be taken from `status` by `actor`; when not, the steps that may. */
export function checkStep(kind: ReturnKind, status: string, step: ReturnStep, actor: ReturnActor): StepCheck {
  const found = STEPS[kind][step];
  if (found && found.actor === actor && found.from.includes(status)) return { ok: true, rule: found };
  const allowed = (Object.entries(STEPS[kind]) as [ReturnStep, StepRule][])
    .filter(([, r]) => r.actor === actor && r.from.includes(status))
    .map(([name]) => name);
  return { ok: false, allowed };
}

/** One day in milliseconds: due days and late days are whole days. */
export const DAY_MS = 86_400_000;
/** Midnight UTC of an instant's day: due dates are days, stored as that instant (the q language's dates cover a day). */
export const dayOf = (instant: string) => `${instant.slice(0, 10)}T00:00:00.000Z`;

/** Whole days between the due day and the day the unit left (0 when it left on or before the due day): what a late fee counts. */
export const daysLate = (dueAt: string, shippedAt: string) =>
  Math.max(0, Math.round((Date.parse(dayOf(shippedAt)) - Date.parse(dueAt)) / DAY_MS));

/** The rank of a status in its kind's order (property tests: never lower after a step). */
export const rankOf = (kind: ReturnKind, status: string) => STATUS_ORDER[kind].indexOf(status);
