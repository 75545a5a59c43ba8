import { listedErrors } from "../../platform/errors";
import { vendorApi } from "../edi/apply/vendor-api";
import type { EdiBindings } from "../edi/bindings";
import type { ApiAnswer } from "../procurement/api";
import { countOrText } from "./forms";

/**
 * The desk's work through the vendor API (docs/desk.md, "Acting as the vendor"): each request as the signed-in user,
 * with a short-lived token of the vendor's desk client scoped to the user's role (src/shared/auth/desk-tokens.ts), so
 * the vendor API's own rules, scopes and tenant isolation apply; none is redone here.
 */

export interface DeskLine {
  lineId: number;
  orderNumber: string;
  lineNumber: number;
  orderDate: string;
  statusName: string;
  partNumber: string;
  description: string;
  quantity: number;
  shippedQuantity: number;
  price: number;
  poNumber: string | null;
  promisedShipDate: string | null;
  expectedShipDate: string | null;
  statusReason: string | null;
  confirmationCode: string | null;
  /** A change the vendor proposed (a confirmation code's) that waits for the buyer's answer. */
  pendingChange: { code: string } | null;
  /** Its returns whose next step is the vendor's, and its invoices in exception. */
  returnsToReceive: number;
  invoicesInException: number;
  shipTo: { city: string; state: string; country: string };
}

/** The worklist's states, each a line status of the vendor API. */
export const WORK_STATES = [
  { status: "Ordered", label: "To confirm" },
  { status: "Backordered", label: "Backordered" },
  { status: "Acknowledged", label: "To ship" },
  { status: "Shipped", label: "In transit" },
] as const;
export type WorkStatus = (typeof WORK_STATES)[number]["status"];

/** The worklist's lists of what else waits for the vendor: the vendor API's `attention` lists, in any line state. */
export const ATTENTION_LISTS = [
  { attention: "returns", label: "Returns to receive" },
  { attention: "invoices", label: "Invoices in exception" },
] as const;
export type AttentionList = (typeof ATTENTION_LISTS)[number]["attention"];
export type WorkCounts = Record<WorkStatus | AttentionList, number>;

export const PAGE_SIZE = 25;

export class DeskSignedOut extends Error {}

export async function deskApi(env: EdiBindings, userId: number) {
  const issued = await env.PARTNER_TOKENS.deskToken(userId);
  if (!issued) throw new DeskSignedOut("The desk cannot act for this user (user, vendor or desk client disabled).");
  return vendorApi(env, issued.token);
}

export type DeskApi = Awaited<ReturnType<typeof deskApi>>;
type Api = DeskApi;
type Listed = ApiAnswer<{ data?: { lines: DeskLine[]; pagination: { total: number } } }>;

/** The worklist's filter: line states, or one of the attention lists; and an order number. */
export type WorkFilter =
  | { statuses: readonly string[]; orderNumber?: string | undefined; q?: string | undefined }
  | { attention: AttentionList };

const listPath = (filter: WorkFilter, limit: number, offset: number) =>
  `/order-lines?${new URLSearchParams({
    ...("attention" in filter
      ? { attention: filter.attention }
      : {
          status: filter.statuses.join(","),
          ...(filter.orderNumber ? { orderNumber: filter.orderNumber } : {}),
          ...(filter.q ? { q: filter.q } : {}),
        }),
    limit: String(limit),
    offset: String(offset),
  })}`;

/** How many of the vendor's lines are in each state and each attention list (one request each, at once). */
export async function stateCounts(api: Api): Promise<WorkCounts> {
  const filters: [WorkStatus | AttentionList, WorkFilter][] = [
    ...WORK_STATES.map(({ status }): [WorkStatus, WorkFilter] => [status, { statuses: [status] }]),
    ...ATTENTION_LISTS.map(({ attention }): [AttentionList, WorkFilter] => [attention, { attention }]),
  ];
  const answers = await Promise.all(filters.map(([, filter]) => api("GET", listPath(filter, 1, 0)) as Promise<Listed>));
  return Object.fromEntries(filters.map(([name], i) => [name, answers[i]!.body.data?.pagination.total ?? 0])) as WorkCounts;
}

/**
 * A page of the vendor's lines in `statuses`, newest first: the vendor API lists oldest first, so the page is read from
 * the end (its total known from a first request) and reversed. `page` 0 is the newest.
 */
export async function worklistPage(api: Api, filter: WorkFilter, page: number) {
  const first = (await api("GET", listPath(filter, 1, 0))) as Listed & ApiAnswer<{ detail?: string; errors?: unknown }>;
  if (first.status !== 200 || !first.body.data) {
    return { lines: [] as DeskLine[], total: 0, error: first.status, detail: outcomeOf(first).detail };
  }
  const total = first.body.data.pagination.total;
  const end = Math.max(0, total - page * PAGE_SIZE);
  const offset = Math.max(0, end - PAGE_SIZE);
  if (end === 0) return { lines: [], total, error: null, detail: null };
  const listed = (await api("GET", listPath(filter, end - offset, offset))) as Listed;
  return {
    lines: [...(listed.body.data?.lines ?? [])].reverse(),
    total,
    error: listed.status === 200 ? null : listed.status,
    detail: null as string | null,
  };
}

/** Every line status, for an order's page: its closed lines too (listed for the vendor API's retention). */
const ANY_STATUS = "Ordered,Acknowledged,Backordered,Shipped,Delivered,Cancelled,Rejected";
const ORDER_PAGE_LIMIT = 100;

