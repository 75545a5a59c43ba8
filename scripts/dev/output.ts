import { DEFAULT_PORT } from "../cli";

/**
 * What `npm start` shows of `wrangler dev` (scripts/dev/start.ts): each Worker's bindings table once (wrangler prints the
 * API Worker's twice), no "types might be out of date" (false here: `npm test` checks the generated types), no note on
 * connecting other dev sessions, one line per request (wrangler's; the API's own JSON access log line is dropped,
 * other log lines stay) but for the local crons' own (scripts/dev/local-crons.ts: their handlers' log lines show) and the
 * stores' seed, and, once the runtime is ready for use, the start banner: the URLs, the demo credentials and what to
 * do next, where it cannot scroll away under wrangler's start-up output.
 */

import { DEV_SCHEDULED_PATH } from "./scheduled";
import { DEV_SEED_STORES_PATH } from "./seed-route";

const TABLE_HEADER = /^(\S+) has access to the following bindings:$/;
const DROPPED = [/Your types might be out of date/, /^Service bindings, Durable Object bindings, and Tail consumers connect to/];
/**
 * The local crons' calls, every minute (scripts/dev/local-crons.ts; what their handlers log is what says they ran), and
 * the stores' seed at the start.
 */
const LOCAL_DEV_REQUEST = new RegExp(`^\\[wrangler:info\\] POST (${DEV_SCHEDULED_PATH}|${DEV_SEED_STORES_PATH})\\b`);
/** The API's structured access log: wrangler's own request line says the same. */
const ACCESS_LOG = /^\[[\w-]+\] \{.*"method":.*"path":.*"status":/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what it removes
const ANSI = /\x1b\[[0-9;]*m/g;

export class DevOutput {
  private readonly tablesShown = new Set<string>();
  private skippingTable = false;
  private bannerShown = false;

  constructor(private readonly banner: () => string) {}

  /** The lines to print for one line of wrangler's output. */
  line(text: string): string[] {
    const plain = text.replace(ANSI, "");
    if (this.skippingTable) {
      if (plain.trim() === "") this.skippingTable = false;
      return [];
    }
    const table = TABLE_HEADER.exec(plain.trim());
    if (table) {
      if (this.tablesShown.has(table[1]!)) {
        this.skippingTable = true;
        return [];
      }
      this.tablesShown.add(table[1]!);
      return [text];
    }
    if (DROPPED.some((pattern) => pattern.test(plain)) || ACCESS_LOG.test(plain) || LOCAL_DEV_REQUEST.test(plain)) return [];
    return [text];
  }

  /** The banner's lines, once: when the runtime is ready for use (it answers and the demo stores are seeded). */
  prepared(): string[] {
    if (this.bannerShown) return [];
    this.bannerShown = true;
    return this.banner().split("\n");
  }
}

export interface DemoCredentials {
  buyer: { clientId: string; clientSecret: string };
  testMode: { clientId: string; clientSecret: string };
  vendor: { clientId: string; clientSecret: string; vendorId: number };
  operator: { clientId: string; clientSecret: string };
  scimToken: string;
  /** The demo vendor's admin's invitation to the order desk (a path under the base URL), made at each start. */
  deskInvitation?: string;
}

/** The start banner: one block with the URLs, a table of the demo credentials and the next steps. */
export function startBanner(base: string, demo: DemoCredentials, demoFile: string): string {
  const rows: [string, string, string][] = [
    ["Buyer, tenant 1 (customer API)", demo.buyer.clientId, demo.buyer.clientSecret],
    ["Buyer, tenant 1, test mode", demo.testMode.clientId, demo.testMode.clientSecret],
    [`Vendor ${demo.vendor.vendorId} (vendor API)`, demo.vendor.clientId, demo.vendor.clientSecret],
    ["Operator (/admin/api)", demo.operator.clientId, demo.operator.clientSecret],
    ["SCIM, tenant 1 (bearer token)", `${base}/scim/v2`, demo.scimToken],
  ];
  const header: [string, string, string] = ["Who", "client_id / URL", "client_secret / token"];
  const width = (i: 0 | 1) => Math.max(header[i].length, ...rows.map((row) => row[i].length));
  const row = (cells: [string, string, string]) => `    ${cells[0].padEnd(width(0))}  ${cells[1].padEnd(width(1))}  ${cells[2]}`;
  const rule = `    ${"-".repeat(width(0))}  ${"-".repeat(width(1))}  ${"-".repeat(Math.max(header[2].length, ...rows.map((r) => r[2].length)))}`;
  // The scripts call http://localhost:8787 unless told: on another port they need --url (PORT is npm start's own).
  const url = base === `http://localhost:${DEFAULT_PORT}` ? "" : ` --url ${base}`;
  const next = (command: string, what: string) => `    ${command.padEnd(28)} ${what}`;
  return [
    "",
    "================================================================================",
    "  Medparts is running",
    "",
    `    API       ${base}            (contract: ${base}/customer/api/openapi.json)`,
    `    Portal    ${base}/docs       (guides and API references with Try-it)`,
    `    Desk      ${base}/desk       (the vendors' order desk; sign in with a passkey)`,
    ...(demo.deskInvitation
      ? [`              the demo vendor's admin creates a passkey at (once, within 24 h): ${base}${demo.deskInvitation}`]
      : []),
    "",
    `  Demo credentials (kept in ${demoFile}):`,
    row(header),
    rule,
    ...rows.map(row),
    "",
    "  Next:",
    next(`npm run demo${url ? ` --${url}` : ""}`, "the integrator flow: token, search, price options, an order, its events"),
    `    open ${base}/docs   read the guides; Authorize in a reference with a client above`,
    next(`npm run webhook-listener${url ? ` --${url}` : ""}`, "receive tenant 1's webhooks, verified, with their signing secret"),
    next(`npm run import -- <file>${url}`, "load a catalog file as the operator (--help for the formats)"),
    "================================================================================",
    "",
  ].join("\n");
}
