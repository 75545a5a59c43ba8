import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run bench:onboarding`: a health system onboarded the way it would be in production (docs/benchmarks.md,
 * "Onboarding"). The operator, through /admin/api: the tenant, a company, `--facilities` facilities and a SCIM token.
 * Then the identity provider, through /scim/v2 with that token and `--concurrency` requests in flight (Entra ID and
 * Okta provision in parallel): one group per facility (named by the facility's externalId), `--users` users, and each
 * group's members added by PATCH in lists of up to 100, as Entra ID sends them. Like an identity provider, it waits out
 * a 429's Retry-After and retries (the SCIM token's bucket: 6,000 a minute, burst 300). Checked at the end: the SCIM user count,
 * and a provisioned user's facility access as the customer API reports it. A bar shows progress; the summary reports
 * the time and rows/s of each phase.
 */
const { values } = cliArgs(
  "bench:onboarding",
  "Onboards a health system (facilities, then users over SCIM) on the local runtime and reports rows/s.",
  {
    facilities: { type: "string", default: "50", help: "facilities to create", value: "<n>" },
    users: { type: "string", default: "5000", help: "users to provision", value: "<n>" },
    concurrency: { type: "string", default: "8", help: "SCIM requests at once", value: "<n>" },
    port: ownRuntimePort("8797", "bench"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { default: cliProgress },
  { database },
  { createApiClient },
  { randomToken },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { fetchToken },
  { machineFacts },
  { startServer },
] = await Promise.all([
  import("cli-progress"),
  import("../../src/db/client"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./report"),
  import("./server"),
]);

const facilityCount = Number(values.facilities);
const userCount = Number(values.users);
const concurrency = Number(values.concurrency);
const state = { persistTo: path.join(".wrangler/bench-onboarding") };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
await seedLocal(600, state);
const operator = { clientId: `mpo_bench_${randomToken(6)}`, clientSecret: randomToken(24) };
await withLocalBindings(async (env) => {
  await createApiClient(database(env.DB), { operator: true, name: "Onboarding bench operator", ...operator });
}, state);

const server = await startServer({ port: Number(values.port), ...state, logFile: path.join(state.persistTo, "wrangler.log") });

/** Throttled answers (429), each waited out for its Retry-After and retried, as identity providers do. */
let throttled = 0;

async function request<T>(url: string, token: string, method: string, body?: unknown, expected = [200, 201]): Promise<T> {
  for (;;) {
    const res = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/scim+json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 429) {
      throttled++;
      await res.body?.cancel();
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      continue;
    }
    if (!expected.includes(res.status)) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }
}

/** Runs `work` for 0..count-1 with `concurrency` in flight, ticking the bar. */
async function inParallel(count: number, bar: import("cli-progress").SingleBar, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await work(i);
      bar.increment();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

const phases: { phase: string; rows: number; seconds: number }[] = [];
async function phase(name: string, rows: number, work: (bar: import("cli-progress").SingleBar) => Promise<void>): Promise<void> {
  const bar = new cliProgress.SingleBar(
    { format: `${name.padEnd(26)} {bar} {value}/{total} | {rate} rows/s`, barsize: 30, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(rows, 0, { rate: "-" });
  const timer = setInterval(
    () => bar.update({ rate: ((bar.getProgress() * rows) / ((performance.now() - started) / 1000)).toFixed(0) }),
    500,
  );
  try {
    await work(bar);
  } finally {
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    bar.update({ rate: (rows / seconds).toFixed(0) });
    bar.stop();
    phases.push({ phase: name, rows, seconds });
  }
}

try {
  const operatorToken = await fetchToken(server.baseUrl, operator.clientId, operator.clientSecret);
  const admin = <T>(url: string, body?: unknown) =>
    request<{ data: T }>(`/admin/api${url}`, operatorToken, body === undefined ? "GET" : "POST", body);
  const run = randomToken(4);
  const started = performance.now();

  let scimToken = "";
  const facilityIds: string[] = [];
  await phase("admin: tenant, facilities", facilityCount + 3, async (bar) => {
    const tenant = await admin<{ tenantId: number }>("/tenants", { externalId: `HS-${run}`, name: "Bench Health System" });
    bar.increment();
    const company = await admin<{ companyId: number }>("/companies", {
      externalId: `CO-${run}`,
      tenantId: tenant.data.tenantId,
      name: "Bench Medical Center",
    });
    bar.increment();
    await inParallel(facilityCount, bar, async (i) => {
      const externalId = `FAC-${run}-${String(i).padStart(3, "0")}`;
      await admin("/facilities", { externalId, companyId: company.data.companyId, name: `Bench facility ${i}` });
      facilityIds[i] = externalId;
    });
    scimToken = (await admin<{ token: string }>(`/tenants/${tenant.data.tenantId}/scim-tokens`, { name: "Bench IdP" })).data.token;
    bar.increment();
  });

  const scim = <T>(url: string, method: string, body?: unknown) => request<T>(`/scim/v2${url}`, scimToken, method, body);
  const groupIds: string[] = [];
  await phase("SCIM: groups", facilityCount, (bar) =>
    inParallel(facilityCount, bar, async (i) => {
      groupIds[i] = (await scim<{ id: string }>("/Groups", "POST", { displayName: facilityIds[i], externalId: crypto.randomUUID() })).id;
    }),
  );

  const userIds: string[] = [];
  await phase("SCIM: users", userCount, (bar) =>
    inParallel(userCount, bar, async (i) => {
      const userName = `user${i}.${run}@bench-health.example`;
      const user = await scim<{ id: string }>("/Users", "POST", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        externalId: crypto.randomUUID(),
        userName,
        active: true,
        displayName: `User ${i}`,
        name: { givenName: "User", familyName: String(i) },
        emails: [{ primary: true, type: "work", value: userName }],
      });
      userIds[i] = user.id;
    }),
  );

  // Each user in one facility's group; members added 100 per PATCH.
  const patches = Array.from({ length: facilityCount }, (_, g) => userIds.filter((_, i) => i % facilityCount === g)).flatMap((members, g) =>
    Array.from({ length: Math.ceil(members.length / 100) }, (_, k) => ({
      group: groupIds[g]!,
      members: members.slice(k * 100, k * 100 + 100),
    })),
  );
  await phase("SCIM: group members", patches.length, (bar) =>
    inParallel(patches.length, bar, async (i) => {
      const { group, members } = patches[i]!;
      await scim(`/Groups/${group}?excludedAttributes=members`, "PATCH", {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "Add", path: "members", value: members.map((value) => ({ value })) }],
      });
    }),
  );
  const totalSeconds = (performance.now() - started) / 1000;

  const listed = await scim<{ totalResults: number }>("/Users?count=0", "GET");
  const sampleGroup = await scim<{
    members: unknown[];
    "urn:medparts:params:scim:schemas:extension:medparts:2.0:Group": { facilityId: number };
  }>(`/Groups/${groupIds[0]}`, "GET");
  const checks = {
    users: listed.totalResults === userCount,
    members: sampleGroup.members.length === Math.ceil(userCount / facilityCount),
    facility: sampleGroup["urn:medparts:params:scim:schemas:extension:medparts:2.0:Group"].facilityId > 0,
  };

  const machine = machineFacts();
  console.log(`
Onboarding a health system through SCIM: ${facilityCount} facilities, ${userCount} users, ${concurrency} requests in flight
(${machine.cpus}, ${machine.cores} cores, Node ${machine.node})

| Phase | Rows | Seconds | Rows/s |
|---|---:|---:|---:|
${phases.map((p) => `| ${p.phase} | ${p.rows} | ${p.seconds.toFixed(1)} | ${(p.rows / p.seconds).toFixed(0)} |`).join("\n")}
| **Total** | | **${totalSeconds.toFixed(1)}** | |

Throttled (429, waited out and retried): ${throttled} answers. Checks: ${userCount} users listed by SCIM: ${checks.users ? "yes" : "NO"}; a group's members: ${checks.members ? "yes" : "NO"}; groups grant their facility: ${checks.facility ? "yes" : "NO"}
`);
  if (!Object.values(checks).every(Boolean) || totalSeconds > 120) process.exitCode = 1;
} finally {
  await server.stop();
}
