import { parseArgs } from "node:util";
import { type ClientOwner, clientKind, SCOPES_OF_KIND } from "../../src/shared/auth/clients";

export const USAGE = `usage: npm run create-client -- (--tenant <id> [--test] | --vendor <id> | --operator) --name "<name>" [--scopes "<scope> ..."]

Creates an API client in the local D1 and prints its secret once (only a hash is stored).
  --tenant <id>       a buyer tenant's client (customer API); with --test, a test-mode client (the sandbox, id mpc_test_...)
  --vendor <id>       a vendor's client (vendor API)
  --operator          an operator client (/admin/api)
  --name "<name>"     the client's name (required)
  --scopes "<s> ..."  space-separated scopes of its kind (default: all of them)
  -h, --help          this text`;

export interface CreateClientOptions {
  owner: ClientOwner;
  name: string;
  scopes: string[];
  test: boolean;
}

const OPTIONS = {
  tenant: { type: "string" },
  vendor: { type: "string" },
  operator: { type: "boolean" },
  name: { type: "string" },
  scopes: { type: "string" },
  test: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
const readArgs = (args: string[]) => parseArgs({ args, options: OPTIONS, strict: true });

/** The command line as options, or the message of a usage error (exit 2; an empty message for --help, exit 0). */
export function parseCreateClientArgs(argv: readonly string[]): CreateClientOptions | { usageError: string } {
  let values: ReturnType<typeof readArgs>["values"];
  try {
    values = readArgs([...argv]).values;
  } catch (error) {
    return { usageError: (error as Error).message };
  }
  if (values.help) return { usageError: "" };
  const kinds = [values.tenant !== undefined, values.vendor !== undefined, values.operator === true].filter(Boolean).length;
  if (kinds !== 1) return { usageError: "Give exactly one of --tenant, --vendor and --operator." };
  if (!values.name) return { usageError: "Give the client a --name." };
  if (values.test && values.tenant === undefined) return { usageError: "--test makes a test-mode buyer client: it needs --tenant." };
  let owner: ClientOwner = { operator: true };
  if (!values.operator) {
    const text = values.vendor ?? values.tenant!;
    const id = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1)
      return { usageError: `An owner id is a whole number from 1, not "${text}".` };
    owner = values.vendor !== undefined ? { vendorId: id } : { tenantId: id };
  }
  const kind = clientKind(owner);
  const valid: readonly string[] = SCOPES_OF_KIND[kind];
  const scopes = values.scopes ? values.scopes.split(" ").filter(Boolean) : [...valid];
  const unknown = scopes.filter((s) => !valid.includes(s));
  if (unknown.length > 0) return { usageError: `Unknown scopes: ${unknown.join(", ")}; valid for a ${kind} client: ${valid.join(" ")}` };
  return { owner, name: values.name, scopes, test: values.test ?? false };
}
