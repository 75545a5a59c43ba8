import { readFileSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { database } from "../../src/db/client";
import { createApiClient } from "../../src/shared/auth/clients";
import { randomToken } from "../../src/shared/auth/secrets";
import { fetchToken } from "../bench/client";
import { type LocalState, withLocalBindings } from "../dev/local-platform";

/** What the import bench and the import crash test share: an operator client, one job driven over HTTP, a catalog hash. */

export interface OperatorCredentials {
  clientId: string;
  clientSecret: string;
}

export async function createOperatorClient(state: LocalState, name: string): Promise<OperatorCredentials> {
  const credentials = { clientId: `op-${randomToken(8)}`, clientSecret: randomToken(24) };
  await withLocalBindings((env) => createApiClient(database(env.DB), { operator: true, name, ...credentials }), state);
  return credentials;
}

export interface ImportJob {
  id: string;
  state: string;
  failure: { code: string; message: string } | null;
  counts: Record<"read" | "created" | "updated" | "unchanged" | "withdrawn" | "rejected", number>;
  progress: { phase: string; rowsApplied: number; rowsRead: number; step?: string | null };
  startedAt: string | null;
  validatedAt?: string | null;
  finishedAt: string | null;
  sameFilesAs?: string | null;
}

/** What a job is doing: its state, or while running what its build is doing (`progress.step`), else its phase. */
export const jobPhase = (job: ImportJob) => (job.state === "running" ? (job.progress.step ?? job.progress.phase) : job.state);

export class OperatorApi {
  private constructor(
    readonly baseUrl: string,
    private token: string,
    private readonly credentials: OperatorCredentials,
  ) {}

  static async connect(baseUrl: string, credentials: OperatorCredentials): Promise<OperatorApi> {
    return new OperatorApi(baseUrl, await fetchToken(baseUrl, credentials.clientId, credentials.clientSecret), credentials);
  }

  /** Another runtime on the same state (a restart): a new token from it. */
  async reconnect(baseUrl: string): Promise<OperatorApi> {
    return OperatorApi.connect(baseUrl, this.credentials);
  }

  async call<T>(method: string, path: string, body?: BodyInit, contentType = "application/json"): Promise<T> {
    const res = await fetch(`${this.baseUrl}/admin/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "Content-Type": contentType }) },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: T }).data;
  }

  /** Creates an ndjson job and uploads `file` in one request (at most 95 MiB). */
  async createJob(file: string, options: Record<string, unknown> = {}): Promise<ImportJob> {
    const job = await this.call<ImportJob>("POST", "/catalog/imports", JSON.stringify({ format: "ndjson", ...options }));
    if (statSync(file).size > 95 * 1024 * 1024) throw new Error(`${file} is over 95 MiB: use npm run import`);
    await this.call("PUT", `/catalog/imports/${job.id}/files/catalog.ndjson`, readFileSync(file), "application/octet-stream");
    return job;
  }

  job(id: string): Promise<ImportJob> {
    return this.call<ImportJob>("GET", `/catalog/imports/${id}`);
  }

  /** Starts the job, or resumes it when started (the route's nudge). */
  start(id: string): Promise<ImportJob> {
    return this.call<ImportJob>("POST", `/catalog/imports/${id}/start`);
  }

  async waitUntilFinished(id: string, timeoutMs = 30 * 60_000): Promise<ImportJob> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const job = await this.job(id);
      if (["succeeded", "failed", "cancelled"].includes(job.state)) return job;
      await sleep(250);
    }
    throw new Error(`import ${id} did not finish in ${timeoutMs / 1000} s`);
  }
}

/** Seconds from the job's start to its end, as the server recorded them. */
export const jobSeconds = (job: ImportJob) => (Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)) / 1000;

/**
 * What an import builds beside the products, each in a total order: categories, facet counts, sort positions, the
 * full-text index's documents (their number: a contentless index keeps no text), and the tables of the schema; then
 * the main database's copy of the scan codes and its tables.
 */
const DERIVED = {
  CATALOG: [
    "SELECT category, product_id FROM product_categories ORDER BY category, product_id",
    "SELECT manufacturer_id, product_count FROM catalog_manufacturer_counts WHERE product_count > 0 ORDER BY manufacturer_id",
    "SELECT category, product_count FROM catalog_category_counts WHERE product_count > 0 ORDER BY category",
    "SELECT sort_by, position, product_rowid FROM catalog_positions ORDER BY sort_by, position",
    "SELECT count(*) AS documents FROM products_fts",
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view', 'trigger') ORDER BY name",
  ],
  DB: [
    "SELECT agency, code, product_id FROM product_codes ORDER BY agency, code, product_id",
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view', 'trigger') ORDER BY name",
  ],
} as const;

/** A digest of every product row (rank included) with its device identifiers; with `derived`, of DERIVED too. */
export async function catalogHash(
  state: LocalState,
  { derived = false } = {},
): Promise<{ hash: string; products: number; version: string }> {
  return withLocalBindings(async (env) => {
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256");
    for (const [database, statements] of derived ? Object.entries(DERIVED) : []) {
      for (const sql of statements) {
        for (let offset = 0; ; offset += 50_000) {
          const { results } = await env[database as keyof typeof DERIVED].prepare(`${sql} LIMIT 50000 OFFSET ${offset}`).all();
          for (const row of results) hash.update(`${JSON.stringify(row)}\n`);
          if (results.length < 50_000) break;
        }
      }
    }
    let products = 0;
    for (let after = 0; ; ) {
      const { results } = await env.CATALOG.prepare(
        "SELECT rowid, id, part_number, display_part_number, normalized_part_number, title, description, manufacturer_id, categories, status, " +
          "content_hash, (SELECT group_concat(di, ',') FROM (SELECT agency || ':' || device_id || ':' || ifnull(contains_device_id, '') || ':' || " +
          "ifnull(quantity, '') AS di FROM device_identifiers WHERE product_id = products.id ORDER BY agency, device_id)) AS identifiers " +
          "FROM products WHERE rowid > ? ORDER BY rowid LIMIT 5000",
      )
        .bind(after)
        .all<Record<string, unknown> & { rowid: number }>();
      if (results.length === 0) break;
      for (const row of results) hash.update(`${JSON.stringify(row)}\n`);
      products += results.length;
      after = results.at(-1)!.rowid;
    }
    const version = (await env.CATALOG.prepare("SELECT version FROM catalog_version").first<{ version: string }>())!.version;
    return { hash: hash.digest("hex"), products, version };
  }, state);
}
