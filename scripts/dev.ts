import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { DEMO_VENDOR_ID } from "../src/api/vendors/routes";
import { database } from "../src/db/client";
import { DEFAULT_PRODUCT_COUNT } from "../src/dev/seed/seed";
import { issueScimToken, newScimToken } from "../src/operator/scim/tokens";
import { TEST_CLIENT_PREFIX } from "../src/platform/test-mode";
import { createApiClient } from "../src/shared/auth/clients";
import { randomToken } from "../src/shared/auth/secrets";
import {
  DEMO_FILE,
  type DemoClients,
  ensureLocalSigningKey,
  savedDemoClients,
  sweepWebhooksOnceLive,
  withLocalBindings,
  wranglerDevArgs,
} from "./local-platform";
import { seedLocal } from "./seed";

/** `npm start`: signing key, migrations, demo data, demo clients (buyer, vendor, operator) and SCIM token, then `wrangler dev` on port 8787. */
const PORT = process.env.PORT ?? "8787";

/** The demo credentials, kept across restarts in .medparts-demo.json (git-ignored); what is missing is made. */
function demoClientCredentials(): Required<DemoClients> {
  const saved = savedDemoClients();
  const demo = {
    clientId: saved?.clientId ?? "demo-stmarys",
    clientSecret: saved?.clientSecret ?? randomToken(24),
    vendor: saved?.vendor ?? { clientId: "demo-oem-vendor", clientSecret: randomToken(24) },
    operator: saved?.operator ?? { clientId: "demo-operator", clientSecret: randomToken(24) },
    scimToken: saved?.scimToken ?? newScimToken(),
    testMode: saved?.testMode ?? { clientId: `${TEST_CLIENT_PREFIX}_demo_stmarys`, clientSecret: randomToken(24) },
  };
  if (!saved?.vendor || !saved.operator || !saved.scimToken || !saved.testMode)
    writeFileSync(DEMO_FILE, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

await ensureLocalSigningKey();
await seedLocal(DEFAULT_PRODUCT_COUNT);
const { vendor, operator, scimToken, testMode, ...demo } = demoClientCredentials();
await withLocalBindings(async (env) => {
  await createApiClient(database(env.DB), { tenantId: 1, name: "Demo client (St. Mary's)", ...demo });
  await createApiClient(database(env.DB), {
    vendorId: DEMO_VENDOR_ID,
    name: "Demo vendor client (OEM Authorized Distribution)",
    ...vendor,
  });
  await createApiClient(database(env.DB), { operator: true, name: "Demo operator client (the marketplace)", ...operator });
  await issueScimToken(env.DB, 1, "Demo identity provider", "npm start", scimToken);
  await createApiClient(database(env.DB), { tenantId: 1, testMode: true, name: "Demo test-mode client (St. Mary's sandbox)", ...testMode });
});

const base = `http://localhost:${PORT}`;
console.log(`
Medparts is starting on ${base}
  Demo client (tenant 1, St. Mary's Health System):
    client_id:     ${demo.clientId}
    client_secret: ${demo.clientSecret}
  Get a token:
    curl -s -X POST ${base}/auth/oauth2/token -d grant_type=client_credentials -d client_id=${demo.clientId} -d client_secret=${demo.clientSecret}
  Demo vendor client (vendor ${DEMO_VENDOR_ID}, OEM Authorized Distribution; the vendor API at ${base}/vendor/api):
    client_id:     ${vendor.clientId}
    client_secret: ${vendor.clientSecret}
  Demo operator client (the marketplace itself; token audience medparts-admin-api, scope catalog:import):
    client_id:     ${operator.clientId}
    client_secret: ${operator.clientSecret}
  Demo test-mode client (tenant 1's sandbox: test orders a simulated vendor fulfils; npm run demo -- --sandbox):
    client_id:     ${testMode.clientId}
    client_secret: ${testMode.clientSecret}
  Demo SCIM token (tenant 1's identity provider: Entra ID's "Tenant URL" and "Secret Token", Okta's SCIM connector):
    SCIM base URL: ${base}/scim/v2
    token:         ${scimToken}
    curl -s ${base}/scim/v2/Users?count=2 -H "Authorization: Bearer ${scimToken}"
`);

// Request.cf is not used by the API; without this, wrangler tries to download it on every start (offline here).
const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env };
const dev = spawn("node_modules/.bin/wrangler", wranglerDevArgs(PORT), { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
void sweepWebhooksOnceLive(base);
