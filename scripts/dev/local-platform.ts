import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WEBHOOK_SWEEP_CRON } from "../../src/api/webhooks/queues";
import type { Bindings } from "../../src/env";
import { buildDocsUi } from "../portal/build-docs-ui.ts";
import { DEV_SEED_STORES_PATH } from "./seed-route";

export const DEV_VARS = ".dev.vars";
const WRANGLER = "node_modules/.bin/wrangler";
export const WRANGLER_CONFIG = "wrangler.toml";
/** The API Worker as the local runtime runs it: production's entry plus the local crons' route (scripts/dev/worker.ts). */
export const DEV_ENTRY = "scripts/dev/worker.ts";
/** The assets-only Worker of the /docs page. */
export const DOCS_WRANGLER_CONFIG = "docs-worker/wrangler.toml";
/** The operator plane's Worker (/admin/api, the catalog import Workflow). */
export const ADMIN_WRANGLER_CONFIG = "admin/wrangler.toml";

/**
 * Miniflare options of the docs Worker, as an extra worker beside the API Worker (the tests, the bench), which
 * reaches it over its DOCS binding. Miniflare wants a script for every worker; its asset router never calls this one.
 */
export async function docsWorkerOptions(root = ".") {
  // wrangler and miniflare are imported where they are used: loading them takes seconds, and a script's --help none.
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, DOCS_WRANGLER_CONFIG));
  const { compatibilityDate, assets } = workerOptions as { compatibilityDate?: string; assets?: { directory: string } };
  return { name: "medparts-docs", modules: true, script: "export default {};", compatibilityDate, assets };
}
/** wrangler's own default for local state (`--persist-to` changes it). */
const DEFAULT_STATE_DIR = ".wrangler/state";

/** Runs wrangler; its output is shown only when it fails (or always, with `verbose`). */
export function wrangler(args: string[], options: { verbose?: boolean } = {}): void {
  buildDocsUi(); // wrangler.toml's [assets] directory must exist for any wrangler command
  const result = spawnSync(WRANGLER, args, {
    stdio: options.verbose ? "inherit" : "pipe",
    encoding: "utf8",
    env: { ...process.env, WRANGLER_HIDE_BANNER: "true" },
  });
  if (result.status !== 0) {
    if (!options.verbose) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    throw new Error(`wrangler ${args.join(" ")} failed with status ${result.status}`);
  }
}

/**
 * Local secrets in .dev.vars (git-ignored), each made once: the RS256 signing key, the webhook secret key, the quote
 * signing key, and the local-only permission to deliver webhooks to http://localhost. Production uses `wrangler
 * secret put`.
 */
