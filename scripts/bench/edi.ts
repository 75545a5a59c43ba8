import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { cliArgs, ownRuntimePort, UsageError } from "../cli";

/**
 * `npm run bench:edi`: the targets of issue 67 (docs/benchmarks.md, "X12 EDI"), on the local runtime under
 * `wrangler dev` (the API Worker and the operator plane's, which runs price files), as bench:offers runs it:
 * - an inbound 856 of `--lines` items for real order lines of the demo vendor (orders of 50 lines placed first):
 *   the CPU of reading and mapping it in-process (readX12 + shipmentsFrom856, pure functions), then its application
 *   through the vendor API as applyInboundGroup does it (one POST /vendor/api/shipments per order and parcel, one after
 *   the other), the same items of other lines sent as single ship requests `--concurrency` at a time (and each order's
 *   one after another, the orders side by side), and the first group again (a retry: every item already shipped);
 * - an 832 of `--rows` LINs for products of the seeded catalog (their unit GTINs): the CPU of reading and mapping it
 *   (readX12 + priceFileFrom832), then its price file job started by applyInboundGroup (NDJSON rows at
 *   /vendor/api/offer-imports) against the same rows sent as price files are today (CSV by GTIN, and NDJSON by product
 *   id as bench:offers sends them), each from the job's creation to its end, in one run, as ratios.
 * The apply calls go to the runtime over HTTP through wrangler dev's proxy (the gateway calls the API Worker through
 * its service binding), so wall-clock figures include a loopback hop per call. workerd CPU is the runtime's process
 * CPU over each step (utime + stime from /proc, every Worker and local D1/DO of the runtime, 10 ms ticks): a proxy for
 * the per-request CPU that wrangler does not report.
 */
const { values } = cliArgs("bench:edi", "X12 EDI: an inbound 856 and an 832 price catalog read, mapped and applied on the local runtime.", {
  lines: { type: "string", default: "200", help: "items of the 856 (order lines shipped)", value: "<n>" },
  rows: { type: "string", default: "10000", help: "LINs of the 832", value: "<n>" },
  products: { type: "string", default: "10000", help: "catalog size", value: "<n>" },
  concurrency: { type: "string", default: "8", help: "ship requests at a time in the concurrent variant", value: "<n>" },
  "cpu-seconds": { type: "string", default: "2", help: "CPU seconds spent repeating each in-process read + map", value: "<s>" },
  port: ownRuntimePort("8791", "bench"),
});

const positive = (text: string, flag: string) => {
  const value = Number(text);
  if (!(value > 0)) throw new UsageError(`${flag} must be a positive number, got ${text}`);
  return value;
};
const LINES = Math.floor(positive(values.lines, "--lines"));
const ROWS = Math.floor(positive(values.rows, "--rows"));
const PRODUCTS = Math.floor(positive(values.products, "--products"));
const CONCURRENCY = Math.floor(positive(values.concurrency, "--concurrency"));
const CPU_SECONDS = positive(values["cpu-seconds"], "--cpu-seconds");
const PORT = Math.floor(positive(values.port, "--port"));

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { generateDeviceIdentifiers, productId },
  { createApiClient },
  { randomToken },
  { applyInboundGroup },
  { vendorApi },
  { mapInboundGroup },
  { priceFileFrom832 },
  { shipmentsFrom856 },
  { readX12 },
  { writeInterchange },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { createBenchClient, fetchToken, send, authedGet, jsonPost, API_PREFIX },
  { machineSummary },
  { BENCH_VARS, workerdsCpuMs },
  { REQUESTER },
  { startServer },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/dev/seed/catalog"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../../src/operator/edi/apply/apply"),
  import("../../src/operator/edi/apply/vendor-api"),
  import("../../src/operator/edi/mapping/inbound-sets"),
  import("../../src/operator/edi/mapping/price-catalog"),
  import("../../src/operator/edi/mapping/ship-notice"),
  import("../../src/operator/edi/x12/reader"),
  import("../../src/operator/edi/x12/writer"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./report"),
  import("./runtime"),
  import("./scenarios"),
  import("./server"),
]);
type WriteSegment = import("../../src/operator/edi/x12/writer").WriteSegment;
type FunctionalGroup = import("../../src/operator/edi/x12/document").FunctionalGroup;
type VendorApi = import("../../src/operator/edi/apply/vendor-api").VendorApi;
type OfferDefaults = import("../../src/operator/edi/mapping/price-catalog").OfferDefaults;

