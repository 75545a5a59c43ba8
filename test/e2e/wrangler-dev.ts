import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startServer } from "../../scripts/bench/server";
import { DEV_ENTRY, ensureLocalSigningKey, withLocalBindings } from "../../scripts/dev/local-platform";
import { seedLocal } from "../../scripts/dev/seed";
import { buildDocsUi } from "../../scripts/portal/build-docs-ui";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { database } from "../../src/db/client";
import { type ClientOwner, createApiClient } from "../../src/shared/auth/clients";
import { randomToken } from "../../src/shared/auth/secrets";

/**
 * Global setup of the e2e suite: `wrangler dev` on a free port (never 8787, which `npm start` uses) with
 * its own --persist-to state directory, so it touches neither a developer's local data nor the unit tests.
 */

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** A buyer client of tenant 1 and a client of the demo vendor, in the seeded state the server runs on. */
    buyer: { clientId: string; clientSecret: string };
    vendor: { clientId: string; clientSecret: string };
    /** An operator client (procurement connections for the PunchOut tests). */
    operator: { clientId: string; clientSecret: string };
  }
}

export default async function setup(project: TestProject) {
  buildDocsUi();
  const port = await freePort();
  const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-e2e-"));
  await ensureLocalSigningKey();
  await seedLocal(60, { persistTo });
  const client = (owner: ClientOwner, clientId: string) =>
    withLocalBindings((env) => createApiClient(database(env.DB), { ...owner, name: clientId, clientId, clientSecret: randomToken(24) }), {
      persistTo,
    });
  const buyer = await client({ tenantId: 1 }, "e2e-buyer");
  const vendor = await client({ vendorId: DEMO_VENDOR_ID }, "e2e-vendor");
  const operator = await client({ operator: true }, "e2e-operator");
  const server = await startServer({
    port,
    persistTo,
    // As `npm start` runs it: with the route that runs each Worker's crons (scripts/dev/local-crons.ts).
    entry: DEV_ENTRY,
    // Local webhook receivers: the raw-request tests listen on loopback.
    vars: { ISSUER: `http://127.0.0.1:${port}/auth`, ALLOW_LOCAL_WEBHOOKS: "true" },
    logFile: path.join(persistTo, "wrangler-dev.log"),
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("buyer", buyer);
  project.provide("vendor", vendor);
  project.provide("operator", operator);
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
