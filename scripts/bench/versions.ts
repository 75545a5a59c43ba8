import { Hono } from "hono";
import { fieldRenamed } from "../../src/dev/version-changes";
import type { AppEnv } from "../../src/env";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import type { VersionChange } from "../../src/platform/versions/change";
import { apiVersioning } from "../../src/platform/versions/middleware";
import { deleteAnswers204 } from "../../src/versions/changes/2026-11-25-delete-answers-204";
import { cliArgs } from "../cli";

/**
 * `npm run bench:versions`: the CPU the dated versions add to a request, per version back (docs/benchmarks.md, "Dated
 * API versions"). The versioning middleware and a request's walk forward run in Node on a bare Hono app whose routes
 * answer at once, so the only work measured is the versions'. Only one breaking change is released, so "two versions
 * back" adds a second change to walk on the same operations: a field renamed both ways, the kind of change a request
 * transform exists for. Each case runs `--requests` times after a warm-up; CPU microseconds per request, side by side.
 */

const { values } = cliArgs("bench:versions", "The CPU the dated versions add to a request, per version back, measured in Node.", {
  requests: { type: "string", default: "20000", help: "requests per case after a warm-up", value: "<n>" },
});
const requests = Number(values.requests);
const ENDPOINTS = "/customer/api/webhook-endpoints";

/** A second change, as a later release would add one: `url` was `endpointUrl`, in requests and in answers. */
const secondChange = fieldRenamed([`post ${ENDPOINTS}`, `delete ${ENDPOINTS}/{id}`], { before: "endpointUrl", after: "url" });

function appWith(changes: readonly VersionChange[]) {
  const app = new Hono<AppEnv>();
  app.use("*", apiVersioning(changes));
  app.use(`${ENDPOINTS}/*`, async (c, next) => {
    await c.get("walkRequestForward")?.();
    await next();
  });
  app.use(ENDPOINTS, async (c, next) => {
    await c.get("walkRequestForward")?.();
    await next();
  });
  app.post(ENDPOINTS, async (c) => c.json({ success: true, data: { id: "we_1", ...(await c.req.json<object>()) } }, 201));
  app.delete(`${ENDPOINTS}/:id`, (c) => c.body(null, 204));
  return app;
}

const post = (version: string) =>
  new Request(`https://bench.example${ENDPOINTS}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Medparts-Version": version },
    body: JSON.stringify({ endpointUrl: "https://receiver.example.com/hook", eventTypes: ["order.created"] }),
  });
const del = (version: string) =>
  new Request(`https://bench.example${ENDPOINTS}/we_1`, { method: "DELETE", headers: { "Medparts-Version": version } });

async function cpuMicrosPerRequest(app: Hono<AppEnv>, request: () => Request): Promise<number> {
  for (let i = 0; i < 2000; i++) await (await app.fetch(request())).arrayBuffer();
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) await (await app.fetch(request())).arrayBuffer();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

const oneChange = appWith([deleteAnswers204]);
const twoChanges = appWith([deleteAnswers204, secondChange]);
const rows: [string, string, number][] = [];
for (const [operation, request] of [
  ["DELETE webhook endpoint", del],
  ["POST webhook endpoint", post],
] as const) {
  rows.push([operation, "the latest version", await cpuMicrosPerRequest(twoChanges, () => request(LATEST_VERSION))]);
  rows.push([operation, "one change back (released)", await cpuMicrosPerRequest(oneChange, () => request(FIRST_VERSION))]);
  rows.push([operation, "two changes back", await cpuMicrosPerRequest(twoChanges, () => request(FIRST_VERSION))]);
}
console.log(`npm run bench:versions (${requests} requests each, Node ${process.version})\n`);
console.log("| Operation | Answered at | CPU µs per request | vs the latest |\n|---|---|---:|---:|");
for (const [operation, at, micros] of rows) {
  const latest = rows.find(([op, a]) => op === operation && a === "the latest version")![2];
  console.log(`| ${operation} | ${at} | ${micros.toFixed(1)} | +${(micros - latest).toFixed(1)} |`);
}
