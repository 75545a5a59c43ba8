import { listedErrors } from "../../../platform/errors";
import { sha256Hex } from "../../../platform/sha256";
import { apiErrors } from "../../procurement/api";
import { type MappedSet, mapInboundGroup } from "../mapping/inbound-sets";
import type { OfferDefaults, PriceFileRow } from "../mapping/price-catalog";
import type { Partner } from "../partners/schemas";
import type { FunctionalGroup } from "../x12/document";
import { element } from "../x12/elements";
import type { VendorApi } from "./vendor-api";

/**
 * A partner's functional group applied through the vendor API, as the vendor (issue 67): each set mapped
 * (../mapping/inbound-sets.ts) and its request(s) sent, so that an 855, 856, 810 or 832 goes through the same rules as
 * the vendor's own calls. Per set:
 * - `applied`: the API took every request of the set (2xx); for an 832, its price file job was started (`job`);
 * - `refused`: the mapping refused the set or part of it, or the API answered a 4xx; `messages` say what (the API's
 *   own messages). What did take effect stays: an 856's other parcels shipped, an 855's lines confirmed, an 832's other
 *   rows (an 856's parcel, its items of one order, is shipped all or nothing: POST /vendor/api/shipments);
 * - `retry`: a 5xx, a 429, a 409 the API asks to retry (`order-changed`, another price file under way) or a network
 *   failure. The caller applies the whole group again later: every call here is idempotent by its effect (a move in
 *   place answers 200 and writes nothing, a confirmation is compared with the one in place or pending, an invoice is
 *   keyed by its number and content, a credit memo too, an 832's job is found again by its file's name), so what was applied before the
 *   failure is not applied twice.
 * Acknowledgment groups (FA: 997, 999) are the caller's (they answer our 850s); mapInboundGroup refuses their sets.
 */

/** checked: a test partner's set, mapped and not applied (checkInboundGroup). */
export type ApplyOutcome = "applied" | "checked" | "refused" | "retry";

export interface AppliedSet {
  set: string;
  controlNumber: string;
  outcome: ApplyOutcome;
  messages: string[];
  /** An 832: the price file job started (`/vendor/api/offer-imports/{job}`: its progress and rejected rows). */
  job?: string;
}

type Sent = { kind: "ok"; body: unknown } | { kind: "refused" | "retry"; messages: string[]; type?: string; body?: unknown };

/** 409 problems the API asks to retry (the request changed nothing). */
const RETRYABLE_CONFLICTS = ["/order-changed"];

