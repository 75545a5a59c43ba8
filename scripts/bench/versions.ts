import { Hono } from "hono";
import { fieldRenamed } from "../../src/dev/version-changes";
import type { AppEnv } from "../../src/env";
import { handleError } from "../../src/platform/error-handler";
import { BusinessRuleError, ValidationError } from "../../src/platform/errors";
import { centsToText } from "../../src/platform/money";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import type { VersionChange } from "../../src/platform/versions/change";
import { apiVersioning } from "../../src/platform/versions/middleware";
import { VERSION_CHANGES } from "../../src/versions";
import { cliArgs } from "../cli";

/**
 * `npm run bench:versions`: the CPU the dated versions add to a request (docs/benchmarks.md, "Dated API versions"),
 * measured in Node on a bare Hono app with the released version changes, whose routes answer at once with answers of a
 * realistic size: so the only work measured is the versions'. Each case answers at the latest version and at the first
 * (every change walked back); `--requests` times after a warm-up, CPU microseconds per request side by side. A last
 * case adds a change not released (a field renamed both ways) to show what one more request transform costs.
 */

const { values } = cliArgs("bench:versions", "The CPU the dated versions add to a request, per version back, measured in Node.", {
  requests: { type: "string", default: "20000", help: "requests per case after a warm-up", value: "<n>" },
});
const requests = Number(values.requests);
const ORIGIN = "https://bench.example";

const option = (i: number) => ({
  priceOptionId: `po_${i}`,
  price: centsToText(124_950 + i),
  currency: "USD",
  condition: "New OEM",
  purchaseType: "exchange",
  purchaseTerms: { type: "exchange", coreCharge: centsToText(40_000), coreDueDays: 30, coreConditions: [], returnTo: null },
  listPrice: centsToText(139_900),
  customFields: [],
});
const line = (i: number) => ({
  lineId: i,
  partNumber: `PN-${i}`,
  quantity: 2,
  price: centsToText(5_539_16 + i),
  extendedPrice: centsToText(2 * (5_539_16 + i)),
  contractPrice: null,
  statusName: "Ordered",
});
const DETAIL = { success: true, data: { product: { id: "MP-0000041" }, options: Array.from({ length: 10 }, (_, i) => option(i)) } };
const ORDER = {
  success: true,
  data: { orderNumber: "ORD-1", total: "276958.00", currency: "USD", lineItems: Array.from({ length: 50 }, (_, i) => line(i)) },
};
const CREATED = { success: true, data: { orderNumber: "ORD-1", createdAt: "2026-12-07T00:00:00.000Z", eventId: "e" } };

function appWith(changes: readonly VersionChange[]) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use("*", async (c, next) => {
    c.set("correlationId", "bench");
    await next();
  });
  app.use("*", apiVersioning(changes));
  // What the bearer check does once it knows the version: bring the body forward.
  app.use("/customer/api/orders", async (c, next) => {
    await c.get("walkRequestForward")?.();
    await next();
  });
  app.post("/customer/api/catalog/detail", (c) => c.json(DETAIL, 200));
  app.get("/customer/api/orders/:orderNumber", (c) => c.json(ORDER, 200));
  app.post("/customer/api/orders", async (c) => {
    const body = await c.req.json<{ quoteItems: { price: string }[]; notes?: string }>();
    if (body.notes === "422") throw new BusinessRuleError(422, ["quoteItems[0]: price 12.51 does not equal the unit price 12.50."]);
    if (body.notes === "400") throw new ValidationError({ "quoteItems[0].quantity": ["Too small: expected number to be >=1"] });
    return c.json(CREATED, 201);
  });
  return app;
}

const at = (version: string, method: string, path: string, body?: unknown) => () =>
  new Request(`${ORIGIN}${path}`, {
    method,
    headers: { "Medparts-Version": version, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const order = (version: string, notes?: string) => {
  const price = version === LATEST_VERSION ? "12.50" : 12.5;
  return {
    quoteItems: Array.from({ length: 5 }, (_, i) => ({ priceOptionId: `po_${i}`, productId: "MP-1", quantity: 1, price })),
    ...(notes ? { notes } : {}),
  };
};

/** The one binding the answers read: the service's name in a problem. */
const ENV = { SERVICE_NAME: "medparts-bench" };

async function cpuMicrosPerRequest(app: Hono<AppEnv>, request: () => Request): Promise<number> {
  for (let i = 0; i < 2000; i++) await (await app.fetch(request(), ENV)).arrayBuffer();
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) await (await app.fetch(request(), ENV)).arrayBuffer();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

const released = appWith(VERSION_CHANGES);
const oneMore = appWith([...VERSION_CHANGES, fieldRenamed(["post /customer/api/orders"], { before: "memo", after: "notes" })]);
const CASES: [string, (version: string) => () => Request][] = [
  ["POST /catalog/detail (10 options)", (v) => at(v, "POST", "/customer/api/catalog/detail", {})],
  ["GET /orders/{orderNumber} (50 lines)", (v) => at(v, "GET", "/customer/api/orders/ORD-1")],
  ["POST /orders (5 lines, 201)", (v) => at(v, "POST", "/customer/api/orders", order(v))],
  ["POST /orders, a 422 business rule", (v) => at(v, "POST", "/customer/api/orders", order(v, "422"))],
  ["POST /orders, a 400 validation problem", (v) => at(v, "POST", "/customer/api/orders", order(v, "400"))],
];
const rows: [string, string, number][] = [];
for (const [operation, request] of CASES) {
  rows.push([operation, "the latest version", await cpuMicrosPerRequest(released, request(LATEST_VERSION))]);
  rows.push([operation, `the first version (${FIRST_VERSION})`, await cpuMicrosPerRequest(released, request(FIRST_VERSION))]);
}
rows.push(["POST /orders (5 lines, 201)", "the first, one change more", await cpuMicrosPerRequest(oneMore, CASES[2]![1](FIRST_VERSION))]);
console.log(`npm run bench:versions (${requests} requests each, Node ${process.version})\n`);
console.log("| Operation | Answered at | CPU µs per request | vs the latest |\n|---|---|---:|---:|");
for (const [operation, answered, micros] of rows) {
  const latest = rows.find(([op, a]) => op === operation && a === "the latest version")![2];
  console.log(`| ${operation} | ${answered} | ${micros.toFixed(1)} | +${(micros - latest).toFixed(1)} |`);
}
