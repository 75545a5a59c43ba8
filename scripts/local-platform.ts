import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { exportJWK, generateKeyPair } from "jose";
import { getPlatformProxy } from "wrangler";
import type { Bindings } from "../src/env";
import { buildDocsUi } from "./build-docs-ui";

export const DEV_VARS = ".dev.vars";
const WRANGLER = "node_modules/.bin/wrangler";

export function wrangler(args: string[]): void {
  buildDocsUi(); // wrangler.toml's [assets] directory must exist for any wrangler command
  const result = spawnSync(WRANGLER, args, { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed with status ${result.status}`);
}

/** A local RS256 signing key in .dev.vars (git-ignored), made once; production uses `wrangler secret put`. */
export async function ensureLocalSigningKey(): Promise<void> {
  const current = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8") : "";
  if (/^JWT_PRIVATE_KEY=/m.test(current)) return;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${Date.now().toString(36)}`, alg: "RS256", use: "sig" };
  writeFileSync(DEV_VARS, `${current}${current && !current.endsWith("\n") ? "\n" : ""}JWT_PRIVATE_KEY='${JSON.stringify(jwk)}'\n`, { mode: 0o600 });
  console.log("Created a local signing key in .dev.vars");
}

/** Where local D1/KV/DO state lives; wrangler's default unless a script is pointed elsewhere (benchmarks). */
export interface LocalState {
  persistTo?: string;
}

const persistArgs = (state: LocalState) => (state.persistTo ? ["--persist-to", state.persistTo] : []);

export function applyLocalMigrations(state: LocalState = {}): void {
  wrangler(["d1", "migrations", "apply", "DB", "--local", ...persistArgs(state)]);
}

export function wranglerDevArgs(port: string, state: LocalState = {}): string[] {
  return ["dev", "--port", port, "--ip", "127.0.0.1", ...persistArgs(state)];
}

/** Runs `work` against the same local D1/KV state that `wrangler dev` uses. */
export async function withLocalBindings<T>(work: (env: Bindings) => Promise<T>, state: LocalState = {}): Promise<T> {
  // wrangler --persist-to X keeps its state in X/v3; the platform proxy takes that inner path.
  buildDocsUi();
  const persist = state.persistTo ? { path: `${state.persistTo}/v3` } : true;
  const proxy = await getPlatformProxy<Bindings>({ configPath: "wrangler.toml", persist });
  try {
    return await work(proxy.env);
  } finally {
    await proxy.dispose();
  }
}
