import { parseArgs } from "node:util";
import { database } from "../src/db/client";
import { type ClientOwner, clientKind, createApiClient, SCOPES_OF_KIND } from "../src/shared/auth/clients";
import { withLocalBindings } from "./local-platform";

/**
 * `npm run create-client -- --tenant 2 --name "Lakeside ERP" [--scopes "catalog:read orders:write"] [--test]`
 * `npm run create-client -- --vendor 4 --name "OEM Distribution WMS" [--scopes "fulfilment:read"]`
 * `npm run create-client -- --operator --name "Catalog team" [--scopes "catalog:import"]`
 * Creates a buyer tenant's client (customer API), a vendor's client (vendor API) or an operator client (/admin/api) in
 * the local D1 and prints its secret once (only a hash is stored). `--test`: a test-mode buyer client (the sandbox; its id
 * starts with mpc_test_). For a deployed database see README.
 */
const { values } = parseArgs({
  options: {
    tenant: { type: "string" },
    vendor: { type: "string" },
    operator: { type: "boolean" },
    name: { type: "string" },
    scopes: { type: "string" },
    test: { type: "boolean" },
  },
});
const usage = () => {
  console.error(
    'usage: npm run create-client -- (--tenant <id> [--test] | --vendor <id> | --operator) --name "<name>" [--scopes "<scope> ..."]',
  );
  process.exit(2);
};
const kinds = [values.tenant !== undefined, values.vendor !== undefined, values.operator === true].filter(Boolean).length;
if (kinds !== 1 || !values.name || (values.test && values.tenant === undefined)) usage();

const ownerId = Number(values.vendor ?? values.tenant);
if (!values.operator && (!Number.isInteger(ownerId) || ownerId < 1)) usage();
const owner: ClientOwner = values.operator
  ? { operator: true }
  : values.vendor !== undefined
    ? { vendorId: ownerId }
    : { tenantId: ownerId };
const kind = clientKind(owner);
const valid: readonly string[] = SCOPES_OF_KIND[kind];
const scopes = values.scopes ? values.scopes.split(" ").filter(Boolean) : [...valid];
const unknown = scopes.filter((s) => !valid.includes(s));
if (unknown.length > 0) {
  console.error(`unknown scopes: ${unknown.join(", ")}; valid for a ${kind} client: ${valid.join(" ")}`);
  process.exit(2);
}
const client = await withLocalBindings(async (env) => {
  if (kind !== "operator") {
    const table = kind === "vendor" ? "vendors" : "tenants";
    const found = await env.DB.prepare(`SELECT id FROM ${table} WHERE id = ?1`).bind(ownerId).first();
    if (!found) throw new Error(`${kind} ${ownerId} does not exist (run npm run seed first)`);
  }
  return createApiClient(database(env.DB), { ...owner, name: values.name!, scopes, ...(values.test ? { testMode: true } : {}) });
});
console.log(`client_id=${client.clientId}`);
console.log(`client_secret=${client.clientSecret}`);
console.log("Store the secret now: it is not shown again and only its hash is kept.");