/** One request to the vendor API, its answer classified. */
async function send(
  api: VendorApi,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
  { conflictIsRetry = false }: { conflictIsRetry?: boolean } = {},
): Promise<Sent> {
  let answer: Awaited<ReturnType<VendorApi>>;
  try {
    answer = await api(method, path, body);
  } catch (error) {
    return { kind: "retry", messages: [`${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: "ok", body: answer.body };
  const messages = apiErrors(answer.body);
  const said = messages.length > 0 ? messages : [`${method} ${path} answered ${status}.`];
  const type = String((answer.body as { type?: unknown } | null)?.type ?? "");
  const retry =
    status >= 500 || status === 429 || (status === 409 && (conflictIsRetry || RETRYABLE_CONFLICTS.some((slug) => type.endsWith(slug))));
  return { kind: retry ? "retry" : "refused", messages: said, type, body: answer.body };
}

const problemsOf = (problems: { segment: string; message: string }[]) =>
  problems.map((problem) => `${problem.segment}: ${problem.message}`);

/** The outcome of a set whose requests ended so, with the mapping's own problems (a part it could not map). */
function outcomeOf(mapped: MappedSet, sent: Sent[], mappingProblems: string[], extra: Partial<AppliedSet> = {}): AppliedSet {
  const messages = [...mappingProblems, ...sent.flatMap((s) => (s.kind === "ok" ? [] : s.messages))];
  const outcome: ApplyOutcome = sent.some((s) => s.kind === "retry")
    ? "retry"
    : sent.some((s) => s.kind === "refused") || mappingProblems.length > 0
      ? "refused"
      : "applied";
  return { set: mapped.set, controlNumber: mapped.controlNumber, outcome, messages, ...extra };
}

export async function applyInboundGroup(
  api: VendorApi,
  partner: Pick<Partner, "documents">,
  group: FunctionalGroup,
  offerDefaults: OfferDefaults,
): Promise<AppliedSet[]> {
  const results: AppliedSet[] = [];
  for (const mapped of mapInboundGroup(group, partner, offerDefaults)) results.push(await applySet(api, group, mapped));
  return results;
}

async function applySet(api: VendorApi, group: FunctionalGroup, mapped: MappedSet): Promise<AppliedSet> {
  const refused = (messages: string[]): AppliedSet => ({
    set: mapped.set,
    controlNumber: mapped.controlNumber,
    outcome: "refused",
    messages,
  });
  if ("refused" in mapped) return refused([mapped.refused]);
  if ("confirmation" in mapped) {
    const { request, problems } = mapped.confirmation;
    // The lines the mapping read are confirmed; a line it could not read is named (the partner sends it again, fixed).
    if (request.lines.length === 0) return refused(problems.length > 0 ? problemsOf(problems) : ["The 855 confirms no line."]);
    let sent = await send(api, "POST", "/order-confirmations", request);
    // Applied before, and the lines have moved on since (shipped): the API no longer confirms them, but this is in effect.
    if (sent.kind === "refused" && sent.type?.endsWith("/line-not-confirmable") && (await confirmedAlready(api, request.lines))) {
      sent = { kind: "ok", body: null };
    }
    return outcomeOf(mapped, [sent], problemsOf(problems));
  }
  if ("shipNotice" in mapped) {
    const { items, problems, shipmentId } = mapped.shipNotice;
    if (items.length === 0) return refused(problems.length > 0 ? problemsOf(problems) : ["The 856 ships no item."]);
    // One request per parcel of an order (POST /vendor/api/shipments): one commit for its items, all or nothing.
    const sent: Sent[] = [];
    for (const parcel of parcelsOf(items)) {
      sent.push(...(await sendParcel(api, parcel, shipmentId)));
      if (sent.some((s) => s.kind === "retry")) break; // the group is applied again, these items with it
    }
    return outcomeOf(mapped, sent, problemsOf(problems));
  }
  if ("invoice" in mapped) {
    const { invoice } = mapped;
    // An invoice is one document: one the mapping could not read whole (its total, a line) is not sent in part.
    if (invoice.problems.length > 0) return refused(problemsOf(invoice.problems));
    // A credit memo names its invoice by the vendor's numbers (BIG04, REF*OI or REF*IV) and its lines by order line.
    const path = invoice.kind === "credit-memo" ? "/credit-memos" : "/invoices";
    return outcomeOf(mapped, [await send(api, "POST", path, invoice.request)], []);
  }
  return applyPriceFile(api, group, mapped);
}

/** Lines per POST /vendor/api/shipments (MAX_SHIPMENT_LINES of src/api/vendors/shipments.ts). */
const SHIPMENT_LINES = 200;

type ShipItem = Extract<MappedSet, { shipNotice: unknown }>["shipNotice"]["items"][number];

interface Parcel {
  trackingNumber: string;
  carrierName?: string;
  shippedAt?: string;
  lines: { lineId: number; quantity: number; units?: string[] }[];
}

/**
 * The 856's items as shipments: those of one order level (HL O) in one parcel (tracking number, carrier and time) make
 * one, by at most SHIPMENT_LINES lines; a line listed twice in a parcel (two lots of it, say) is one line of it, its
 * quantities added and its units together.
 */
function parcelsOf(items: readonly ShipItem[]): Parcel[] {
  const parcels = new Map<string, Parcel>();
  for (const { lineId, order, request } of items) {
    const key = JSON.stringify([order, request.trackingNumber, request.carrierName ?? null, request.shippedAt ?? null]);
    let parcel = parcels.get(key);
    if (!parcel) {
      parcel = {
        trackingNumber: request.trackingNumber,
        ...(request.carrierName ? { carrierName: request.carrierName } : {}),
        ...(request.shippedAt ? { shippedAt: request.shippedAt } : {}),
        lines: [],
      };
      parcels.set(key, parcel);
    }
    const line = parcel.lines.find((l) => l.lineId === lineId);
    if (!line) parcel.lines.push({ lineId, quantity: request.quantity, ...(request.units ? { units: [...request.units] } : {}) });
    else {
      line.quantity += request.quantity;
      if (request.units) line.units = [...(line.units ?? []), ...request.units];
    }
  }
  return [...parcels.values()].flatMap((parcel) =>
    Array.from({ length: Math.ceil(parcel.lines.length / SHIPMENT_LINES) }, (_, i) => ({
      ...parcel,
      lines: parcel.lines.slice(i * SHIPMENT_LINES, (i + 1) * SHIPMENT_LINES),
    })),
  );
}

/**
 * A parcel sent; its refusal's messages each name the item (`Line 123 of shipment ASN-1: quantity: ...`) or the
 * shipment. An order level whose lines are not all of one order (the API's 422) is sent line by line instead: each line
 * is then its own order's parcel.
 */
async function sendParcel(api: VendorApi, parcel: Parcel, shipmentId: string): Promise<Sent[]> {
  const answer = await send(api, "POST", "/shipments", parcel);
  if (answer.kind === "refused" && answer.type?.endsWith("/lines-of-several-orders") && parcel.lines.length > 1) {
    const sent: Sent[] = [];
    for (const line of parcel.lines) {
      sent.push(...(await sendParcel(api, { ...parcel, lines: [line] }, shipmentId)));
      if (sent.at(-1)!.kind === "retry") break;
    }
    return sent;
  }
  if (answer.kind === "ok") return [answer];
  return [{ ...answer, messages: parcelMessages(answer, parcel, shipmentId) }];
}

function parcelMessages(answer: Extract<Sent, { kind: "refused" | "retry" }>, parcel: Parcel, shipmentId: string): string[] {
  const body = answer.body as { detail?: unknown; errors?: unknown } | null | undefined;
  const ofShipment = (message: string) => `Shipment ${shipmentId} (${parcel.trackingNumber}): ${message}`;
  const fieldErrors = listedErrors(body?.errors).filter((entry) => entry.field !== undefined);
  if (fieldErrors.length > 0) {
    // A 400: each field named `lines[i].field` is the item's.
    return fieldErrors.map(({ field, detail }) => {
      const item = /^lines\[(\d+)\]\.?(.*)$/.exec(field!);
      const line = item ? parcel.lines[Number(item[1])] : undefined;
      if (!line) return ofShipment(`${field}: ${detail}`);
      return `Line ${line.lineId} of shipment ${shipmentId}: ${item![2] ? `${item![2]}: ` : ""}${detail}`;
    });
  }
  // A problem (a line that cannot ship now, the order changed): its detail names the line.
  return typeof body?.detail === "string" ? [ofShipment(body.detail)] : answer.messages.map(ofShipment);
}

/** Whether each line already carries the code this confirmation gives it (a retry after the line moved on). */
async function confirmedAlready(api: VendorApi, lines: { lineId: number; code: string }[]): Promise<boolean> {
  for (const { lineId, code } of lines) {
    const read = await send(api, "GET", `/order-lines/${lineId}`);
    if (read.kind !== "ok" || (read.body as { data?: { confirmationCode?: unknown } } | null)?.data?.confirmationCode !== code)
      return false;
  }
  return true;
}

const OFFER_IMPORTS = "/offer-imports";

interface Job {
  id: string;
  state: string;
  format: string;
  files?: { name: string; uploaded: boolean }[];
}

/**
 * An 832 as a price file job: created, its rows uploaded as NDJSON (one offer batch row a line), started; the valid
 * rows are applied and the others listed as the job's rejected rows (`skipFailedRows`: a catalog of thousands of lines
 * is not refused for one). The job is named by its file: offer-imports takes no Idempotency-Key, so the file's name
 * carries the group's date, time and control number, the set's and a digest of the rows, and a retry finds among the
 * vendor's latest jobs the one it created (started: applied; not yet: uploaded and started) instead of a second.
 */
async function applyPriceFile(
  api: VendorApi,
  group: FunctionalGroup,
  mapped: Extract<MappedSet, { priceFile: unknown }>,
): Promise<AppliedSet> {
  const { rows, problems } = mapped.priceFile;
  const mappingProblems = problemsOf(problems);
  if (rows.length === 0) {
    return outcomeOf(mapped, [], mappingProblems.length > 0 ? mappingProblems : ["The 832 prices no item."]);
  }
  const file = `${rows.map((row: PriceFileRow) => JSON.stringify(row)).join("\n")}\n`;
  const name = await priceFileName(group, mapped.controlNumber, file);
  const found = await findJob(api, name);
  if (found.kind !== "ok") return outcomeOf(mapped, [found], mappingProblems);
  let job = found.body as Job | null;
  if (job && job.state !== "awaiting_upload") return outcomeOf(mapped, [], mappingProblems, { job: job.id });
  if (!job) {
    const created = await send(api, "POST", OFFER_IMPORTS, { format: "ndjson", onError: "skipFailedRows" });
    if (created.kind !== "ok") return outcomeOf(mapped, [created], mappingProblems);
    job = (created.body as { data: Job }).data;
  }
  if (!job.files?.some((f) => f.name === name && f.uploaded)) {
    const uploaded = await send(api, "PUT", `${OFFER_IMPORTS}/${job.id}/files/${name}`, new TextEncoder().encode(file));
    if (uploaded.kind !== "ok") return outcomeOf(mapped, [uploaded], mappingProblems, { job: job.id });
  }
  // Another price file of the vendor under way is a 409 to wait for: the group is applied again later.
  const started = await send(api, "POST", `${OFFER_IMPORTS}/${job.id}/start`, undefined, { conflictIsRetry: true });
  return outcomeOf(mapped, [started], mappingProblems, { job: job.id });
}

/** The price file's name: the group's GS04, GS05 and GS06, the set's ST02 and the rows' digest (letters, digits, dashes). */
async function priceFileName(group: FunctionalGroup, setControl: string, file: string): Promise<string> {
  const plain = (text: string) => text.replace(/[^A-Za-z0-9]/g, "").slice(0, 14);
  const digest = (await sha256Hex(file)).slice(0, 16);
  return `x12-832-${plain(element(group.header, 4))}${plain(element(group.header, 5))}-${plain(group.controlNumber)}-${plain(setControl)}-${digest}.ndjson`;
}

/** How many of the vendor's latest price file jobs a retry looks through for the one it created. */
const JOBS_LOOKED_AT = 20;

/** The vendor's job holding the file of this name, among its latest that are not cancelled; null when none. */
async function findJob(api: VendorApi, name: string): Promise<Sent> {
  const listed = await send(api, "GET", `${OFFER_IMPORTS}?limit=${JOBS_LOOKED_AT}`);
  if (listed.kind !== "ok") return listed;
  const jobs = (listed.body as { data: { items: Job[] } }).data.items.filter((job) => job.format === "ndjson" && job.state !== "cancelled");
  for (const { id } of jobs) {
    const read = await send(api, "GET", `${OFFER_IMPORTS}/${id}`);
    if (read.kind !== "ok") return read;
    const job = (read.body as { data: Job }).data;
    if (job.files?.some((file) => file.name === name)) return { kind: "ok", body: job };
  }
  return { kind: "ok", body: null };
}

/**
 * A test partner's group (ISA15 `T`), checked and never applied: each set mapped, `checked` when the mapping read all
 * of it, `refused` naming what it could not. Test interchanges are for a supplier's EDI team to try its documents
 * against Medparts; applied, they would move live orders' lines (the vendor API serves live orders only).
 */
export function checkInboundGroup(partner: Pick<Partner, "documents">, group: FunctionalGroup, offerDefaults: OfferDefaults): AppliedSet[] {
  return mapInboundGroup(group, partner, offerDefaults).map((mapped): AppliedSet => {
    const problems =
      "refused" in mapped
        ? [mapped.refused]
        : "confirmation" in mapped
          ? problemsOf(mapped.confirmation.problems)
          : "shipNotice" in mapped
            ? problemsOf(mapped.shipNotice.problems)
            : "invoice" in mapped
              ? problemsOf(mapped.invoice.problems)
              : problemsOf(mapped.priceFile.problems);
    return {
      set: mapped.set,
      controlNumber: mapped.controlNumber,
      outcome: problems.length > 0 ? "refused" : "checked",
      messages: problems,
    };
  });
}
