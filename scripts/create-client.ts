import { parseArgs } from "node:util";
import { createApiClient } from "../src/auth/clients";
import { database } from "../src/db/client";
import { SCOPES, VENDOR_SCOPES } from "../src/platform/principal";
import { withLocalBindings } from "./local-platform";

/**
 * `npm run create-client -- --tenant 2 --name "Lakeside ERP" [--scopes "catalog:read orders:write"]`
 * `npm run create-client -- --vendor 4 --name "OEM Distribution WMS" [--scopes "fulfilment:read"]`
 * Creates a buyer tenant's client (customer API) or a vendor's client (vendor API) in the local D1 and prints its
 * secret once (only a hash is stored). For a deployed database see README.
 */
const { values } = parseArgs({
  options: { tenant: { type: "string" }, vendor: { type: "string" }, name: { type: "string" }, scopes: { type: "string" } },
});
const usage = () => {
  console.error('usage: npm run create-client -- (--tenant <id> | --vendor <id>) --name "<name>" [--scopes "<scope> ..."]');
  process.exit(2);
};
const forVendor = values.vendor !== undefined;
if (forVendor === (values.tenant !== undefined) || !values.name) usage();
const ownerId = Number(forVendor ? values.vendor : values.tenant);
if (!Number.isInteger(ownerId) || ownerId < 1) usage();
const valid: readonly string[] = forVendor ? VENDOR_SCOPES : SCOPES;
const scopes = values.scopes ? values.scopes.split(" ").filter(Boolean) : [...valid];
const unknown = scopes.filter((s) => !valid.includes(s));
if (unknown.length > 0) {
  console.error(`unknown scopes: ${unknown.join(", ")}; valid for a ${forVendor ? "vendor" : "tenant"}: ${valid.join(" ")}`);
  process.exit(2);
}
const client = await withLocalBindings(async (env) => {
  const table = forVendor ? "vendors" : "tenants";
  const owner = await env.DB.prepare(`SELECT id FROM ${table} WHERE id = ?1`).bind(ownerId).first();
  if (!owner) throw new Error(`${forVendor ? "vendor" : "tenant"} ${ownerId} does not exist (run npm run seed first)`);
  const name = values.name!;
  return createApiClient(database(env.DB), forVendor ? { vendorId: ownerId, name, scopes } : { tenantId: ownerId, name, scopes });
});
console.log(`client_id=${client.clientId}`);
console.log(`client_secret=${client.clientSecret}`);
console.log("Store the secret now: it is not shown again and only its hash is kept.");
