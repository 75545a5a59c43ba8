import { parseArgs } from "node:util";
import { createApiClient } from "../src/auth/clients";
import { database } from "../src/db/client";
import { SCOPES } from "../src/platform/principal";
import { withLocalBindings } from "./local-platform";

/**
 * `npm run create-client -- --tenant 2 --name "Lakeside ERP" [--scopes "catalog:read orders:write"]`
 * Creates an API client in the local D1 and prints its secret once (only a hash is stored).
 * For a deployed database run it with `--remote` semantics through `wrangler d1 execute` instead; see README.
 */
const { values } = parseArgs({
  options: { tenant: { type: "string" }, name: { type: "string" }, scopes: { type: "string" } },
});
const tenantId = Number(values.tenant);
if (!Number.isInteger(tenantId) || tenantId < 1 || !values.name) {
  console.error('usage: npm run create-client -- --tenant <id> --name "<name>" [--scopes "<scope> ..."]');
  process.exit(2);
}
const scopes = values.scopes ? values.scopes.split(" ").filter(Boolean) : [...SCOPES];
const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
if (unknown.length > 0) {
  console.error(`unknown scopes: ${unknown.join(", ")}; valid: ${SCOPES.join(" ")}`);
  process.exit(2);
}
const client = await withLocalBindings(async (env) => {
  const tenant = await env.DB.prepare("SELECT id FROM tenants WHERE id = ?1").bind(tenantId).first();
  if (!tenant) throw new Error(`tenant ${tenantId} does not exist (run npm run seed first)`);
  return createApiClient(database(env.DB), { tenantId, name: values.name!, scopes });
});
console.log(`client_id=${client.clientId}`);
console.log(`client_secret=${client.clientSecret}`);
console.log("Store the secret now: it is not shown again and only its hash is kept.");
