import type { z } from "@hono/zod-openapi";
import { centsToText, textToCents } from "../../platform/money";
import type { ImportErrorSchema } from "../imports/errors";
import type { JobState } from "../imports/jobs";
import type { Offer } from "../offers/schemas";
import type { ApiAnswer } from "../procurement/api";
import type { DeskApi } from "./vendor-work";
import { outcomeOf } from "./vendor-work";

/**
 * A vendor's offers and price files on the desk (docs/desk.md, "Offers and price files"), through the vendor API's
 * publishing routes as the signed-in admin: the desk edits the few terms a person changes by hand and keeps the rest
 * of the offer as it is.
 */

export const OFFERS_PAGE_SIZE = 25;
/** The largest price file the desk takes in a form; larger ones go through the vendor API's multipart upload. */
export const DESK_PRICE_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const PRICE_FILES_PATH = "/desk/price-files";

type Field = (name: string) => string;

export async function offersPage(api: DeskApi, q: string, page: number) {
  const query = new URLSearchParams({ limit: String(OFFERS_PAGE_SIZE), offset: String(page * OFFERS_PAGE_SIZE), ...(q ? { q } : {}) });
  const answer = (await api("GET", `/offers?${query}`)) as ApiAnswer<{
    data?: { offers: Offer[]; pagination: { total: number } };
    detail?: string;
    errors?: unknown;
  }>;
  if (answer.status !== 200 || !answer.body.data) return { offers: [] as Offer[], total: 0, error: outcomeOf(answer).detail };
  return { offers: answer.body.data.offers, total: answer.body.data.pagination.total, error: null };
}

export async function offerOf(api: DeskApi, sku: string): Promise<Offer | null> {
  const answer = (await api("GET", `/offers/${encodeURIComponent(sku)}`)) as ApiAnswer<{ data?: Offer }>;
  return answer.status === 200 && answer.body.data ? answer.body.data : null;
}

const TERMS_FIELD = { exchange: "exchangeTerms", loan: "loanTerms", repair: "repairTerms" } as const;

/** An offer as the vendor API reads it, written back as the input that publishes it unchanged (PUT /offers/{sku}). */
export function offerInputOf(offer: Offer): Record<string, unknown> {
  const terms = offer.purchaseTerms;
  const termsInput = terms
    ? {
        [TERMS_FIELD[terms.type]]: Object.fromEntries(Object.entries(terms).filter(([key, value]) => key !== "type" && value !== null)),
      }
    : {};
  return {
    productId: offer.productId,
    condition: offer.condition,
    purchaseChoice: offer.purchaseChoice,
    purchaseType: offer.purchaseType,
    ...termsInput,
    warranty: offer.warranty,
    price: offer.price,
    unitOfMeasure: offer.unitOfMeasure,
    packQuantity: offer.packQuantity,
    leadTimeDays: offer.leadTimeDays,
    quantityAvailable: offer.quantityAvailable,
    quantityCountedAt: offer.quantityCountedAt,
    customFields: offer.customFields,
    effectiveFrom: offer.effectiveFrom,
    effectiveTo: offer.effectiveTo,
    futurePrice: offer.futurePrice,
  };
}

/**
 * The offer with the edit form's terms: price, lead time, stock (counted now when changed), condition and warranty.
 * What was typed wrong is named; the vendor API checks the rest.
 */
export function editedOffer(offer: Offer, field: Field): { input: Record<string, unknown>; errors: string[] } {
  const errors: string[] = [];
  const cents = textToCents(field("price"));
  if (cents === null || cents === 0) errors.push("The price must be an amount above 0, like 1249.50.");
  const lead = field("leadTimeDays");
  if (!/^\d{1,3}$/.test(lead) || Number(lead) > 365) errors.push("The lead time is a whole number of days, 0 to 365.");
  const stock = field("quantityAvailable");
  if (stock !== "" && !/^\d{1,10}$/.test(stock)) errors.push("The stock is a whole number of units, or empty when you do not say.");
  const input = offerInputOf(offer);
  const stockNow = stock === "" ? null : Number(stock);
  const stockChanged = stockNow !== offer.quantityAvailable;
  return {
    errors,
    input: {
      ...input,
      price: cents === null ? input.price : centsToText(cents),
      leadTimeDays: Number(lead),
      condition: field("condition") || offer.condition,
      warranty: field("warranty") || offer.warranty,
      quantityAvailable: stockNow,
      quantityCountedAt: stockNow === null ? null : stockChanged ? new Date().toISOString() : offer.quantityCountedAt,
    },
  };
}

