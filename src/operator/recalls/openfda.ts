import type { RecallClass, RecallStatusName } from "../../shared/recalls/records";

/**
 * FDA device recall records as openFDA publishes them (docs/recalls.md, "Recall records"), read into one shape:
 * `device/enforcement` (the weekly enforcement report: classification, status, dates YYYYMMDD), `device/recall` (the
 * recall database: status text, dates YYYY-MM-DD), and the pre-2012 RES format (hyphenated keys, the number inside
 * the product description). A record is keyed by the FDA product number (`Z-NNNN-YYYY`), not by its event: one event
 * recalls many products.
 */

export interface RecallRecord {
  productNumber: string;
  eventId: string | null;
  source: "enforcement" | "recall" | "legacy";
  classification: RecallClass | null;
  status: RecallStatusName;
  firm: string | null;
  productDescription: string | null;
  productCode: string | null;
  /** code_info, with more_code_info after it when the record has one. */
  codeInfo: string;
  reason: string | null;
  initiatedOn: string | null;
  classifiedOn: string | null;
  terminatedOn: string | null;
  /** Catalog, REF, part and model numbers the product description names (code_info often lacks them). */
  catalogNumbers: string[];
}

export type ReadRecall = { record: RecallRecord } | { errors: string[] };

const PRODUCT_NUMBER = /^Z-\d{4}-\d{2}(?:\d{2})?$/;

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" && !/^n\/?a$/i.test(value.trim()) ? value.trim() : null;

/** An openFDA date, YYYYMMDD or YYYY-MM-DD, as YYYY-MM-DD; null when absent; undefined when not a date. */
function fdaDate(value: unknown): string | null | undefined {
  const raw = text(value);
  if (raw === null) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw);
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  return Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) || new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso ? undefined : iso;
}

const CATALOG_NUMBER =
  /\b(?:REF|Catalog(?:ue)?\s*(?:No\.?|Number|#)?|Cat\.?\s*(?:No\.?|#)?|P\/N|Part\s*(?:No\.?|Number|#)|Model\s*(?:No\.?|Number|#)?|Item\s*(?:No\.?|Number|#))\s*[:.]?\s*([A-Z0-9][A-Z0-9.\-/]*\d[A-Z0-9.-]*)/gi;

/** The catalog, REF, part and model numbers a product description names, as written (a trailing period dropped). */
export function catalogNumbersOf(description: string | null): string[] {
  if (!description) return [];
  const found = [...description.matchAll(CATALOG_NUMBER)].map((m) => m[1]!.replace(/[.\-/]+$/, ""));
  return [...new Set(found)];
}

const CLASSES: Record<string, RecallClass> = { "CLASS I": "Class I", "CLASS II": "Class II", "CLASS III": "Class III" };

function statusOf(status: string | null, terminatedOn: string | null): RecallStatusName | undefined {
  if (terminatedOn) return "terminated";
  if (status === null) return "open";
  const s = status.toLowerCase();
  if (s.includes("terminated")) return "terminated";
  if (s.includes("completed")) return "completed";
  if (s.includes("ongoing") || s.includes("open") || s.includes("classified")) return "open";
  return undefined;
}

/** One record of any of the three shapes; the errors name its fields. */
export function readRecall(raw: unknown): ReadRecall {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { errors: ["record: must be a JSON object"] };
  const r = raw as Record<string, unknown>;
  const legacy = "code-info" in r || "product-description" in r;
  const source = legacy ? "legacy" : "product_res_number" in r ? "recall" : "enforcement";
  const field = (name: string) => text(r[legacy ? name.replaceAll("_", "-") : name]);
  const errors: string[] = [];
  const description = field("product_description");
  const productNumber =
    source === "legacy"
      ? (/\bZ-\d{4}-\d{2}(?:\d{2})?\b/.exec(`${description ?? ""} ${field("recall_number") ?? ""}`)?.[0] ?? null)
      : field(source === "recall" ? "product_res_number" : "recall_number");
  if (!productNumber || !PRODUCT_NUMBER.test(productNumber)) {
    errors.push(`${source === "recall" ? "product_res_number" : "recall_number"}: a product number Z-NNNN-YYYY is required`);
  }
  const dates = {
    initiatedOn: fdaDate(r[source === "recall" ? "event_date_initiated" : "recall_initiation_date"]),
    classifiedOn: fdaDate(r[source === "recall" ? "event_date_posted" : "center_classification_date"]),
    terminatedOn: fdaDate(r[source === "recall" ? "event_date_terminated" : "termination_date"]),
  };
  for (const [name, value] of Object.entries(dates)) if (value === undefined) errors.push(`${name}: not a date (YYYYMMDD or YYYY-MM-DD)`);
  const classText = field("classification");
  const classification = classText === null ? null : (CLASSES[classText.toUpperCase()] ?? undefined);
  if (classification === undefined) errors.push(`classification: ${classText} is none of Class I, Class II, Class III`);
  const status = statusOf(field(source === "recall" ? "recall_status" : "status"), dates.terminatedOn ?? null);
  if (status === undefined) errors.push(`status: ${field("status") ?? field("recall_status")} is not a recall status`);
  const codeInfo = [field("code_info"), field("more_code_info")].filter((part): part is string => part !== null).join(" ");
  if (errors.length > 0) return { errors };
  return {
    record: {
      productNumber: productNumber!,
      eventId: field(source === "recall" ? "res_event_number" : "event_id"),
      source,
      classification: classification ?? null,
      status: status!,
      firm: field("recalling_firm"),
      productDescription: description,
      productCode: field("product_code"),
      codeInfo,
      reason: field(source === "recall" ? "root_cause_description" : "reason_for_recall"),
      initiatedOn: dates.initiatedOn ?? null,
      classifiedOn: dates.classifiedOn ?? null,
      terminatedOn: dates.terminatedOn ?? null,
      catalogNumbers: catalogNumbersOf(description),
    },
  };
}

/**
 * The records of a file: an openFDA answer or bulk download (`{ meta, results: [...] }`), one record (`{ result }`,
 * `{ record }`, or the record itself), or an array of records.
 */
export function recordsOf(file: unknown): unknown[] {
  if (Array.isArray(file)) return file;
  if (file && typeof file === "object") {
    const f = file as Record<string, unknown>;
    if (Array.isArray(f.results)) return f.results;
    if (f.result && typeof f.result === "object") return [f.result];
    if (f.record && typeof f.record === "object") return [f.record];
    return [file];
  }
  return [];
}
