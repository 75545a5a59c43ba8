import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { baseUrlOf, URL_OPTION_HELP } from "../cli";
import { savedDemoClients } from "../dev/local-platform";
import { OperatorApi } from "./local-import";

/**
 * `npm run migrate:tenant-stores -- [--tenant <id>]... [--again] [--switch] [--url <base>] [--client-id <id> --client-secret <secret>]`
 * copies a single-database deployment into tenant stores (docs/tenant-stores.md): for each tenant (all of them by
 * default, oldest first), one move at a time through the operator API, followed to its end with a progress bar.
 * A tenant already copied is left alone (unless --again); a move under way is resumed, not started twice: the command
 * can be stopped and run again at any point and ends where one run would have. With --switch, each move switches its
 * tenant to its stores once verified (a tenant already copied is copied again, so nothing written since is left
 * behind; a switched tenant is left alone). Exit 0 when every tenant is copied (switched, with --switch) and
 * verified equal, 1 when one is not, 2 for a usage error.
 */

interface StoreEntry {
  tenantId: number;
  state: "database" | "copying" | "copied" | "store";
  moveId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  totalRows: number | null;
  copiedRows: number | null;
  verification: { equal: boolean; error?: string; stores?: { tenantId: number; tables: { table: string; equal: boolean }[] }[] } | null;
}

const USAGE = `usage: npm run migrate:tenant-stores -- [options]
  --tenant <id>                a tenant to move (repeat for several); default: every tenant
  --again                      move tenants already copied again (a fresh copy from nothing)
  --switch                     switch each tenant to its stores once its copy is verified (no way back)
${URL_OPTION_HELP}
  --client-id <id> --client-secret <secret>
                               an operator client (scope clients:manage); default: the demo operator of .medparts-demo.json`;

const POLL_MS = 500;
/** A move whose copied rows stand still this long is asked again, which resumes its Workflow after a restart. */
const NUDGE_AFTER_MS = 10_000;

function options() {
  try {
    const { values } = parseArgs({
      options: {
        tenant: { type: "string", multiple: true },
        again: { type: "boolean" },
        switch: { type: "boolean" },
        url: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const tenants = (values.tenant ?? []).map((text) => {
      if (!/^[1-9]\d{0,9}$/.test(text)) throw new Error(`--tenant takes a tenant id (a positive whole number), not "${text}".`);
      return Number(text);
    });
    if ((values["client-id"] === undefined) !== (values["client-secret"] === undefined))
      throw new Error("Give --client-id and --client-secret together.");
    const credentials = values["client-id"]
      ? { clientId: values["client-id"], clientSecret: values["client-secret"]! }
      : savedDemoClients()?.operator;
    if (!credentials)
      throw new Error("No credentials: pass --client-id and --client-secret of an operator client, or run `npm start` first.");
    return {
      tenants,
      again: values.again ?? false,
      switchAfter: values.switch ?? false,
      url: baseUrlOf(values.url),
      credentials,
    };
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

/** A call that survives the server going away for a while (a restart): retried for up to a minute. */
async function patiently<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 120 || /answered 4\d\d/.test((error as Error).message)) throw error;
      await sleep(500);
    }
  }
}

async function everyTenant(api: OperatorApi): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += 100) {
    const { items } = await api.call<{ items: { tenantId: number }[] }>("GET", `/tenants?limit=100&offset=${offset}`);
    ids.push(...items.map((tenant) => tenant.tenantId));
    if (items.length < 100) return ids;
  }
}

const { tenants: chosen, again, switchAfter, url, credentials } = options();
/** The state each tenant must end in. */
const goal = switchAfter ? "store" : "copied";
let api = await patiently(() => OperatorApi.connect(url, credentials));
const tenants = chosen.length > 0 ? chosen : await everyTenant(api);
const entryOf = (tenantId: number) => patiently(() => api.call<StoreEntry>("GET", `/tenants/${tenantId}/store`));
const startOrResume = (tenantId: number) =>
  patiently(() => api.call<StoreEntry>("POST", `/tenants/${tenantId}/store-move`, JSON.stringify({ switch: switchAfter })));

const interactive = process.stderr.isTTY;
const bar = new cliProgress.SingleBar(
  { format: "{tenant} [{bar}] {value}/{total} rows | {rate} rows/s | {done}/{tenants} tenants", hideCursor: true, stream: process.stderr },
  cliProgress.Presets.shades_classic,
);
const outcomes: StoreEntry[] = [];
const began = Date.now();
let rowsBefore = 0;

for (const [index, tenantId] of tenants.entries()) {
  let entry = await entryOf(tenantId);
  if (entry.state === "store" || (entry.state === goal && !again)) {
    outcomes.push(entry);
    continue;
  }
  entry = entry.state === "copying" ? entry : await startOrResume(tenantId);
  const started = Date.now();
  let lastCopied = -1;
  let stillSince = Date.now();
  if (interactive) bar.start(1, 0, { tenant: `tenant ${tenantId}`, rate: 0, done: index, tenants: tenants.length });
  while (entry.state === "copying") {
    await sleep(POLL_MS);
    try {
      entry = await entryOf(tenantId);
    } catch {
      api = await patiently(() => api.reconnect(url));
      continue;
    }
    const copied = entry.copiedRows ?? 0;
    if (copied !== lastCopied) [lastCopied, stillSince] = [copied, Date.now()];
    else if (Date.now() - stillSince > NUDGE_AFTER_MS) {
      entry = await startOrResume(tenantId);
      stillSince = Date.now();
    }
    const rate = Math.round(copied / Math.max(0.001, (Date.now() - started) / 1000));
    if (interactive) {
      bar.setTotal(Math.max(1, entry.totalRows ?? 1));
      bar.update(copied, { rate });
    }
  }
  if (interactive) bar.stop();
  rowsBefore += entry.copiedRows ?? 0;
  const seconds =
    (Date.parse(entry.finishedAt ?? new Date().toISOString()) - Date.parse(entry.startedAt ?? new Date().toISOString())) / 1000;
  console.log(
    `tenant ${tenantId}: ${entry.state}, ${entry.copiedRows ?? 0} rows in ${seconds.toFixed(1)} s ` +
      `(${Math.round((entry.copiedRows ?? 0) / Math.max(seconds, 0.001))} rows/s)` +
      (entry.verification?.equal ? ", verified equal" : `, NOT VERIFIED: ${entry.verification?.error ?? unequalTables(entry).join(", ")}`),
  );
  outcomes.push(entry);
}

function unequalTables(entry: StoreEntry): string[] {
  return (entry.verification?.stores ?? []).flatMap((store) =>
    store.tables.filter((t) => !t.equal).map((t) => `${store.tenantId}/${t.table}`),
  );
}

const copied = outcomes.filter((entry) => entry.state === goal || entry.state === "store");
const seconds = (Date.now() - began) / 1000;
console.log(
  `${copied.length}/${outcomes.length} tenants ${switchAfter ? "switched" : "copied and verified"}; ${rowsBefore} rows moved in ${seconds.toFixed(1)} s ` +
    `(${Math.round(rowsBefore / Math.max(seconds, 0.001))} rows/s)`,
);
if (copied.length !== outcomes.length) process.exitCode = 1;