export async function ensureLocalSigningKey(): Promise<void> {
  let current = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8") : "";
  const add = (name: string, value: string) => {
    if (new RegExp(`^${name}=`, "m").test(current)) return false;
    current = `${current}${current && !current.endsWith("\n") ? "\n" : ""}${name}='${value}'\n`;
    return true;
  };
  const { exportJWK, generateKeyPair } = await import("jose");
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${Date.now().toString(36)}`, alg: "RS256", use: "sig" };
  const added = [
    add("JWT_PRIVATE_KEY", JSON.stringify(jwk)) && "signing key",
    add("WEBHOOK_SECRET_KEY", randomBytes(32).toString("base64url")) && "webhook secret key",
    add("QUOTE_SIGNING_KEY", randomBytes(32).toString("base64url")) && "quote signing key",
    add("ALLOW_LOCAL_WEBHOOKS", "true") && "local webhooks",
  ].filter(Boolean);
  await ensureAdminDevVars();
  if (added.length === 0) return;
  writeFileSync(DEV_VARS, current, { mode: 0o600 });
  console.log(`Added to .dev.vars: ${added.join(", ")}`);
}

/**
 * The operator plane's own admin/.dev.vars (it reads no other): the local-only permission to point a procurement
 * connection's documentUrl at http://localhost (npm run demo -- --punchout plays the suite there), and a local AS2
 * identity (docs/as2.md, "Our identity"), made once.
 */
async function ensureAdminDevVars(): Promise<void> {
  const file = path.join(path.dirname(ADMIN_WRANGLER_CONFIG), ".dev.vars");
  let current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const append = (line: string) => {
    current = `${current}${current && !current.endsWith("\n") ? "\n" : ""}${line}\n`;
  };
  const before = current;
  if (!/^ALLOW_LOCAL_WEBHOOKS=/m.test(current)) append("ALLOW_LOCAL_WEBHOOKS='true'");
  if (!/^AS2_PRIVATE_KEY=/m.test(current)) {
    const { certificatePem, createSelfSignedIdentity, privateKeyPem } = await import("../../src/operator/edi/as2/certificates");
    const identity = await createSelfSignedIdentity("Medparts AS2 (local)");
    append(`AS2_PRIVATE_KEY=${JSON.stringify(privateKeyPem(identity))}`);
    append(`AS2_CERTIFICATE=${JSON.stringify(certificatePem(identity.certificate))}`);
  }
  if (current !== before) writeFileSync(file, current, { mode: 0o600 });
}

/** Where local D1/KV/DO state lives; wrangler's default unless a script is pointed elsewhere (benchmarks). */
export interface LocalState {
  persistTo?: string;
}

const persistArgs = (state: LocalState) => (state.persistTo ? ["--persist-to", state.persistTo] : []);

/** Both databases: DB from migrations/, CATALOG from catalog-migrations/ (wrangler.toml). */
export function applyLocalMigrations(state: LocalState = {}): void {
  for (const binding of ["DB", "CATALOG"]) wrangler(["d1", "migrations", "apply", binding, "--local", ...persistArgs(state)]);
}

/**
 * `wrangler dev` on `port`. ISSUER follows the port (wrangler.toml's value names 8787): discovery, the token
 * endpoint and the /docs Authorize dialog must point to this very server, or OIDC clients refuse the issuer.
 * `--test-scheduled` serves GET /__scheduled to run the API Worker's Cron Trigger by hand (crons do not fire locally:
 * `npm start` runs every Worker's on its schedule, scripts/dev/local-crons.ts).
 * The docs Worker (docs-worker/wrangler.toml) and the operator plane's (admin/wrangler.toml) run in the same process,
 * behind the API Worker's DOCS and ADMIN bindings.
 */
export function wranglerDevArgs(port: string, state: LocalState = {}, entry?: string): string[] {
  // Local queues live in memory: a restart loses every message (wrangler.toml QUEUES_PERSISTED).
  const issuer = ["--var", `ISSUER:http://localhost:${port}/auth`, "--var", "QUEUES_PERSISTED:false"];
  const script = entry ? [entry] : []; // default: wrangler.toml's main
  const configs = ["-c", WRANGLER_CONFIG, "-c", DOCS_WRANGLER_CONFIG, "-c", ADMIN_WRANGLER_CONFIG];
  return ["dev", ...script, ...configs, "--port", port, "--ip", "127.0.0.1", "--test-scheduled", ...persistArgs(state), ...issuer];
}

/**
 * What a local runtime at `baseUrl` needs once it answers: the demo tenants' stores seeded (scripts/dev/seed-route.ts;
 * the seed wrote `DB` and the catalog before the start), then the webhook sweep: its queues started empty
 * (QUEUES_PERSISTED false), so whatever deliveries were owed when it last stopped go out now rather than at the next
 * sweep a developer runs. The runtime must serve the dev entry (scripts/dev/worker.ts) or one built on it.
 */
export async function prepareWhenLive(baseUrl: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(`${baseUrl}/health/live`))) {
    if (Date.now() > deadline) throw new Error(`the local runtime at ${baseUrl} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await seedDemoStoresAt(baseUrl);
  await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(WEBHOOK_SWEEP_CRON)}`);
}

/**
 * The demo tenants' stores seeded by the runtime at `baseUrl` (scripts/dev/seed-route.ts), which serves the dev entry or
 * one built on it (the bench's runtime too, scripts/bench/runtime.ts).
 */
