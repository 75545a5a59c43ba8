import { z } from "@hono/zod-openapi";
import { asc, inArray } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { orderLineRevisions, type ProposedChange } from "../../db/schema";
import { centsToText } from "../../platform/money";

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

export function pendingChangeView(proposal: ProposedChange | null): z.infer<typeof PendingChangeSchema> | null {
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
    changes: z.array(
      z.object({
        field: z.string(),
        from: z.union([z.string(), z.number()]).nullable(),
        to: z.union([z.string(), z.number()]).nullable(),
      }),
    ),
    note: z.string().nullable(),
    at: z.string().datetime(),
  })
  .openapi("LineRevision");

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
