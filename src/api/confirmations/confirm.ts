import { and, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { orderLines, orders, type ProposedChange, purchasingSettings, quotes } from "../../db/schema";
import { ProblemError, ValidationError } from "../../platform/errors";
import { canonicalJson } from "../../platform/idempotency/middleware";
import { centsToText, MARKET_CURRENCY, textToCents } from "../../platform/money";
import {
  type CodeName,
  type ConfirmationType,
  codeOf,
  FIELDS_OF,
  IMPLIED_CODE,
  type KnownCode,
  type X12Code,
} from "../../shared/confirmations/codes";
import type { EventData } from "../events/schemas";
import { type InvoicingRows, invoicingOf, invoicingReads, rematchAfter } from "../invoices/invoicing";
import { type ChangeOutcome, commitOrderChange, type LineRevision, orderLineStates, orderTotalUpkeep } from "../orders/changes";
import { canMove, type LineStatus, type OrderStatus, orderStatusOf } from "../orders/lifecycle";
import { changeOf, type LineFieldChange, priceChange, proposalChange } from "../orders/line-history";
import { type PurchasingSettings, settingsOf, withinTolerance } from "../purchasing/settings";
import { expectLinesOfOneOrder, liveOrder, vendorLineNotFound } from "../vendors/lines";

/**
 * A vendor's confirmation of its lines of one order (docs/api.md, "Confirmations"): each line's X12 855 code with what
 * it changes. It commits as every order change does (src/api/orders/changes.ts): one batch with the lines, their
 * revisions, the order's status and total, and one `order.confirmed` event. A change that costs the buyer more or gives
 * them something else (a price above the line's, unless the tenant accepts it automatically; a quantity; a
 * substitution) is not applied: the line keeps its status and holds the proposal until the buyer answers
 * (src/api/confirmations/decide.ts). A confirmation whose every line is already as it says changes nothing (a retry).
 */

export interface ConfirmationLineInput {
  lineId: number;
  code?: X12Code | CodeName | undefined;
  unitPrice?: string | undefined;
  quantity?: number | undefined;
  substitute?: { partNumber: string; description: string } | undefined;
  promisedShipDate?: string | undefined;
  expectedShipDate?: string | undefined;
  reason?: string | null | undefined;
}

export interface ConfirmationInput {
  type: ConfirmationType;
  lines: ConfirmationLineInput[];
  promisedShipDate?: string | undefined;
  expectedShipDate?: string | undefined;
  reason?: string | null | undefined;
}

export interface ConfirmationOutcome {
  orderNumber: string;
  orderStatus: OrderStatus;
  /** The order.confirmed event; null when nothing changed (a repeat). */
  eventId: string | null;
  /** Every event written: order.confirmed, then those of invoices a price applied now matched again. */
  eventIds: string[];
  lineIds: number[];
}

/** Lines a confirmation may still speak for: nothing about them is final yet. */
const CONFIRMABLE: readonly LineStatus[] = ["Ordered", "Acknowledged", "Backordered"];

/** What a confirmation reads of the vendor's lines on the order: one read round trip with the order and the settings. */
async function readOrder(db: Database, vendorId: number, firstLineId: number, sandbox: boolean) {
  const orderOfFirst = sql<number>`(select ${orderLines.orderId} from ${orderLines} where ${orderLines.id} = ${firstLineId} and ${orderLines.vendorId} = ${vendorId})`;
  const ofItsKind = sandbox ? lt(orders.tenantId, 0) : liveOrder;
  const [lines, states, settings, ...invoicing] = await db.batch([
    db
      .select({
        id: orderLines.id,
        status: orderLines.statusName,
        quantity: orderLines.quantity,
        shippedQuantity: orderLines.shippedQuantity,
        priceCents: orderLines.priceCents,
        // The price as ordered (its quote's): automatic acceptance is measured from it, so increases never add up past it.
        orderedPriceCents: sql<number>`coalesce((select ${quotes.priceCents} from ${quotes} where ${quotes.id} = ${orderLines.quoteId}), ${orderLines.priceCents})`,
        contractPriceCents: orderLines.contractPriceCents,
        partNumber: orderLines.partNumber,
        description: orderLines.description,
        promisedShipDate: orderLines.promisedShipDate,
        expectedShipDate: orderLines.expectedShipDate,
        statusReason: orderLines.statusReason,
        confirmationCode: orderLines.confirmationCode,
        proposedChange: orderLines.proposedChange,
        orderId: orderLines.orderId,
        tenantId: orders.tenantId,
        orderNumber: orders.orderNumber,
        version: orders.version,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(orderLines.orderId, orderOfFirst), eq(orderLines.vendorId, vendorId), ofItsKind))
      .orderBy(orderLines.id),
    orderLineStates(db, orderOfFirst),
    db
      .select()
      .from(purchasingSettings)
      .where(eq(purchasingSettings.tenantId, sql`(select ${orders.tenantId} from ${orders} where ${orders.id} = ${orderOfFirst})`)),
    // The vendor's invoices on the order: a price applied now matches them again.
    ...invoicingReads(db, vendorId, orderOfFirst),
  ]);
  return { lines, states, settings: settingsOf(settings[0]), invoicing: invoicingOf(vendorId, invoicing as InvoicingRows) };
}

export type ConfirmedLine = Awaited<ReturnType<typeof readOrder>>["lines"][number];

/** The line after the confirmation: its columns that change, its status, and what its revision and the event say. */
export interface LinePlan {
  lineId: number;
  status: LineStatus;
  set: Partial<typeof orderLines.$inferInsert>;
  changes: LineFieldChange[];
  note: string | null;
  event: EventData<"order.confirmed">["lines"][number];
}

const invalid = (at: string, message: string) => new ValidationError({ [at]: [message] });

/** Each line's code, checked against the type: accept, reject and backordered imply theirs; detail and except need one per line. */
function codeOfLine(type: ConfirmationType, line: ConfirmationLineInput, index: number) {
  const implied = IMPLIED_CODE[type];
  if (implied === null) {
    if (!line.code) throw invalid(`lines[${index}].code`, `Required: a "${type}" confirmation names each line's code.`);
    return codeOf(line.code);
  }
  if (line.code && codeOf(line.code).code !== implied) {
    throw invalid(
      `lines[${index}].code`,
      `A "${type}" confirmation confirms every line as ${implied}; send type "detail" for other codes.`,
    );
  }
  return codeOf(implied);
}

const OWN_FIELDS = ["unitPrice", "quantity", "substitute", "promisedShipDate", "expectedShipDate", "reason"] as const;

/**
 * The plan of one line: the code's rules against the line and the tenant's settings. Throws 400 for a field the code
 * does not take or lacks, 409 for a line the code cannot apply to now.
 */
export function planLine(
  line: ConfirmedLine,
  input: ConfirmationLineInput,
  defaults: Pick<ConfirmationInput, "promisedShipDate" | "expectedShipDate" | "reason">,
  code: KnownCode,
  settings: PurchasingSettings,
  index: number,
  at: string,
): LinePlan {
  const at_ = (field: string) => `lines[${index}].${field}`;
  const allowed = FIELDS_OF[code.code];
  for (const field of OWN_FIELDS) {
    if (input[field] !== undefined && !allowed.includes(field)) throw invalid(at_(field), `Not taken by code ${code.code} (${code.name}).`);
  }
  const take = <K extends "promisedShipDate" | "expectedShipDate" | "reason">(field: K) =>
    allowed.includes(field) ? (input[field] ?? defaults[field] ?? undefined) : undefined;
  const promisedShipDate = take("promisedShipDate");
  const expectedShipDate = take("expectedShipDate");
  const reason = take("reason") ?? null;

  if (!CONFIRMABLE.includes(line.status as LineStatus)) {
    throw new ProblemError(
      409,
      "line-not-confirmable",
      "Line cannot be confirmed",
      `Line ${line.id} is ${line.status}: only ${CONFIRMABLE.join(", ")} lines can be confirmed.`,
    );
  }
  const base = { lineId: line.id, code: code.code, name: code.name };
  const changes: LineFieldChange[] = [];
  const record = (more: LineFieldChange[]) => changes.push(...more);
  const keep = (status: LineStatus, set: LinePlan["set"], event: Partial<LinePlan["event"]>, note: string | null = reason): LinePlan => {
    record(changeOf("status", line.status as LineStatus, status));
    record(changeOf("confirmationCode", line.confirmationCode, code.code));
    if (line.proposedChange && set.proposedChange === undefined) {
      set.proposedChange = null;
      record([proposalChange(line.proposedChange, null)]);
    }
    return {
      lineId: line.id,
      status,
      set: { ...set, statusName: status, confirmationCode: code.code },
      changes,
      note,
      event: { ...base, lineStatus: status, awaitingBuyer: false, contractPriceException: false, ...event },
    };
  };
  const moveTo = (status: LineStatus) => {
    if (line.status !== status && !canMove(line.status, status)) {
      throw new ProblemError(
        409,
        "invalid-transition",
        "Invalid transition",
        `Line ${line.id} is ${line.status}: code ${code.code} (${code.name}) would make it ${status}, which is not allowed from ${line.status}.`,
      );
    }
  };

  switch (code.effect) {
    case "accept": {
      if ((code.code === "IA" || code.code === "DR") && !promisedShipDate) {
        throw invalid(at_("promisedShipDate"), `Required for code ${code.code}: when the vendor will ship the line.`);
      }
      moveTo("Acknowledged");
      const date = promisedShipDate ?? null;
      record(changeOf("promisedShipDate", line.promisedShipDate, date));
      return keep("Acknowledged", { promisedShipDate: date, statusReason: null }, { promisedShipDate: date });
    }
    case "backorder": {
      if (!expectedShipDate) throw invalid(at_("expectedShipDate"), `Required for code ${code.code}: when the vendor expects to ship.`);
      let statusReason = reason;
      if (code.code === "BP") {
        const remaining = line.quantity - line.shippedQuantity;
        if (input.quantity === undefined) throw invalid(at_("quantity"), "Required for code BP: how much ships now.");
        if (input.quantity >= remaining)
          throw invalid(at_("quantity"), `Must be less than the ${remaining} left to ship of line ${line.id}.`);
        statusReason = `Partial shipment of ${input.quantity}, balance of ${remaining - input.quantity} backordered${reason ? `: ${reason}` : ""}`;
      }
      moveTo("Backordered");
      record(changeOf("expectedShipDate", line.expectedShipDate, expectedShipDate));
      if (promisedShipDate !== undefined) record(changeOf("promisedShipDate", line.promisedShipDate, promisedShipDate));
      return keep(
        "Backordered",
        { expectedShipDate, statusReason, ...(promisedShipDate !== undefined ? { promisedShipDate } : {}) },
        { expectedShipDate, ...(code.code === "BP" ? { quantity: input.quantity } : {}), reason: statusReason },
        statusReason,
      );
    }
    case "hold": {
      const statusReason = reason ?? code.meaning;
      record(changeOf("statusReason", line.statusReason, statusReason));
      return keep(line.status as LineStatus, { statusReason }, { reason: statusReason });
    }
    case "reject": {
      moveTo("Rejected");
      const statusReason = reason ? `${code.meaning}: ${reason}` : code.meaning;
      record(changeOf("statusReason", line.statusReason, statusReason));
      return keep("Rejected", { statusReason }, { reason: statusReason });
    }
    case "change":
      return planChange(line, input, code, settings, { promisedShipDate, reason, index, at }, keep, record);
  }
}

function planChange(
  line: ConfirmedLine,
  input: ConfirmationLineInput,
  code: { code: X12Code; name: string },
  settings: PurchasingSettings,
  context: { promisedShipDate: string | undefined; reason: string | null; index: number; at: string },
  keep: (status: LineStatus, set: LinePlan["set"], event: Partial<LinePlan["event"]>, note?: string | null) => LinePlan,
  record: (more: LineFieldChange[]) => void,
): LinePlan {
  const at_ = (field: string) => `lines[${context.index}].${field}`;
  const required = { IP: "unitPrice", IQ: "quantity", IS: "substitute" } as const;
  const needed = required[code.code as keyof typeof required];
  if (needed && input[needed] === undefined) throw invalid(at_(needed), `Required for code ${code.code} (${code.name}).`);
  if (code.code === "IC" && input.unitPrice === undefined && input.quantity === undefined && input.substitute === undefined) {
    throw invalid(at_("unitPrice"), "Code IC (accepted_with_changes) needs at least one change: unitPrice, quantity or substitute.");
  }
  if (line.shippedQuantity > 0) {
    throw new ProblemError(
      409,
      "line-partly-shipped",
      "Line partly shipped",
      `${line.shippedQuantity} of line ${line.id} has shipped: its price, quantity or product can no longer change.`,
    );
  }
  const priceCents = input.unitPrice === undefined ? line.priceCents : textToCents(input.unitPrice);
  if (priceCents === null || priceCents <= 0) throw invalid(at_("unitPrice"), "Must be a positive amount.");
  const quantity = input.quantity ?? line.quantity;
  const contractPriceException = line.contractPriceCents !== null && priceCents > line.contractPriceCents;
  const increase = priceCents - line.priceCents;
  // Within the tolerance of the price as ordered, whatever earlier increases were accepted: they never add up past it.
  const autoAccepted =
    increase > 0 &&
    !contractPriceException &&
    settings.autoAccept !== null &&
    (priceCents <= line.orderedPriceCents ||
      withinTolerance(priceCents - line.orderedPriceCents, line.orderedPriceCents, settings.autoAccept));
  const askBuyer = (increase > 0 && !autoAccepted) || quantity !== line.quantity || input.substitute !== undefined;
  const proposal: Omit<ProposedChange, "proposedAt"> = {
    code: code.code,
    ...(priceCents !== line.priceCents ? { priceCents } : {}),
    ...(quantity !== line.quantity ? { quantity } : {}),
    ...(input.substitute ? { substitute: input.substitute } : {}),
    ...(context.promisedShipDate !== undefined ? { promisedShipDate: context.promisedShipDate } : {}),
    contractPriceException,
    note: context.reason,
  };
  const eventChange = {
    ...(proposal.priceCents !== undefined
      ? { unitPrice: centsToText(proposal.priceCents), previousUnitPrice: centsToText(line.priceCents), currency: MARKET_CURRENCY }
      : {}),
    ...(proposal.quantity !== undefined ? { quantity: proposal.quantity, previousQuantity: line.quantity } : {}),
    ...(proposal.substitute ? { substitute: proposal.substitute } : {}),
    ...(context.promisedShipDate !== undefined ? { promisedShipDate: context.promisedShipDate } : {}),
    contractPriceException,
  };
  if (askBuyer) {
    const pending = samePending(line.proposedChange, proposal) ? line.proposedChange! : { ...proposal, proposedAt: context.at };
    if (pending !== line.proposedChange) record([proposalChange(line.proposedChange, pending)]);
    return keep(line.status as LineStatus, { proposedChange: pending }, { ...eventChange, awaitingBuyer: true });
  }
  // Costs the buyer nothing more (or within the tenant's tolerance): applied now, the line accepted.
  const applied = applyProposal(line, { ...proposal, proposedAt: context.at });
  record(applied.changed);
  const note = autoAccepted
    ? `Price increase accepted automatically (within the tenant's tolerance)${context.reason ? `: ${context.reason}` : ""}`
    : context.reason;
  return keep("Acknowledged", { ...applied.set, statusReason: null }, eventChange, note);
}

/** Whether a pending proposal already says this (a repeated confirmation keeps the first one's time). */
function samePending(pending: ProposedChange | null, proposal: Omit<ProposedChange, "proposedAt">): boolean {
  if (!pending) return false;
  const { proposedAt: _at, ...rest } = pending;
  return canonicalJson(rest) === canonicalJson(proposal);
}

/** A proposal applied to its line: the columns it sets, and each changed field (for the line's revision). */
export function applyProposal(
  line: Pick<ConfirmedLine, "priceCents" | "quantity" | "partNumber" | "description" | "promisedShipDate">,
  proposal: ProposedChange,
) {
  const priceCents = proposal.priceCents ?? line.priceCents;
  const quantity = proposal.quantity ?? line.quantity;
  const set: Partial<typeof orderLines.$inferInsert> = {
    priceCents,
    quantity,
    extendedPriceCents: priceCents * quantity,
    proposedChange: null,
    ...(proposal.substitute
      ? {
          partNumber: proposal.substitute.partNumber,
          replacementPartNumber: proposal.substitute.partNumber,
          description: proposal.substitute.description,
        }
      : {}),
    ...(proposal.promisedShipDate !== undefined ? { promisedShipDate: proposal.promisedShipDate } : {}),
  };
  const changed: LineFieldChange[] = [
    ...priceChange(line.priceCents, priceCents),
    ...changeOf("quantity", line.quantity, quantity),
    ...changeOf("partNumber", line.partNumber, set.partNumber ?? line.partNumber),
    ...changeOf("description", line.description, set.description ?? line.description),
    ...changeOf(
      "promisedShipDate",
      line.promisedShipDate,
      proposal.promisedShipDate === undefined ? line.promisedShipDate : proposal.promisedShipDate,
    ),
  ];
  return { set, changed };
}

/** A vendor's confirmation of its lines on one order. `sandbox`: the simulated vendor on a test-mode order. */
export async function confirmLines(
  db: Database,
  vendorId: number,
  confirmation: ConfirmationInput,
  { sandbox = false, now = new Date() }: { sandbox?: boolean; now?: Date } = {},
): Promise<ConfirmationOutcome> {
  const ids = confirmation.lines.map((line) => line.lineId);
  if (new Set(ids).size !== ids.length) throw invalid("lines", "Each lineId once.");
  const { lines, states, settings, invoicing } = await readOrder(db, vendorId, ids[0]!, sandbox);
  const first = lines[0];
  if (!first) throw vendorLineNotFound();
  const byId = new Map(lines.map((line) => [line.id, line]));
  expectLinesOfOneOrder(ids, byId, first.orderNumber, "A confirmation covers");
  const at = now.toISOString();
  const planned = confirmation.lines.map((input, index) =>
    planLine(byId.get(input.lineId)!, input, confirmation, codeOfLine(confirmation.type, input, index), settings, index, at),
  );
  if (confirmation.type === "except") {
    // Every other open line of the vendor on the order is accepted as ordered.
    const named = new Set(ids);
    const promised = confirmation.promisedShipDate;
    for (const line of lines) {
      if (named.has(line.id) || !CONFIRMABLE.includes(line.status as LineStatus) || line.proposedChange) continue;
      if (!promised) throw invalid("promisedShipDate", 'Required for an "except" confirmation: the date the lines not listed ship.');
      planned.push(planLine(line, { lineId: line.id }, confirmation, codeOf("IA"), settings, planned.length, at));
    }
  }
  const changing = planned.filter((plan) => plan.changes.length > 0);
  if (changing.length === 0) {
    return {
      orderNumber: first.orderNumber,
      orderStatus: orderStatusOf(states),
      eventId: null,
      eventIds: [],
      lineIds: planned.map((p) => p.lineId),
    };
  }
  const statements: BatchItem<"sqlite">[] = changing.map((plan) =>
    db.update(orderLines).set(plan.set).where(eq(orderLines.id, plan.lineId)),
  );
  if (changing.some((plan) => plan.set.extendedPriceCents !== undefined)) statements.push(orderTotalUpkeep(db, first.orderId));
  const priced = new Map(
    changing.flatMap((plan) => (plan.set.priceCents === undefined ? [] : [[plan.lineId, { priceCents: plan.set.priceCents }]])),
  );
  const rematch = rematchAfter(db, invoicing, priced, at);
  const revisions: LineRevision[] = changing.map((plan) => ({
    lineId: plan.lineId,
    actor: "vendor",
    actorId: vendorId,
    code: plan.event.code,
    changes: plan.changes,
    note: plan.note,
  }));
  const outcome: ChangeOutcome = await commitOrderChange(db, {
    order: { id: first.orderId, tenantId: first.tenantId, orderNumber: first.orderNumber, version: first.version, lines: states },
    lineChanges: new Map(changing.map((plan) => [plan.lineId, { status: plan.status }])),
    statements: [...statements, ...rematch.statements],
    revisions,
    moreEvents: rematch.events,
    event: {
      type: "order.confirmed",
      payload: { type: confirmation.type, lines: changing.map((plan) => plan.event), at } satisfies Omit<
        EventData<"order.confirmed">,
        "orderNumber" | "status"
      >,
    },
    at: now,
  });
  return {
    orderNumber: first.orderNumber,
    orderStatus: outcome.status,
    eventId: outcome.eventId,
    eventIds: outcome.eventIds,
    lineIds: planned.map((p) => p.lineId),
  };
}
