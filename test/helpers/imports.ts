import { env, introspectWorkflowInstance } from "cloudflare:test";
import { call, json, operatorTokenFor } from "./api";

export const IMPORTS = "/admin/api/catalog/imports";
/** A vendor's price files (offer import jobs). */
export const OFFER_IMPORTS = "/vendor/api/offer-imports";

/** Where a job's routes are and who calls them: the operator's catalog imports by default. */
export interface JobCaller {
  collection?: string;
  token?: string;
}

export interface ImportOptions {
  format: "ndjson" | "csv" | "gudid" | "openfda";
  mode?: "upsert" | "replace";
  dryRun?: boolean;
  onError?: "rejectAll" | "skipFailedRows";
  maxErrors?: number;
  maxWithdrawPercent?: number;
}

export type Job = Record<string, any> & { id: string; state: string; counts: Record<string, number> };

/** Creates a job and uploads its files in one request each; returns the job (awaiting its start). */
export async function createImport(
  options: ImportOptions,
  files: Record<string, string | Uint8Array>,
  { collection = IMPORTS, token }: JobCaller = {},
): Promise<Job> {
  const operator = token ?? (await operatorTokenFor());
  const created = await call(operator, collection, { method: "POST", json: options });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const job = (await json(created)).data as Job;
  for (const [name, content] of Object.entries(files)) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const res = await call(operator, `${collection}/${job.id}/files/${name}`, {
      method: "PUT",
      body: bytes,
      headers: { "Content-Type": "application/octet-stream" },
    });
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  }
  return job;
}

/** Starts a job and waits for its Workflow to end; returns the job as the API then shows it. */
export async function startAndWait(jobId: string, { collection = IMPORTS, token }: JobCaller = {}): Promise<Job> {
  const operator = token ?? (await operatorTokenFor());
  await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, jobId);
  await instance.modify(async (m) => {
    await m.disableRetryDelays();
  });
  const started = await call(operator, `${collection}/${jobId}/start`, { method: "POST" });
  if (started.status !== 202) throw new Error(`start answered ${started.status}: ${await started.text()}`);
  await instance.waitForStatus("complete");
  return getJob(jobId, { collection, token: operator });
}

export async function getJob(jobId: string, { collection = IMPORTS, token }: JobCaller = {}): Promise<Job> {
  const res = await call(token ?? (await operatorTokenFor()), `${collection}/${jobId}`);
  return (await json(res)).data as Job;
}

/** Creates, uploads, starts and waits: the job at its end. */
export async function runImport(options: ImportOptions, files: Record<string, string | Uint8Array>, caller: JobCaller = {}): Promise<Job> {
  const job = await createImport(options, files, caller);
  return startAndWait(job.id, caller);
}

export async function importErrors(jobId: string, { collection = IMPORTS, token }: JobCaller = {}): Promise<Record<string, unknown>[]> {
  const res = await call(token ?? (await operatorTokenFor()), `${collection}/${jobId}/errors?limit=1000`);
  return (await json(res)).data.items;
}

/** An import record: product `n` of the tests that use `prefix` in its id (`IMP-7`) and part number, with `extra` fields. */
export const importRecord = (prefix: string, n: number, extra: Record<string, unknown> = {}) => ({
  id: `${prefix}-${n}`,
  partNumber: `${prefix}${n}00A`,
  title: `Imported pump part ${n}`,
  description: `Part number ${n} of the import tests`,
  manufacturer: "Importwerk Medical",
  categories: ["Infusion Pumps"],
  ...extra,
});

export const ndjson = (records: unknown[]) => `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;

export async function productRow(id: string) {
  return env.CATALOG.prepare(
    "SELECT p.id, p.part_number, p.title, p.description, p.status, p.categories, p.content_hash, m.name AS manufacturer FROM products p " +
      "JOIN manufacturers m ON m.id = p.manufacturer_id WHERE p.id = ?",
  )
    .bind(id)
    .first<Record<string, unknown>>();
}

/** The `n` of a query on the catalog database (a count). */
export const catalogCount = async (sql: string, ...binds: unknown[]) =>
  (await env.CATALOG.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

export const catalogVersion = async () =>
  (await env.CATALOG.prepare("SELECT version FROM catalog_version").first<{ version: string }>())!.version;
