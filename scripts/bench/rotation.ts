import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run bench:rotation`: a client's secret rotated under load, with the token endpoint's rate limits lifted (docs/benchmarks.md, "Secret rotation"). Integration
 * instances (`--instances`) keep requesting tokens with whichever secret each has, one request every `--interval-ms`;
 * after a while the operator rotates the secret with an overlap (`--overlap`, seconds), and the instances switch to the
 * new secret one by one, at random times within the overlap's first half. Counted: every token request and every
 * failure (any answer but 200). After the old secret's expiry, a probe with it every 250 ms measures how long it was
 * still accepted.
 */
const { values } = cliArgs(
  "bench:rotation",
  "Rotates a client secret while instances keep requesting tokens; counts failures and how long the old secret worked.",
  {
    instances: { type: "string", default: "4", help: "client instances requesting tokens", value: "<n>" },
    "interval-ms": { type: "string", default: "100", help: "ms between token requests of an instance", value: "<ms>" },
    overlap: { type: "string", default: "10", help: "seconds both secrets are live", value: "<s>" },
    before: { type: "string", default: "5", help: "seconds of requests before the rotation", value: "<s>" },
    port: ownRuntimePort("8796", "bench"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { createApiClient },
  { randomToken },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { fetchToken },
  { machineFacts },
  { startServer },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./report"),
  import("./server"),
]);

const instances = Number(values.instances);
const intervalMs = Number(values["interval-ms"]);
const overlapSeconds = Number(values.overlap);
const beforeSeconds = Number(values.before);
const state = { persistTo: path.join(".wrangler/bench-rotation") };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
await seedLocal(600, state);
const operator = { clientId: `mpo_bench_${randomToken(6)}`, clientSecret: randomToken(24) };
const integration = { clientId: `mpc_bench_${randomToken(6)}`, clientSecret: randomToken(24) };
await withLocalBindings(async (env) => {
  await createApiClient(database(env.DB), { operator: true, name: "Rotation bench operator", ...operator });
  await createApiClient(database(env.DB), { tenantId: 1, name: "Rotation bench integration", ...integration });
}, state);

// The token endpoint's own limits (30 a minute per client) are not what is measured: generous ones for the run.
const server = await startServer({
  port: Number(values.port),
  ...state,
  vars: { TOKEN_RATE_LIMIT_PER_MINUTE: "100000", TOKEN_RATE_LIMIT_BURST: "10000" },
  logFile: path.join(state.persistTo, "wrangler.log"),
});
const tokenStatus = async (secret: string) =>
  (
    await fetch(`${server.baseUrl}/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: integration.clientId, client_secret: secret }),
    })
  ).status;

const counts = { requests: 0, failures: 0, withOld: 0, withNew: 0 };
const failures: string[] = [];
let stopping = false;
try {
  const operatorToken = await fetchToken(server.baseUrl, operator.clientId, operator.clientSecret);
  const secrets = Array.from({ length: instances }, () => integration.clientSecret);
  const instance = async (i: number) => {
    while (!stopping) {
      const secret = secrets[i]!;
      const status = await tokenStatus(secret);
      counts.requests++;
      if (secret === integration.clientSecret) counts.withOld++;
      else counts.withNew++;
      if (status !== 200) {
        counts.failures++;
        failures.push(`instance ${i}: ${status} at ${new Date().toISOString()}`);
      }
      await sleep(intervalMs);
    }
  };
  const running = secrets.map((_, i) => instance(i));
  await sleep(beforeSeconds * 1000);

  const rotated = await fetch(`${server.baseUrl}/admin/api/clients/${integration.clientId}/secrets`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify({ previousExpiresInSeconds: overlapSeconds }),
  });
  if (rotated.status !== 201) throw new Error(`rotation answered ${rotated.status}: ${await rotated.text()}`);
  const { data } = (await rotated.json()) as { data: { secret: string; client: { secrets: { slot: string; expiresAt: string }[] } } };
  const expiresAt = Date.parse(data.client.secrets.find((s) => s.slot === "previous")!.expiresAt);
  // Each instance gets the new secret at a random time within the overlap's first half.
  const switched = secrets.map((_, i) =>
    sleep(Math.random() * (overlapSeconds * 500)).then(() => {
      secrets[i] = data.secret;
    }),
  );
  await Promise.all(switched);
  await sleep(Math.max(0, expiresAt - Date.now()));
  stopping = true;
  await Promise.all(running);

  // The old secret after its expiry: how long until it is refused.
  let refusedAfterMs: number | null = null;
  for (let probe = 0; probe < 240; probe++) {
    if ((await tokenStatus(integration.clientSecret)) === 401) {
      refusedAfterMs = Date.now() - expiresAt;
      break;
    }
    await sleep(250);
  }
  const newSecretWorks = (await tokenStatus(data.secret)) === 200;

  const machine = machineFacts();
  console.log(`
Secret rotation under load: ${instances} instances, a token request each every ${intervalMs} ms, overlap ${overlapSeconds} s
(${machine.cpus}, ${machine.cores} cores, Node ${machine.node})

| Token requests | with the old secret | with the new | failed | old secret refused after its expiry | new secret works after |
|---:|---:|---:|---:|---:|---|
| ${counts.requests} | ${counts.withOld} | ${counts.withNew} | ${counts.failures} | ${refusedAfterMs === null ? "not within 60 s" : `${(refusedAfterMs / 1000).toFixed(2)} s`} | ${newSecretWorks ? "yes" : "NO"} |
`);
  for (const failure of failures.slice(0, 10)) console.log(`  ${failure}`);
  if (counts.failures > 0 || refusedAfterMs === null || refusedAfterMs > 30_000 || !newSecretWorks) process.exitCode = 1;
} finally {
  stopping = true;
  await server.stop();
}
