import { z } from "@hono/zod-openapi";
import { asc, inArray } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { orderLineRevisions, type ProposedChange, type StoredLineFieldChange } from "../../db/schema";
import { centsToText } from "../../platform/money";
import { moneyText } from "../../platform/schemas";
import { LINE_STATUSES } from "./lifecycle";

/**
 * What the buyer and the vendor read of a line's confirmations and changes (docs/api.md, "Confirmations"): the change
 * waiting for the buyer's answer, and the line's revisions (who changed what, when).
 */

export const PendingChangeSchema = z
  .object({
    code: z.string().openapi({ description: "The X12 855 code of the vendor's confirmation", example: "IP" }),
    unitPrice: z
      .string()
      .nullable()
      .openapi({ description: "The unit price proposed (a decimal string); null: unchanged", example: "125.00" }),
    quantity: z.number().int().nullable().openapi({ description: "The quantity proposed; null: unchanged" }),
    substitute: z
      .object({ partNumber: z.string(), description: z.string() })
      .nullable()
      .openapi({ description: "The product offered instead; null: none" }),
    promisedShipDate: z.iso.date().nullable(),
    contractPriceException: z.boolean().openapi({ description: "The price proposed is above the buyer's contract price for the line" }),
    note: z.string().nullable(),
    proposedAt: z.string().datetime(),
  })
  .openapi("PendingLineChange", { description: "A change of the line by its vendor that waits for the buyer's answer" });
type PendingChange = z.infer<typeof PendingChangeSchema>;

export function pendingChangeView(proposal: ProposedChange | null): PendingChange | null {
  if (!proposal) return null;
  return {
    code: proposal.code,
    unitPrice: proposal.priceCents === undefined ? null : centsToText(proposal.priceCents),
    quantity: proposal.quantity ?? null,
    substitute: proposal.substitute ?? null,
    promisedShipDate: proposal.promisedShipDate ?? null,
    contractPriceException: proposal.contractPriceException,
    note: proposal.note ?? null,
    proposedAt: proposal.proposedAt,
  };
}

const PROPOSED_CHANGE_EXAMPLE = {
  code: "IP",
  unitPrice: "21.50",
  quantity: null,
  substitute: null,
  promisedShipDate: "2026-12-01",
  contractPriceException: false,
  note: "Manufacturer increase",
  proposedAt: "2026-11-28T09:30:00.000Z",
};

/**
 * One field of a line a revision changed, typed by `field`: money as decimal strings (as everywhere in the API), a
 * proposal as `pendingChange` shows it. Stored in this form; rows written before it are read into it
 * (`lineFieldChangeView`).
 */
export const LineFieldChangeSchema = z
  .discriminatedUnion("field", [
    z.object({
      field: z.literal("price"),
      from: moneyText("The unit price before"),
      to: moneyText("The unit price after"),
    }),
    z.object({ field: z.enum(["quantity", "shippedQuantity"]), from: z.number().int(), to: z.number().int() }),
    z.object({ field: z.literal("status"), from: z.enum(LINE_STATUSES), to: z.enum(LINE_STATUSES) }),
    z.object({ field: z.enum(["promisedShipDate", "expectedShipDate"]), from: z.iso.date().nullable(), to: z.iso.date().nullable() }),
    z.object({
      field: z.enum(["confirmationCode", "statusReason", "partNumber", "description"]),
      from: z.string().nullable(),
      to: z.string().nullable(),
    }),
    z.object({
      field: z.literal("proposedChange"),
      from: PendingChangeSchema.nullable().openapi({ description: "The proposal waiting before; null: none" }),
      to: PendingChangeSchema.nullable().openapi({ description: "The proposal waiting after; null: none (answered or replaced)" }),
    }),
  ])
  .openapi("LineFieldChange", {
    description:
      "A field of the line, its value before and after: `price` as decimal strings, `proposedChange` as the line's `pendingChange` reads",
    example: { field: "price", from: "19.99", to: "21.50" },
  });
