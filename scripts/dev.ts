import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createApiClient } from "../src/auth/clients";
import { randomToken } from "../src/auth/secrets";
import { database } from "../src/db/client";
import { DEFAULT_PRODUCT_COUNT } from "../src/seed/seed";
import { ensureLocalSigningKey, withLocalBindings, wranglerDevArgs } from "./local-platform";
import { seedLocal } from "./seed";

/** `npm start`: signing key, migrations, demo data, demo client, then `wrangler dev` on port 8787. */
const DEMO_FILE = ".medparts-demo.json";
const PORT = process.env.PORT ?? "8787";

interface DemoClient {
  clientId: string;
  clientSecret: string;
}

function demoClientCredentials(): DemoClient {
  if (existsSync(DEMO_FILE)) return JSON.parse(readFileSync(DEMO_FILE, "utf8")) as DemoClient;
  const demo = { clientId: "demo-stmarys", clientSecret: randomToken(24) };
  writeFileSync(DEMO_FILE, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

await ensureLocalSigningKey();
await seedLocal(DEFAULT_PRODUCT_COUNT);
const demo = demoClientCredentials();
await withLocalBindings((env) => createApiClient(database(env.DB), { tenantId: 1, name: "Demo client (St. Mary's)", ...demo }));

const base = `http://localhost:${PORT}`;
console.log(`
Medparts is starting on ${base}
  Demo client (tenant 1, St. Mary's Health System):
    client_id:     ${demo.clientId}
    client_secret: ${demo.clientSecret}
  Get a token:
    curl -s -X POST ${base}/auth/oauth2/token -d grant_type=client_credentials -d client_id=${demo.clientId} -d client_secret=${demo.clientSecret}
`);

// Request.cf is not used by the API; without this, wrangler tries to download it on every start (offline here).
const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env };
const dev = spawn("node_modules/.bin/wrangler", wranglerDevArgs(PORT), { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