/** The demo vendor (every demo product's new OEM offer: the lines shipped) and the offers bench's vendor (the 832s). */
const SHIPPING_VENDOR = 4;
const CATALOG_VENDOR = 6;
/** The orders API's most lines of an order (ORDER_LIMITS.maxLines). */
const ORDER_LINES = 50;
/** Lines shipped, and rows priced, before measuring (the runtime's first requests). */
const WARM_UP = 10;
const PARTNER = { documents: ["856", "832"] as ("856" | "832")[] };
const DEFAULTS: OfferDefaults = { condition: "New OEM", purchaseChoice: "Buy", warranty: "12 months", leadTimeDays: 3 };
const state = { persistTo: path.join(".wrangler/bench-edi", String(PRODUCTS)) };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
console.log(`Seeding ${PRODUCTS} products into ${state.persistTo} ...`);
await seedLocal(PRODUCTS, state);
const clients = await withLocalBindings(async (env) => {
  const vendorClient = (vendorId: number, name: string) =>
    createApiClient(database(env.DB), { vendorId, name, clientId: `mpv_edi_${randomToken(6)}`, clientSecret: randomToken(24) });
  return {
    buyer: await createBenchClient(env, "bench-edi-client", "EDI bench buyer"),
    shipper: await vendorClient(SHIPPING_VENDOR, "EDI bench: 856"),
    catalog: await vendorClient(CATALOG_VENDOR, "EDI bench: 832"),
  };
}, state);

const server = await startServer({
  port: PORT,
  ...state,
  vars: BENCH_VARS,
  logFile: path.join(state.persistTo, "wrangler.log"),
});
/** CPU ms of the runtime's workerd process(es) so far: this process's descendants (wrangler dev's workerd). */
const runtimeCpuMs = () => workerdsCpuMs(process.pid);

