import { database } from "../../src/db/client";
import { clientKind, createApiClient } from "../../src/shared/auth/clients";
import { describeFailure, exitOnFailure, UsageError, UserError } from "../cli";
import { parseCreateClientArgs, USAGE } from "./create-client-args";
import { missingOwnerMessage } from "./create-client-owner";

/**
 * `npm run create-client -- --tenant 2 --name "Lakeside ERP" [--scopes "catalog:read orders:write"] [--test]`
 * `npm run create-client -- --vendor 4 --name "OEM Distribution WMS" [--scopes "fulfilment:read"]`
 * `npm run create-client -- --operator --name "Catalog team" [--scopes "catalog:import"]`
 * Creates a buyer tenant's client (customer API), a vendor's client (vendor API) or an operator client (/admin/api) in
 * the local D1 and prints its secret once (only a hash is stored). `--test`: a test-mode buyer client (the sandbox; its id
 * starts with mpc_test_). `--help` lists the options. For a deployed database see README.
 */
const options = parseCreateClientArgs(process.argv.slice(2));
if ("usageError" in options) {
  if (options.usageError === "") {
    console.log(USAGE);
    process.exit(0);
  }
  console.error(describeFailure(new UsageError(options.usageError), USAGE).message);
  process.exit(2);
}
exitOnFailure(USAGE);
const { owner, name, scopes, test } = options;
const kind = clientKind(owner);
const ownerId = owner.vendorId ?? owner.tenantId;
// Loaded once the command line is sound: the local platform (Miniflare) takes seconds to load, --help none.
const { withLocalBindings } = await import("../dev/local-platform");
const client = await withLocalBindings(async (env) => {
  if (kind !== "operator") {
    const missing = await missingOwnerMessage(env.DB, kind, ownerId!);
    if (missing) throw new UserError(missing);
  }
  return createApiClient(database(env.DB), { ...owner, name, scopes, ...(test ? { testMode: true } : {}) });
});
console.log(`client_id=${client.clientId}`);
console.log(`client_secret=${client.clientSecret}`);
console.log("Store the secret now: it is not shown again and only its hash is kept.");
