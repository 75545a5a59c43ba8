import type { z } from "@hono/zod-openapi";
import { withCatalogKeys } from "../../shared/catalog/recall-keys";
import { emptyPart, type Scope } from "../../shared/recalls/code-info";
import { comparableDeviceKey } from "../../shared/recalls/identifiers";
import { hashed, type RecallInput, type RecallOwner, recallWrite, recallWrites } from "../../shared/recalls/records";
import type { FieldSafetyNoticeSchema } from "./schemas";

/**
 * A vendor's own field safety notice (docs/recalls.md, "A vendor's notice"): its devices, lots and serials are given as
 * data, so its scope is built from them, not read from text; its code_info is the same in words, for people. It is a
 * recall of the vendor's (owner `vendor:<id>`), keyed by the vendor's notice number: a second POST with the number
 * revises it, and the stores match the revision.
 */

export type Notice = z.output<typeof FieldSafetyNoticeSchema>;

export function noticeScope(notice: Notice): Scope {
  const scope: Scope = { ...emptyPart(), groups: [], deviceIdTypos: [], conditions: [], unread: [] };
  scope.deviceIds = [...new Set(notice.deviceIds.map(comparableDeviceKey))];
  scope.products = [...new Set(notice.partNumbers.map((pn) => pn.toUpperCase()))];
  scope.lots = notice.lots.map((lot) => ({ lot }));
  scope.serials = notice.serials;
  scope.serialRanges = notice.serialRanges;
  return scope;
}

/** The notice's scope in words: what the buyer's recall shows as its code_info. */
export function noticeText(notice: Notice): string {
  const list = (label: string, items: string[]) => (items.length > 0 ? [`${label}: ${items.join(", ")}`] : []);
  return [
    ...list("UDI-DI", notice.deviceIds),
    ...list("Part numbers", notice.partNumbers),
    ...(notice.lots.length > 0 ? list("Lots", notice.lots) : ["All lots"]),
    ...list("Serial numbers", notice.serials),
    ...list(
      "Serial ranges",
      notice.serialRanges.map((range) => `${range.from} to ${range.to}`),
    ),
  ].join("; ");
}

/**
 * The writes of a notice as the recall of `owner`: a vendor's (POST /vendor/api/recalls), or a sandbox store's (the
 * sandbox's recall scenario, src/api/sandbox/recall.ts). It is initiated today unless it says when.
 */
export async function noticeWrites(
  db: D1Database,
  catalog: D1Database,
  by: { owner: RecallOwner; vendorId: number | null; firm: string },
  notice: Notice,
  now: Date,
) {
  const today = now.toISOString().slice(0, 10);
  const input: RecallInput = {
    productNumber: notice.noticeNumber,
    eventId: null,
    classification: notice.classification,
    status: notice.status,
    firm: by.firm,
    productDescription: notice.productDescription,
    productCode: null,
    reason: notice.reason,
    codeInfo: noticeText(notice),
    initiatedOn: notice.initiatedOn ?? today,
    classifiedOn: null,
    terminatedOn: notice.status === "terminated" ? today : null,
    catalogNumbers: [],
    scope: noticeScope(notice),
  };
  const write = await hashed(recallWrite(by.owner, by.vendorId, input));
  return recallWrites(db, await withCatalogKeys(catalog, [write]), now);
}