/** The API binding of the operator plane, standing in over HTTP: each request sent to the local runtime. */
const overHttp = (baseUrl: string) => ({
  API: {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      return fetch(`${baseUrl}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
    },
  } as unknown as Fetcher,
});

const seg = (id: string, ...elements: string[]): WriteSegment => ({ id, elements });
const ccyymmdd = (at = new Date()) => at.toISOString().slice(0, 10).replaceAll("-", "");
let nextControl = 1;

/** One partner interchange of one set, as text (what a partner posts). */
function interchangeOf(set: { id: string; segments: WriteSegment[] }, functionalId: string): string {
  const control = nextControl++;
  return writeInterchange({
    delimiters: { element: "*", component: ">", segment: "~", lineBreak: "\n" },
    envelope: {
      senderQualifier: "ZZ",
      senderId: "EDIBENCHSUPPLY",
      receiverQualifier: "ZZ",
      receiverId: "MEDPARTS",
      date: ccyymmdd().slice(2),
      time: "1200",
      version: "00401",
      controlNumber: control,
      acknowledgmentRequested: false,
      usage: "P",
    },
    groups: [
      {
        envelope: {
          functionalId,
          senderId: "EDIBENCHSUPPLY",
          receiverId: "MEDPARTS",
          date: ccyymmdd(),
          time: "1200",
          controlNumber: control,
          version: "004010",
        },
        sets: [{ id: set.id, controlNumber: 1, segments: set.segments }],
      },
    ],
  });
}

function groupOf(text: string): FunctionalGroup {
  const [interchange] = readX12(text).interchanges;
  if (!interchange || interchange.problems.some((problem) => problem.severity === "error")) {
    throw new Error(`the generated interchange does not read back: ${JSON.stringify(interchange?.problems)}`);
  }
  return interchange.groups[0]!;
}

/** The unit GTIN-14 of demo product `index` (0-based; src/dev/seed/catalog.ts). */
const gtinOf = (index: number) => generateDeviceIdentifiers(index)[0]!.deviceId;

/** CPU (user + system) of `work` repeated until `CPU_SECONDS` have gone by (at least 3 times): ms per run. */
function cpuPerRun(work: () => void): { ms: number; runs: number } {
  work(); // warm-up
  const started = process.cpuUsage();
  let runs = 0;
  let spent = 0;
  while (runs < 3 || spent < CPU_SECONDS * 1e6) {
    work();
    runs++;
    const used = process.cpuUsage(started);
    spent = used.user + used.system;
  }
  return { ms: spent / 1000 / runs, runs };
}

/** Wall-clock ms and workerd CPU ms of an async step. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number | null }> {
  const cpuBefore = runtimeCpuMs();
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const cpuAfter = runtimeCpuMs();
  return { value, wallMs, cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null };
}

type ShipItem = { lineId: number; request: unknown };

/** A POST to the vendor API, sent again while it answers 409 order-changed (another move of the order won the race). */
async function retryingConflicts(api: VendorApi, pathname: string, body: unknown) {
  for (let retries = 0; ; retries++) {
    const answer = await api("POST", pathname, body);
    const type = String((answer.body as { type?: unknown } | null)?.type ?? "");
    if (answer.status !== 409 || !type.endsWith("/order-changed") || retries >= 20) return { answer, retries };
  }
}

type PriceOption = { priceOptionId: string; price: number; condition: string; customFields: unknown[] };
type Line = { lineId: number; orderNumber: string; gtin: string };
let nextProduct = 0;

/** `count` new order lines of the demo vendor, quantity 1, in orders of up to 50 lines (each line another product). */
async function placeLines(ctx: { baseUrl: string; token: string }, count: number): Promise<Line[]> {
  const lines: Line[] = [];
  while (lines.length < count) {
    const size = Math.min(ORDER_LINES, count - lines.length);
    const indexes = Array.from({ length: size }, () => nextProduct++ % PRODUCTS);
    const quoteItems: { priceOptionId: string; productId: string; price: number; quantity: number }[] = [];
    for (let at = 0; at < indexes.length; at += 10) {
      const details = await Promise.all(
        indexes.slice(at, at + 10).map((index) =>
          send<{ data: { options: PriceOption[] } }>(
            ctx.baseUrl,
            jsonPost(`${API_PREFIX}/catalog/detail`, ctx.token, {
              productId: productId(index),
              facilityId: REQUESTER.facilityId,
              requesterId: REQUESTER.requesterId,
            }),
          ),
        ),
      );
      details.forEach((detail, k) => {
        const option = detail.data.options.find((opt) => opt.condition === "New OEM" && opt.customFields.length === 0);
        if (!option) throw new Error(`${productId(indexes[at + k]!)} has no new OEM offer without fields`);
        quoteItems.push({ priceOptionId: option.priceOptionId, productId: productId(indexes[at + k]!), price: option.price, quantity: 1 });
      });
    }
    const placed = await send<{ data: { orderNumber: string } }>(
      ctx.baseUrl,
      jsonPost(
        `${API_PREFIX}/orders`,
        ctx.token,
        { ...REQUESTER, shippingMethod: "GROUND", payment: { paymentMethod: "PO", poNumber: "BENCH-EDI" }, quoteItems },
        { "idempotency-key": randomUUID() },
      ),
      201,
    );
    const { orderNumber } = placed.data;
    const order = await send<{ data: { lineItems: { lineId: number; productId?: string }[] } }>(
      ctx.baseUrl,
      authedGet(`${API_PREFIX}/orders/${orderNumber}?include=lineItems`, ctx.token),
    );
    order.data.lineItems.forEach((line, k) => {
      const index = line.productId ? Number(line.productId.slice(3)) - 1 : indexes[k]!;
      lines.push({ lineId: line.lineId, orderNumber, gtin: gtinOf(index) });
    });
  }
  return lines;
}

/**
 * An 856 of one shipment (one tracking number) shipping each line once, with its GTIN, lot and expiry (the units' UDIs),
 * or without them (`units` false): an HL O per order.
 */
function set856(lines: Line[], units = true) {
  // Shipped now (a minute ahead, as HHMM drops the seconds; the API takes 5 minutes of clock skew): after the orders.
  const at = new Date(Date.now() + 60_000).toISOString();
  const shipped = [at.slice(0, 10).replaceAll("-", ""), at.slice(11, 16).replace(":", "")];
  const tracking = `1ZEDIBENCH${randomUUID().slice(0, 8).toUpperCase()}`;
  let hl = 1;
  const segments: WriteSegment[] = [
    seg("BSN", "00", `ASN-${tracking}`, shipped[0]!, shipped[1]!),
    seg("HL", String(hl++), "", "S"),
    seg("TD5", "B", "2", "UPSN", "U", "UPS GROUND"),
    seg("REF", "CN", tracking),
    seg("DTM", "011", shipped[0]!, shipped[1]!),
  ];
  const orders = [...new Set(lines.map((line) => line.orderNumber))];
  for (const orderNumber of orders) {
    const orderLevel = hl++;
    segments.push(seg("HL", String(orderLevel), "1", "O"), seg("PRF", orderNumber));
    for (const line of lines.filter((l) => l.orderNumber === orderNumber)) {
      segments.push(
        seg("HL", String(hl++), String(orderLevel), "I"),
        units
          ? seg("LIN", String(line.lineId), "VC", `SKU-${line.lineId}`, "UK", line.gtin, "LT", `LOT${line.lineId}`)
          : seg("LIN", String(line.lineId), "VC", `SKU-${line.lineId}`),
        seg("SN1", "", "1", "EA"),
        ...(units ? [seg("DTM", "036", "20301231")] : []),
      );
    }
  }
  segments.push(seg("CTT", String(lines.length)));
  return { id: "856", segments };
}

/** An 832 of `rows` LINs: SKU (VC), the unit GTIN (UK) of product i % products, list price (CTP*CAT) per each. */
function set832(prefix: string, rows: number, price: (i: number) => string) {
  return {
    id: "832",
    segments: [
      seg("BCT", "PC", `CAT-${prefix}`),
      ...Array.from({ length: rows }, (_, i) => [
        seg("LIN", String(i + 1), "VC", `${prefix}-${i}`, "UK", gtinOf(i % PRODUCTS)),
        seg("CTP", "", "CAT", price(i), "", "EA"),
      ]).flat(),
      seg("CTT", String(rows)),
    ],
  };
}

const report: string[] = [];
const say = (line: string) => {
  report.push(line);
  console.log(line);
};
const ms = (value: number | null) => (value === null ? "n/a" : value.toFixed(1));
const perLine = (value: number | null, n: number) => (value === null ? "n/a" : (value / n).toFixed(2));

try {
  const buyer = { baseUrl: server.baseUrl, token: await fetchToken(server.baseUrl, clients.buyer.clientId, clients.buyer.clientSecret) };
  const shipperApi: VendorApi = vendorApi(
    overHttp(server.baseUrl),
    await fetchToken(server.baseUrl, clients.shipper.clientId, clients.shipper.clientSecret),
  );
  const catalogToken = await fetchToken(server.baseUrl, clients.catalog.clientId, clients.catalog.clientSecret);
  const catalogApi: VendorApi = vendorApi(overHttp(server.baseUrl), catalogToken);

  // ---- 856 ----
  console.log(`Placing 4 x ${LINES} order lines of vendor ${SHIPPING_VENDOR} ...`);
  const sequentialLines = await placeLines(buyer, LINES);
  const concurrentLines = await placeLines(buyer, LINES);
  const perOrderLines = await placeLines(buyer, LINES);
  const plainLines = await placeLines(buyer, LINES);
  const warmUpLines = await placeLines(buyer, WARM_UP);
  // Shipping takes an acknowledged line (as after an 855 IA): acknowledged first, 8 at a time (not measured).
  const promisedShipDate = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const toAcknowledge = [...sequentialLines, ...concurrentLines, ...perOrderLines, ...plainLines, ...warmUpLines];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let line = toAcknowledge.shift(); line; line = toAcknowledge.shift()) {
        const { answer } = await retryingConflicts(shipperApi, `/order-lines/${line.lineId}/acknowledge`, { promisedShipDate });
        if (answer.status !== 200) throw new Error(`acknowledging line ${line.lineId}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }),
  );
  const text856 = interchangeOf(set856(sequentialLines), "SH");
  const concurrent856 = interchangeOf(set856(concurrentLines), "SH");
  const perOrder856 = interchangeOf(set856(perOrderLines), "SH");
  const read856 = cpuPerRun(() => {
    const group = readX12(text856).interchanges[0]!.groups[0]!;
    shipmentsFrom856(group.sets[0]!);
  });
  const readOnly856 = cpuPerRun(() => readX12(text856));
  say(`\n856 of ${LINES} items (${(text856.length / 1e3).toFixed(1)} kB), ${machineSummary()}\n`);
  say("| Step | Total | Per line |");
  say("|---|---:|---:|");
  say(`| in-process CPU: readX12 + shipmentsFrom856 (${read856.runs} runs) | ${ms(read856.ms)} ms | ${perLine(read856.ms, LINES)} ms |`);
  say(`| in-process CPU: readX12 alone (${readOnly856.runs} runs) | ${ms(readOnly856.ms)} ms | ${perLine(readOnly856.ms, LINES)} ms |`);

  const checkApplied = (results: { outcome: string; messages: string[] }[], what: string) => {
    const bad = results.filter((result) => result.outcome !== "applied");
    if (bad.length > 0) throw new Error(`${what}: ${JSON.stringify(bad).slice(0, 800)}`);
  };
  // Warm-up (not measured): the runtime's first ship requests (isolates, compilation, statement caches).
  checkApplied(await applyInboundGroup(shipperApi, PARTNER, groupOf(interchangeOf(set856(warmUpLines), "SH")), DEFAULTS), "warm-up 856");
  // The runtime's own cost of a request that does nothing (wrangler dev's proxy, routing, logging): a floor to subtract.
  const floor = await timed(async () => {
    for (let i = 0; i < LINES; i++) await (await fetch(`${server.baseUrl}/health/live`)).arrayBuffer();
  });
  const sequential = await timed(() => applyInboundGroup(shipperApi, PARTNER, groupOf(text856), DEFAULTS));
  checkApplied(sequential.value, "856 applied one shipment at a time");
  /** The 856's ship requests sent by `lanes` senders at once, each taking the next of its queue; 409 order-changed retried. */
  const shipInLanes = async (text: string, lanes: (items: ShipItem[]) => ShipItem[][]) => {
    const [mapped] = mapInboundGroup(groupOf(text), PARTNER, DEFAULTS);
    if (!mapped || !("shipNotice" in mapped)) throw new Error("the 856 did not map to a ship notice");
    const failures: string[] = [];
    let retries = 0;
    await Promise.all(
      lanes([...mapped.shipNotice.items]).map(async (queue) => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const sent = await retryingConflicts(shipperApi, `/order-lines/${item.lineId}/ship`, item.request);
          retries += sent.retries;
          if (sent.answer.status < 200 || sent.answer.status >= 300)
            failures.push(`${item.lineId}: ${sent.answer.status} ${JSON.stringify(sent.answer.body)}`);
        }
      }),
    );
    if (failures.length > 0) throw new Error(`856 items in lanes: ${failures.slice(0, 3).join("; ")}`);
    return retries;
  };
  const concurrent = await timed(
    () => shipInLanes(concurrent856, (items) => Array.from({ length: CONCURRENCY }, () => items)), // one shared queue
  );
  const orderOfLine = new Map(perOrderLines.map((line) => [line.lineId, line.orderNumber]));
  const perOrder = await timed(() =>
    shipInLanes(perOrder856, (items) => {
      const byOrder = new Map<string, ShipItem[]>();
      for (const item of items) byOrder.set(orderOfLine.get(item.lineId)!, [...(byOrder.get(orderOfLine.get(item.lineId)!) ?? []), item]);
      return [...byOrder.values()];
    }),
  );
  const plain = await timed(() =>
    applyInboundGroup(shipperApi, PARTNER, groupOf(interchangeOf(set856(plainLines, false), "SH")), DEFAULTS),
  );
  checkApplied(plain.value, "856 without units");
  const replay = await timed(() => applyInboundGroup(shipperApi, PARTNER, groupOf(text856), DEFAULTS));
  checkApplied(replay.value, "856 applied again");
  say("");
  say("| Applied through the vendor API (HTTP via wrangler dev) | Wall ms | Wall ms/line | workerd CPU ms | workerd CPU ms/line |");
  say("|---|---:|---:|---:|---:|");
  const applyRow = (label: string, step: { wallMs: number; cpuMs: number | null }) =>
    say(`| ${label} | ${ms(step.wallMs)} | ${perLine(step.wallMs, LINES)} | ${ms(step.cpuMs)} | ${perLine(step.cpuMs, LINES)} |`);
  applyRow(`applyInboundGroup: one shipment request per order (${ORDER_LINES} lines) and parcel, one after another`, sequential);
  applyRow(`${CONCURRENCY} ship requests at a time (other lines; ${concurrent.value} retries of 409 order-changed)`, concurrent);
  applyRow(`one order's items after another, the orders side by side (other lines; ${perOrder.value} retries)`, perOrder);
  applyRow("applyInboundGroup, items without GTIN, lot and expiry (no units read; other lines)", plain);
  applyRow("applyInboundGroup again (a retry: every item shipped already)", replay);
  applyRow("floor: GET /health/live as many times, one after another", floor);

  // ---- 832 ----
  const prefix = randomUUID().slice(0, 6).toUpperCase();
  /** The fields of the 832's rows (what priceFileFrom832 makes of a LIN), named by GTIN or product id. */
  const rowOf = (sku: string, price: string) => ({
    sku,
    ...DEFAULTS,
    price: Number(price),
    unitOfMeasure: "EA",
  });
  const csvFile = (tag: string, price: (i: number) => string) =>
    [
      "sku,gtin,condition,purchaseChoice,warranty,price,unitOfMeasure,leadTimeDays",
      ...Array.from({ length: ROWS }, (_, i) => {
        const row = rowOf(`${tag}-${i}`, price(i));
        const fields = [row.sku, gtinOf(i % PRODUCTS), row.condition, row.purchaseChoice, row.warranty, price(i), row.unitOfMeasure];
        return [...fields, row.leadTimeDays].join(",");
      }),
      "",
    ].join("\n");
  const ndjsonFile = (tag: string, price: (i: number) => string) =>
    Array.from(
      { length: ROWS },
      (_, i) => `${JSON.stringify({ ...rowOf(`${tag}-${i}`, price(i)), productId: productId(i % PRODUCTS) })}\n`,
    ).join("");

  type Job = { id: string; state: string; counts: Record<string, number>; startedAt: string | null; finishedAt: string | null };
  const jobCall = async (method: "GET" | "POST" | "PUT", pathname: string, body?: unknown) => {
    const answer = await catalogApi(method, `/offer-imports${pathname}`, body);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`${method} ${pathname}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (answer.body as { data: Job }).data;
  };
  const untilEnd = async (id: string) => {
    for (;;) {
      const job = await jobCall("GET", `/${id}`);
      if (["succeeded", "failed", "cancelled"].includes(job.state)) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A price file as today: a job created, its file uploaded, started, polled to its end. */
  const priceFile = async (format: "csv" | "ndjson", file: string) => {
    const job = await jobCall("POST", "", { format });
    await jobCall("PUT", `/${job.id}/files/prices.${format}`, new TextEncoder().encode(file));
    await jobCall("POST", `/${job.id}/start`);
    return untilEnd(job.id);
  };
  const viaEdi = async (text: string) => {
    const results = await applyInboundGroup(catalogApi, PARTNER, groupOf(text), DEFAULTS);
    checkApplied(results, "832 applied");
    return untilEnd(results[0]!.job!);
  };

  const priceOf = (base: number) => (i: number) => `${base + (i % 50)}.${String(i % 100).padStart(2, "0")}`;
  const sample832 = interchangeOf(set832(`EDI${prefix}S`, ROWS, priceOf(100)), "SC");
  const read832 = cpuPerRun(() => {
    const group = readX12(sample832).interchanges[0]!.groups[0]!;
    priceFileFrom832(group.sets[0]!, DEFAULTS);
  });
  const readOnly832 = cpuPerRun(() => readX12(sample832));
  say(`\n832 of ${ROWS} LINs (${(sample832.length / 1e6).toFixed(2)} MB), ${PRODUCTS} products, vendor ${CATALOG_VENDOR}\n`);
  say("| Step | Total | Per 1,000 rows |");
  say("|---|---:|---:|");
  say(
    `| in-process CPU: readX12 + priceFileFrom832 (${read832.runs} runs) | ${ms(read832.ms)} ms | ${ms((read832.ms / ROWS) * 1000)} ms |`,
  );
  say(`| in-process CPU: readX12 alone (${readOnly832.runs} runs) | ${ms(readOnly832.ms)} ms | ${ms((readOnly832.ms / ROWS) * 1000)} ms |`);

  // Warm-up (not measured): a small job of each path, so that no path pays the runtime's first price file.
  const warmUpRows = Math.min(ROWS, 100);
  await viaEdi(interchangeOf(set832(`WARM${prefix}`, warmUpRows, priceOf(100)), "SC"));
  await priceFile(
    "csv",
    csvFile(`WARMCSV${prefix}`, priceOf(100))
      .split("\n")
      .slice(0, warmUpRows + 1)
      .join("\n"),
  );

  type Measured = { label: string; pass: string; wallMs: number; cpuMs: number | null; job: Job };
  const measured: Measured[] = [];
  const passes = [
    { pass: "every offer new", price: priceOf(100), order: ["edi", "csv", "ndjson"] as const },
    { pass: "every price changed", price: priceOf(300), order: ["ndjson", "csv", "edi"] as const },
  ];
  for (const { pass, price, order } of passes) {
    for (const path of order) {
      const tag = `${path.toUpperCase()}${prefix}`;
      const step =
        path === "edi"
          ? await timed(() => viaEdi(interchangeOf(set832(tag, ROWS, price), "SC")))
          : path === "csv"
            ? await timed(() => priceFile("csv", csvFile(tag, price)))
            : await timed(() => priceFile("ndjson", ndjsonFile(tag, price)));
      if (step.value.state !== "succeeded") throw new Error(`${path} ${pass}: job ${step.value.id} ${step.value.state}`);
      const label =
        path === "edi"
          ? "832 via applyInboundGroup (NDJSON by GTIN; read and mapped here)"
          : path === "csv"
            ? "price file today: CSV by GTIN"
            : "price file today: NDJSON by productId (as bench:offers)";
      measured.push({ label, pass, wallMs: step.wallMs, cpuMs: step.cpuMs, job: step.value });
      console.log(`  ${label}, ${pass}: ${(step.wallMs / 1000).toFixed(2)} s`);
    }
  }
  const jobSeconds = (job: Job) =>
    job.startedAt && job.finishedAt ? (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000 : null;
  say("");
  say("| Path | Pass | Counts | Wall s (create to end) | Rows/s | Job s (start to finish) | workerd CPU ms per 1,000 rows |");
  say("|---|---|---|---:|---:|---:|---:|");
  for (const m of measured) {
    const { created, updated, unchanged, rejected } = m.job.counts;
    const job = jobSeconds(m.job);
    say(
      `| ${m.label} | ${m.pass} | ${JSON.stringify({ created, updated, unchanged, rejected })} | ${(m.wallMs / 1000).toFixed(2)} | ${Math.round(ROWS / (m.wallMs / 1000))} | ${job === null ? "n/a" : job.toFixed(2)} | ${m.cpuMs === null ? "n/a" : ((m.cpuMs / ROWS) * 1000).toFixed(1)} |`,
    );
  }
  say("");
  say("| Ratio of rows/s, EDI over today's | wall: vs CSV by GTIN | wall: vs NDJSON by productId | job: vs CSV | job: vs NDJSON |");
  say("|---|---:|---:|---:|---:|");
  for (const { pass } of passes) {
    const of = (labelStart: string) => measured.find((m) => m.pass === pass && m.label.startsWith(labelStart))!;
    const [edi, csv, ndjson] = [of("832 via"), of("price file today: CSV"), of("price file today: NDJSON")];
    const jobRatio = (today: Measured) => {
      const [ours, theirs] = [jobSeconds(edi.job), jobSeconds(today.job)];
      return ours && theirs ? (theirs / ours).toFixed(2) : "n/a";
    };
    say(
      `| ${pass} | ${(csv.wallMs / edi.wallMs).toFixed(2)} | ${(ndjson.wallMs / edi.wallMs).toFixed(2)} | ${jobRatio(csv)} | ${jobRatio(ndjson)} |`,
    );
  }
} finally {
  await server.stop();
}

console.log(`\n---\nnpm run bench:edi -- --lines ${LINES} --rows ${ROWS} --products ${PRODUCTS} --concurrency ${CONCURRENCY}\n`);
console.log(report.join("\n"));