/** How many of an order's lines its page reads again by id: a subrequest each. */
const FRESH_LINES = 40;

/**
 * The vendor's lines of one order, by line number, as they are now (null when the vendor API refuses the order
 * number). A line its projection has not shown yet (seconds after the order) is not among them.
 */
export async function orderLinesOf(api: Api, orderNumber: string): Promise<DeskLine[] | null> {
  const lines: DeskLine[] = [];
  for (let offset = 0; ; offset += ORDER_PAGE_LIMIT) {
    const listed = (await api("GET", listPath({ statuses: [ANY_STATUS], orderNumber }, ORDER_PAGE_LIMIT, offset))) as Listed;
    if (listed.status !== 200 || !listed.body.data) return null;
    lines.push(...listed.body.data.lines);
    if (lines.length >= listed.body.data.pagination.total || listed.body.data.lines.length === 0) break;
  }
  // The list is the vendor's projection, seconds behind a move; each line read again by id (its store) is current.
  const current = await Promise.all(lines.slice(0, FRESH_LINES).map((line) => lineOf(api, line.lineId)));
  const fresh = [...current.filter((line): line is DeskLine => line !== null), ...lines.slice(FRESH_LINES)];
  return fresh.sort((a, b) => a.lineNumber - b.lineNumber);
}

export async function lineOf(api: Api, lineId: number): Promise<DeskLine | null> {
  const answer = (await api("GET", `/order-lines/${lineId}`)) as ApiAnswer<{ data?: DeskLine }>;
  return answer.status === 200 && answer.body.data ? answer.body.data : null;
}

export const LINE_ACTIONS = ["acknowledge", "backorder", "reject", "ship"] as const;
export type LineAction = (typeof LINE_ACTIONS)[number];

/**
 * A line confirmed with any X12 855 code and what it proposes (the vendor API's POST /order-confirmations, type
 * detail, one line); its answer as moveLine's.
 */
export async function confirmLine(api: Api, lineId: number, line: Record<string, unknown>) {
  const answer = (await api(
    "POST",
    "/order-confirmations",
    { type: "detail", lines: [{ lineId, ...line }] },
    {
      "Idempotency-Key": crypto.randomUUID(),
    },
  )) as ApiAnswer<{ detail?: string; errors?: unknown }>;
  return outcomeOf(answer);
}

export function outcomeOf(answer: ApiAnswer<{ detail?: string; errors?: unknown }>) {
  const ok = answer.status >= 200 && answer.status < 300;
  // A 204 has no body.
  const body = answer.body ?? {};
  const errors = listedErrors(body.errors).map((entry) => entry.detail);
  return { ok, status: answer.status, detail: ok ? null : [body.detail, ...errors].filter(Boolean).join(" ") };
}

/**
 * The codes a scan field holds: a keyboard-wedge scanner types each label and an Enter, so one code a line; blank lines
 * and surrounding spaces dropped. The vendor API reads them with scan to order's parser (GS1, HIBCC, ISBT 128).
 */
export const scannedCodes = (field: string) =>
  field
    .split(/\r?\n/)
    .map((code) => code.trim())
    .filter((code) => code.length > 0);

/** A move of a line (the vendor API's POST /order-lines/{id}/{action}); its answer's status and problem detail. */
export async function moveLine(api: Api, lineId: number, action: LineAction, body: Record<string, unknown>) {
  const answer = (await api("POST", `/order-lines/${lineId}/${action}`, body, { "Idempotency-Key": crypto.randomUUID() })) as ApiAnswer<{
    detail?: string;
    errors?: unknown;
  }>;
  return outcomeOf(answer);
}

/** A line a parcel can still take: confirmed or backordered, or shipped in part. */
export const canShip = (line: DeskLine) =>
  line.statusName === "Acknowledged" ||
  line.statusName === "Backordered" ||
  (line.statusName === "Shipped" && line.shippedQuantity < line.quantity);

/** A parcel form's field of a line: `parcel-{lineId}-{what}`. */
export const parcelField = (lineId: number, what: "in" | "quantity" | "units") => `parcel-${lineId}-${what}`;

/**
 * A parcel of several of an order's lines (the vendor API's POST /shipments): the ticked lines, each with its quantity
 * (blank: all that remains) and its scanned units; null when no line is ticked.
 */
export function parcelBody(lines: DeskLine[], field: (name: string) => string): Record<string, unknown> | null {
  const ticked = lines.filter((line) => field(parcelField(line.lineId, "in")) === "on");
  if (ticked.length === 0) return null;
  return {
    trackingNumber: field("trackingNumber"),
    ...(field("carrierName") ? { carrierName: field("carrierName") } : {}),
    lines: ticked.map((line) => {
      const quantity = field(parcelField(line.lineId, "quantity"));
      const units = scannedCodes(field(parcelField(line.lineId, "units")));
      return {
        lineId: line.lineId,
        ...(quantity ? { quantity: countOrText(quantity) } : {}),
        ...(units.length > 0 ? { units } : {}),
      };
    }),
  };
}

export async function shipParcel(api: Api, body: Record<string, unknown>) {
  const answer = (await api("POST", "/shipments", body, { "Idempotency-Key": crypto.randomUUID() })) as ApiAnswer<{
    detail?: string;
    errors?: unknown;
  }>;
  return outcomeOf(answer);
}
