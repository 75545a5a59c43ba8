import { rmSync } from "node:fs";
import path from "node:path";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run bench:offers -- --offers 100000`: vendor offer writes through the vendor API under `wrangler dev` (the API
 * and the operator plane's Worker, which serves publishing), in batches of 1,000 (POST /vendor/api/offers/batch), one
 * batch at a time: every offer new, the same offers again (nothing to write), every price changed (in place). Then the
 * same through price files (one NDJSON file of every offer, an import job from upload to its end; docs/benchmarks.md,
 * "Offers").
 */
const { values } = cliArgs("bench:offers", "Imports a vendor price file on the local runtime and reports rows/s.", {
  offers: { type: "string", default: "100000", help: "offers in the file", value: "<n>" },
  products: { type: "string", default: "10000", help: "catalog size", value: "<n>" },
  port: ownRuntimePort("8797", "bench"),
});

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { productId },
  { createApiClient },
  { randomToken },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { fetchToken },
  { machineFacts },
  { startServer },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/dev/seed/catalog"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./report"),
  import("./server"),
]);

const offers = Number(values.offers);
const products = Number(values.products);
const port = Number(values.port);
const BATCH = 1000;
const VENDOR = 6;
const state = { persistTo: path.join(".wrangler/bench-offers", String(offers)) };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
await seedLocal(products, state);
const vendor = { clientId: `mpv_bench_${randomToken(6)}`, clientSecret: randomToken(24) };
await withLocalBindings((env) => createApiClient(database(env.DB), { vendorId: VENDOR, name: "Offers bench vendor", ...vendor }), state);

const offerOf = (i: number, price: string) => ({
  sku: `BENCH-${i}`,
  productId: productId(i % products),
  condition: "New OEM",
  purchaseChoice: "Buy",
  warranty: "12 months",
  price,
  leadTimeDays: 3,
  quantityAvailable: 10,
  quantityCountedAt: "2026-11-26T08:00:00Z",
});

const server = await startServer({ port, ...state, logFile: path.join(state.persistTo, "wrangler.log") });
const rows: string[] = [];
try {
  const token = await fetchToken(server.baseUrl, vendor.clientId, vendor.clientSecret);
  const publish = async (label: string, price: (i: number) => string) => {
    const counts = { created: 0, updated: 0, unchanged: 0, rejected: 0 };
    const started = performance.now();
    for (let from = 0; from < offers; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, offers - from) }, (_, k) => offerOf(from + k, price(from + k)));
      const res = await fetch(`${server.baseUrl}/vendor/api/offers/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ offers: batch }),
      });
      if (res.status !== 200) throw new Error(`batch at ${from}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { data: { counts: typeof counts } };
      for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += body.data.counts[key];
    }
    const seconds = (performance.now() - started) / 1000;
    rows.push(`| ${label} | ${JSON.stringify(counts)} | ${seconds.toFixed(1)} s | ${Math.round(offers / seconds)} |`);
    console.log(rows.at(-1));
  };
  await publish("every offer new", (i) => `${100 + (i % 50)}.00`);
  await publish("the same offers again", (i) => `${100 + (i % 50)}.00`);
  await publish("every price changed", (i) => `${200 + (i % 50)}.00`);

  /** The same offers as one price file (NDJSON) through an import job: created, uploaded, started, polled to its end. */
  const priceFile = async (label: string, price: (i: number) => string) => {
    const file = Array.from({ length: offers }, (_, i) => `${JSON.stringify({ ...offerOf(i, price(i)), sku: `FILE-${i}` })}\n`).join("");
    const call = async (method: string, pathname: string, body?: BodyInit, type = "application/json") => {
      const res = await fetch(`${server.baseUrl}/vendor/api/offer-imports${pathname}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": type },
        body,
      });
      if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
      return (
        (await res.json()) as { data: { id: string; state: string; counts: Record<string, number>; progress: { rowsPerSecond: number } } }
      ).data;
    };
    const started = performance.now();
    const job = await call("POST", "", JSON.stringify({ format: "ndjson" }));
    await call("PUT", `/${job.id}/files/prices.ndjson`, file, "application/octet-stream");
    await call("POST", `/${job.id}/start`);
    let current = job;
    while (!["succeeded", "failed", "cancelled"].includes(current.state)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = await call("GET", `/${job.id}`);
    }
    const seconds = (performance.now() - started) / 1000;
    if (current.state !== "succeeded") throw new Error(`price file ${job.id} ${current.state}`);
    const { created, updated, unchanged, rejected } = current.counts;
    rows.push(
      `| price file: ${label} (${(file.length / 1e6).toFixed(1)} MB) | ${JSON.stringify({ created, updated, unchanged, rejected })} | ${seconds.toFixed(1)} s | ${Math.round(offers / seconds)} |`,
    );
    console.log(rows.at(-1));
  };
  await priceFile("every offer new", (i) => `${100 + (i % 50)}.00`);
  await priceFile("the same file again", (i) => `${100 + (i % 50)}.00`);
  await priceFile("every price changed", (i) => `${300 + (i % 50)}.00`);
} finally {
  await server.stop();
}

const machine = machineFacts();
console.log(`
Offer writes, ${offers} offers in batches of ${BATCH}, one batch at a time (${machine.cpus}, ${machine.cores} cores, Node ${machine.node})

| Run | Counts | Time | Offers/s |
|---|---|---:|---:|
${rows.join("\n")}
`);