export type LineFieldChange = z.infer<typeof LineFieldChangeSchema>;
export type LineField = LineFieldChange["field"];
type ValueIn<Change, F> = Change extends { field: infer Fields; from: infer Value } ? (F extends Fields ? Value : never) : never;
export type FieldValue<F extends LineField> = ValueIn<LineFieldChange, F>;

/** The field's change when its value changed, else none: a revision lists only what changed. */
export function changeOf<F extends LineField>(field: F, from: FieldValue<F>, to: FieldValue<F>): LineFieldChange[] {
  return from === to ? [] : [{ field, from, to } as LineFieldChange];
}

/** A unit price change, from integer cents to the decimal strings a revision shows. */
export const priceChange = (fromCents: number, toCents: number): LineFieldChange[] =>
  changeOf("price", centsToText(fromCents), centsToText(toCents));

/** The proposal waiting for the buyer replaced (or answered: `to` null), as the buyer reads proposals. */
export const proposalChange = (from: ProposedChange | null, to: ProposedChange | null): LineFieldChange => ({
  field: "proposedChange",
  from: pendingChangeView(from),
  to: pendingChangeView(to),
});

/**
 * A stored change as the API shows it. Rows written before the typed form hold a proposal as its JSON text
 * (`priceCents` inside) and a repair's approved price as `priceCents` in integer cents: both are read into the form.
 */
export function lineFieldChangeView(stored: StoredLineFieldChange): LineFieldChange {
  if (stored.field === "priceCents") {
    return { field: "price", from: centsToText(Number(stored.from)), to: centsToText(Number(stored.to)) };
  }
  if (stored.field === "proposedChange")
    return { field: "proposedChange", from: storedProposal(stored.from), to: storedProposal(stored.to) };
  return stored as LineFieldChange;
}

const storedProposal = (value: unknown) =>
  typeof value === "string" ? pendingChangeView(JSON.parse(value) as ProposedChange) : (value as PendingChange | null);

export const LineRevisionSchema = z
  .object({
    lineId: z.number().int(),
    revision: z.number().int().openapi({ description: "1, 2, ... per line; the line as ordered is revision 0" }),
    actor: z.enum(["vendor", "buyer", "system"]),
    actorId: z.number().int().nullable().openapi({ description: "The vendor's id for a vendor's change" }),
    code: z.string().openapi({
      description: "The X12 855 code of a confirmation, or the move or decision: acknowledge, ship, cancel, accept-change...",
      example: "IP",
    }),
    changes: z.array(LineFieldChangeSchema),
    note: z.string().nullable(),
    at: z.string().datetime(),
  })
  .openapi("LineRevision", {
    description: "A change of a line: who made it, and each field's value before and after",
    example: {
      lineId: 100001,
      revision: 1,
      actor: "vendor",
      actorId: 4,
      code: "IP",
      changes: [
        { field: "confirmationCode", from: null, to: "IP" },
        { field: "proposedChange", from: null, to: PROPOSED_CHANGE_EXAMPLE },
      ],
      note: "Manufacturer increase",
      at: "2026-11-28T09:30:00.000Z",
    },
  });

type StoredRevision = Omit<z.infer<typeof LineRevisionSchema>, "changes"> & { changes: StoredLineFieldChange[] };

/** A stored revision as the API shows it (its changes read into the typed form). */
export const revisionView = ({ changes, ...revision }: StoredRevision) => ({ ...revision, changes: changes.map(lineFieldChangeView) });

/** The revisions of the lines of the orders `pageIds` selects, oldest first per line (for a page's batch). */
export function revisionsQuery(db: Database, pageIds: SQLiteSelect) {
  return db
    .select({
      orderId: orderLineRevisions.orderId,
      lineId: orderLineRevisions.lineId,
      revision: orderLineRevisions.revision,
      actor: orderLineRevisions.actor,
      actorId: orderLineRevisions.actorId,
      code: orderLineRevisions.code,
      changes: orderLineRevisions.changes,
      note: orderLineRevisions.note,
      at: orderLineRevisions.at,
    })
    .from(orderLineRevisions)
    .where(inArray(orderLineRevisions.orderId, pageIds))
    .orderBy(asc(orderLineRevisions.orderId), asc(orderLineRevisions.lineId), asc(orderLineRevisions.revision));
}