export async function seedDemoStoresAt(baseUrl: string): Promise<void> {
  const seeded = await fetch(`${baseUrl}${DEV_SEED_STORES_PATH}`, { method: "POST" });
  if (!seeded.ok) throw new Error(`seeding the demo tenants' stores answered ${seeded.status}: ${await seeded.text()}`);
}

/** Whether `url` answers 2xx; false while nothing listens there yet. */
async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * The storage bindings that scripts use directly, and the operator plane's bucket (IMPORTS: price files, X12 files); the
 * Durable Objects belong to the running Worker only.
 */
export type LocalStorage = Pick<Bindings, "DB" | "CATALOG" | "QUOTES"> & { IMPORTS: R2Bucket };

/**
 * Runs `work` against the same local D1, KV and R2 state that `wrangler dev` uses: a Miniflare instance with
 * wrangler.toml's D1 databases and KV namespaces and the operator plane's R2 buckets, persisted where wrangler persists them.
 */
export async function withLocalBindings<T>(work: (env: LocalStorage) => Promise<T>, state: LocalState = {}): Promise<T> {
  const [{ unstable_readConfig }, { convertV4MiniflareOptions, Miniflare }] = await Promise.all([import("wrangler"), import("miniflare")]);
  const config = unstable_readConfig({ config: WRANGLER_CONFIG });
  const admin = unstable_readConfig({ config: ADMIN_WRANGLER_CONFIG });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
      compatibilityDate: config.compatibility_date,
      resourcePersistencePath: path.join(state.persistTo ?? DEFAULT_STATE_DIR, "v3"),
      d1Databases: Object.fromEntries(
        config.d1_databases.map((d: { binding: string; database_id?: string }) => [d.binding, d.database_id ?? d.binding]),
      ),
      kvNamespaces: Object.fromEntries(config.kv_namespaces.map((k: { binding: string; id?: string }) => [k.binding, k.id ?? k.binding])),
      r2Buckets: Object.fromEntries(
        admin.r2_buckets.map((r: { binding: string; bucket_name?: string }) => [r.binding, r.bucket_name ?? r.binding]),
      ),
    }),
  );
  try {
    const env = {
      DB: await mf.getD1Database("DB"),
      CATALOG: await mf.getD1Database("CATALOG"),
      QUOTES: await mf.getKVNamespace("QUOTES"),
      IMPORTS: await mf.getR2Bucket("IMPORTS"),
    } as unknown as LocalStorage;
    return await work(env);
  } finally {
    await mf.dispose();
  }
}

/** Where `npm start` keeps the demo credentials across restarts (git-ignored). */
export const DEMO_FILE = ".medparts-demo.json";

export interface DemoClient {
  clientId: string;
  clientSecret: string;
}

/**
 * The buyer's demo client (top level, as before), the demo vendor's client (`vendor`), the operator's (`operator`), the
 * demo tenant's test-mode client (`testMode`) and its SCIM token (`scimToken`, for an identity provider).
 */
export type DemoClients = DemoClient & { vendor?: DemoClient; operator?: DemoClient; scimToken?: string; testMode?: DemoClient };

/** A demo client: `<prefix>_CLIENT_ID` and `_SECRET` from the environment (MEDPARTS_VENDOR...), else what npm start saved. */
export function demoClientOf(prefix: string, saved: DemoClient | undefined): DemoClient | undefined {
  const clientId = process.env[`${prefix}_CLIENT_ID`];
  const clientSecret = process.env[`${prefix}_CLIENT_SECRET`];
  return clientId && clientSecret ? { clientId, clientSecret } : saved;
}

/** What `npm start` wrote to DEMO_FILE; undefined before its first run. */
export const savedDemoClients = (): DemoClients | undefined =>
  existsSync(DEMO_FILE) ? (JSON.parse(readFileSync(DEMO_FILE, "utf8")) as DemoClients) : undefined;
