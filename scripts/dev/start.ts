import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { cliArgs, DEFAULT_PORT } from "../cli";
import type { DemoClients } from "./local-platform";

cliArgs(
  "start",
  "Serves everything locally on http://localhost:$PORT (default 8787): migrations, demo data and clients, then wrangler dev. Prints the URLs and the demo credentials once ready.",
  {},
);
// Imported once the command line is sound: the API's modules take seconds to load, --help none.
const [
  { DEMO_VENDOR_ID },
  { database },
  { issueScimToken, newScimToken },
  { inviteUser },
  { DESK_BASE },
  { TEST_CLIENT_PREFIX },
  { createApiClient },
  { DEFAULT_PRODUCT_COUNT },
  { randomToken },
  { startLocalCrons },
  { DEMO_FILE, DEV_ENTRY, ensureLocalSigningKey, savedDemoClients, prepareWhenLive, withLocalBindings, wranglerDevArgs },
  { DevOutput, startBanner },
  { seedLocal },
] = await Promise.all([
  import("../../src/api/vendors/routes"),
  import("../../src/db/client"),
  import("../../src/operator/scim/tokens"),
  import("../../src/operator/desk/users"),
  import("../../src/platform/planes"),
  import("../../src/platform/test-mode"),
  import("../../src/shared/auth/clients"),
  import("../../src/dev/seed/seed"),
  import("../../src/shared/auth/secrets"),
  import("./local-crons"),
  import("./local-platform"),
  import("./output"),
  import("./seed"),
]);

/** `npm start`: signing key, migrations, demo data, demo clients (buyer, vendor, operator) and SCIM token, then `wrangler dev` on port 8787. */
const PORT = process.env.PORT ?? DEFAULT_PORT;

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
/**
 * The demo vendor's admin on the order desk: invited at each start until it has made a passkey (a fresh link each time);
 * once active it signs in with that passkey, since inviting an active user again would withdraw it.
 */
const DEMO_DESK_ADMIN = "admin@oem-distribution.example";
let deskInvitation: string | undefined;
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
  const admin = await env.DB.prepare("SELECT status FROM vendor_users WHERE vendor_id = ? AND email = ?")
    .bind(DEMO_VENDOR_ID, DEMO_DESK_ADMIN)
    .first<{ status: string }>();
  if (admin?.status !== "active") {
    const invitation = await inviteUser(env.DB, {
      vendorId: DEMO_VENDOR_ID,
      email: DEMO_DESK_ADMIN,
      displayName: "Demo vendor admin",
      role: "admin",
      invitedBy: "npm start",
    });
    deskInvitation = `${DESK_BASE}/invitations/${invitation.token}`;
  }
});

const base = `http://localhost:${PORT}`;
const output = new DevOutput(() =>
  startBanner(
    base,
    {
      buyer: demo,
      testMode,
      vendor: { ...vendor, vendorId: DEMO_VENDOR_ID },
      operator,
      scimToken,
      ...(deskInvitation ? { deskInvitation } : {}),
    },
    DEMO_FILE,
  ),
);
console.log(`Starting the local runtime on ${base} (wrangler dev): the credentials follow once it is ready.`);

// Request.cf is not used by the API; without this, wrangler tries to download it on every start (offline here).
const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", FORCE_COLOR: process.stdout.isTTY ? "1" : "0", ...process.env };
const dev = spawn("node_modules/.bin/wrangler", wranglerDevArgs(PORT, {}, DEV_ENTRY), { stdio: ["inherit", "pipe", "pipe"], env });
for (const [from, to] of [
  [dev.stdout, process.stdout],
  [dev.stderr, process.stderr],
] as const) {
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    for (const shown of output.line(line)) to.write(`${shown}\n`);
  });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
// Once live: the demo stores seeded and what the queues lost at the last stop sent, then the banner, and every Worker's
// crons run on their schedules.
prepareWhenLive(base).then(
  () => {
    for (const line of output.prepared()) console.log(line);
    startLocalCrons(base);
  },
  (error: unknown) => {
    console.error(`The local runtime did not get ready: ${error instanceof Error ? error.message : String(error)}`);
    dev.kill("SIGTERM");
  },
);