export async function publishOffer(api: DeskApi, sku: string, input: Record<string, unknown>) {
  return outcomeOf((await api("PUT", `/offers/${encodeURIComponent(sku)}`, input)) as ApiAnswer<{ detail?: string; errors?: unknown }>);
}

export async function withdrawOffer(api: DeskApi, sku: string) {
  return outcomeOf((await api("DELETE", `/offers/${encodeURIComponent(sku)}`)) as ApiAnswer<{ detail?: string; errors?: unknown }>);
}

export interface PriceFileJob {
  id: string;
  format: string;
  state: JobState;
  onError: string;
  dryRun: boolean;
  failure: { code: string; message: string } | null;
  counts: { read: number; created: number; updated: number; unchanged: number; rejected: number };
  progress: { phase: string; fraction: number; rowsPerSecond: number | null; secondsLeft: number | null };
  files: { name: string; size: number | null }[];
  createdAt: string;
  finishedAt: string | null;
}

/** A rejected row of a job, as the import's errors route gives it. */
export type RowError = z.infer<typeof ImportErrorSchema>;

/** A file's format by its name: .csv, or .ndjson / .jsonl (gzip-compressed too); null for any other. */
export const priceFileFormat = (name: string) =>
  /\.csv(\.gz)?$/i.test(name) ? "csv" : /\.(ndjson|jsonl)(\.gz)?$/i.test(name) ? "ndjson" : null;

/** A file name the import job takes: letters, digits, dots, dashes and underscores, at most 100. */
const jobFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_").slice(-100) || "price-file";

/** A price file as an import job of the vendor's: created, its bytes uploaded, started (or what refused it). */
export async function startPriceFile(
  api: DeskApi,
  file: { name: string; bytes: Uint8Array },
  options: { format: string; onError: string; dryRun: boolean },
): Promise<{ jobId: string | null; detail: string | null }> {
  const created = (await api("POST", "/offer-imports", options)) as ApiAnswer<{ data?: PriceFileJob; detail?: string; errors?: unknown }>;
  if (created.status !== 201 || !created.body.data) return { jobId: null, detail: outcomeOf(created).detail };
  const jobId = created.body.data.id;
  const name = jobFileName(file.name);
  const uploaded = (await api("PUT", `/offer-imports/${jobId}/files/${name}`, file.bytes)) as ApiAnswer<{ detail?: string }>;
  if (uploaded.status !== 200) return { jobId, detail: outcomeOf(uploaded).detail };
  const started = (await api("POST", `/offer-imports/${jobId}/start`)) as ApiAnswer<{ detail?: string }>;
  return { jobId, detail: started.status < 300 ? null : outcomeOf(started).detail };
}

export async function priceFileJob(api: DeskApi, jobId: string): Promise<PriceFileJob | null> {
  const answer = (await api("GET", `/offer-imports/${jobId}`)) as ApiAnswer<{ data?: PriceFileJob }>;
  return answer.status === 200 && answer.body.data ? answer.body.data : null;
}

export async function recentPriceFiles(api: DeskApi): Promise<PriceFileJob[]> {
  const answer = (await api("GET", "/offer-imports?limit=10")) as ApiAnswer<{ data?: { items: PriceFileJob[] } }>;
  return answer.status === 200 ? (answer.body.data?.items ?? []) : [];
}

/** The first rejected rows of a job (the page shows them; the vendor API pages through the rest). */
export async function rowErrors(api: DeskApi, jobId: string, limit = 100): Promise<RowError[]> {
  const answer = (await api("GET", `/offer-imports/${jobId}/errors?limit=${limit}`)) as ApiAnswer<{ data?: { items: RowError[] } }>;
  return answer.status === 200 ? (answer.body.data?.items ?? []) : [];
}

export const priceFileOptions = (field: Field) => ({
  onError: field("onError") === "rejectAll" ? "rejectAll" : "skipFailedRows",
  dryRun: field("dryRun") === "on",
});
