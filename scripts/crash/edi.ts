import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LocalServer } from "../bench/server";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run crash-test:edi`: X12 documents against SIGKILL (issue 67: "0 documents lost or applied twice over kill -9
 * at any point"). A mailbox partner of the demo vendor is made and --orders orders of its products placed by the demo
 * buyer (their 850s go to the partner's outbox). Then, round after round, the partner (this script) takes its outbound
 * documents (list, read, DELETE) and posts, per order, an 855 (IA for each line), then an 856 (lot and serials of each
 * unit), then an 810, each file posted until it is answered 200 (after a crash the same bytes again, as a translator
 * does; and now and then a file already answered, as duplicates happen), while the whole runtime is killed (SIGKILL)
 * at a random moment with posts under way (within --kill-within-ms of the round's first answers) and restarted on the
 * same state. After the last kill, the operator plane's housekeeping runs twice, 6 minutes ahead (its scheduled time:
 * past retryUnapplied's wait for what the kill left received and not applied, or kept); then the partner finishes
 * undisturbed. Checked at the end, exit 1 on any violation:
 * - each 855 line confirmed once (one order.confirmed event per order, each line in one), each 856 item shipped once
 *   (one parcel and one order.shipped event per line, its units once), each 810 one invoice and one invoice.received;
 * - each order one 850, the partner's control numbers (850s and 997s, ISA13) 1..n with no hole and none twice, each
 *   number read the same bytes every time, and D1's edi_interchanges the same numbers;
 * - each inbound interchange one 997 (AK102 its group), every answer to it (duplicates too) those very bytes;
 * - every received interchange applied (applied_at), no inbound file left in R2.
 * Runs on the crash-test entry (test/crash/worker.ts), whose /__crash/sql reads tenant 1's store and `DB`.
 */
const { values } = cliArgs(
  "crash-test:edi",
  "Kills the local runtime while a partner exchanges X12 files, then checks no document is lost or applied twice.",
  {
    crashes: { type: "string", default: "8", help: "SIGKILLs to send", value: "<n>" },
    orders: { type: "string", default: "12", help: "orders of the demo vendor (an 850, 855, 856 and 810 each)", value: "<n>" },
    lines: { type: "string", default: "2", help: "lines per order", value: "<n>" },
    "kill-within-ms": {
      type: "string",
      default: "400",
      help: "each kill falls within this long after 1 to 5 of the round's posts were answered",
      value: "<ms>",
    },
    port: ownRuntimePort("8793"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { generateDeviceIdentifiers, productId },
  { createApiClient },
  { randomToken },
  { element },
  { readX12 },
  { API_PREFIX, authedGet, fetchToken, jsonPost, send },
  { REQUESTER },
  { startServer },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { devScheduledUrl },
  { partnerFile, partnerInput, set810, set855, set856 },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/dev/seed/catalog"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../../src/operator/edi/x12/elements"),
  import("../../src/operator/edi/x12/reader"),
  import("../bench/client"),
  import("../bench/scenarios"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("../dev/scheduled"),
  import("../../src/dev/edi/partner-documents"),
]);

const crashes = Number(values.crashes);
const orderCount = Number(values.orders);
const linesPerOrder = Number(values.lines);
const killWithinMs = Number(values["kill-within-ms"]);
const PRODUCTS = 200;
/** The demo vendor: every demo product's new OEM offer is its own (scripts/bench/client.ts BENCH_VENDOR). */
const VENDOR = 4;
const ENTRY = "test/crash/worker.ts";
const MAILBOX = "/vendor/api/edi/partners";
/** The operator plane's housekeeping cron (admin/wrangler.toml: X12 files not applied taken in again, retryUnapplied). */
const OPERATOR_HOUSEKEEPING = { cron: "*/5 * * * *", binding: "ADMIN" };

interface Line {
  lineId: number;
  quantity: number;
  price: string;
  gtin: string;
  serials: string[];
}

interface Order {
  orderNumber: string;
  lines: Line[];
  invoiceNumber: string;
  tracking: string;
  /** The 855, 856 and 810, written once: a post after a crash sends the same bytes. */
  files: { kind: string; control: number; text: string }[];
  /** How many of its files were answered 200 so far. */
  answered: number;
}

interface Answer {
  outcome: string;
  interchangeControl?: string;
  acknowledgment?: string | null;
  applied?: boolean;
  sets?: { set: string; outcome: string; messages: string[] }[];
}

await ensureLocalSigningKey();
const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-edi-crash-"));
const start = (round: number | string) =>
  startServer({
    port: Number(values.port),
    persistTo,
    entry: ENTRY,
    logFile: path.join(persistTo, `wrangler-${round}.log`),
    vars: { RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_BURST: "100000" },
  });

/** Statements run in tenant 1's store, or in `DB`, through the crash entry. */
async function sql(runtime: LocalServer, where: "store" | "DB", statements: { sql: string; params: unknown[] }[]) {
  const query = where === "DB" ? "database=DB" : "tenant=1";
  const res = await fetch(`${runtime.baseUrl}/__crash/sql?${query}`, { method: "POST", body: JSON.stringify({ statements }) });
  if (!res.ok) throw new Error(`/__crash/sql: ${res.status} ${await res.text()}`);
  // biome-ignore lint/suspicious/noExplicitAny: rows of several queries, read a few columns each.
  return (await res.json()) as [any[], any[], any[], any[], any[]];
}

const violations: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) violations.push(what);
};

try {
  await seedLocal(PRODUCTS, { persistTo });
  const buyer = { clientId: "edi-crash-buyer", clientSecret: randomToken(24) };
  const vendor = { clientId: "edi-crash-vendor", clientSecret: randomToken(24) };
  const operator = { clientId: "edi-crash-operator", clientSecret: randomToken(24) };
  await withLocalBindings(
    async (env) => {
      await createApiClient(database(env.DB), { tenantId: 1, name: "EDI crash buyer", ...buyer });
      await createApiClient(database(env.DB), { vendorId: VENDOR, name: "EDI crash vendor (the mailbox)", ...vendor });
      await createApiClient(database(env.DB), { operator: true, name: "EDI crash operator", ...operator });
    },
    { persistTo },
  );

  let runtime = await start(0);
  const tokens = async () => ({
    buyer: await fetchToken(runtime.baseUrl, buyer.clientId, buyer.clientSecret),
    vendor: await fetchToken(runtime.baseUrl, vendor.clientId, vendor.clientSecret),
  });
  let token = await tokens();

  // The mailbox partner of the demo vendor, before any order: its orders' 850s go to it.
  const operatorToken = await fetchToken(runtime.baseUrl, operator.clientId, operator.clientSecret);
  const created = await fetch(`${runtime.baseUrl}/admin/api/edi-partners`, {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ vendorId: VENDOR, ...partnerInput({ name: "EDI crash partner" }) }),
  });
  if (created.status !== 201) throw new Error(`creating the partner answered ${created.status}: ${await created.text()}`);
  const partner = ((await created.json()) as { data: unknown }).data as { id: number; partnerIdentity: { id: string } };
  // A fresh isolate for the vendor-lines consumer, which remembers for a minute that a vendor has no partner.
  await runtime.stop();
  runtime = await start("orders");
  token = await tokens();

  // The orders: each of `linesPerOrder` products' new OEM offers (the demo vendor's), quantities 1 and 2.
  const orders: Order[] = [];
  let nextProduct = 0;
  let control = 1;
  for (let o = 0; o < orderCount; o++) {
    const quoteItems: { priceOptionId: string; productId: string; price: string; quantity: number }[] = [];
    const indexes: number[] = [];
    for (let l = 0; l < linesPerOrder; l++) {
      const index = nextProduct++ % PRODUCTS;
      const detail = await send<{
        data: { options: { priceOptionId: string; price: string; condition: string; customFields: unknown[] }[] };
      }>(
        runtime.baseUrl,
        jsonPost(`${API_PREFIX}/catalog/detail`, token.buyer, {
          productId: productId(index),
          facilityId: REQUESTER.facilityId,
          requesterId: REQUESTER.requesterId,
        }),
      );
      const option = detail.data.options.find((opt) => opt.condition === "New OEM" && opt.customFields.length === 0);
      if (!option) throw new Error(`${productId(index)} has no new OEM offer without fields`);
      indexes.push(index);
      quoteItems.push({ priceOptionId: option.priceOptionId, productId: productId(index), price: option.price, quantity: 1 + (l % 2) });
    }
    const placed = await send<{ data: { orderNumber: string } }>(
      runtime.baseUrl,
      jsonPost(
        `${API_PREFIX}/orders`,
        token.buyer,
        { ...REQUESTER, shippingMethod: "GROUND", payment: { paymentMethod: "PO", poNumber: `EDI-CRASH-${o + 1}` }, quoteItems },
        { "Idempotency-Key": crypto.randomUUID() },
      ),
      201,
    );
    const { orderNumber } = placed.data;
    const read = await send<{ data: { lineItems: { lineId: number; productId: string; quantity: number; price: string }[] } }>(
      runtime.baseUrl,
      authedGet(`${API_PREFIX}/orders/${orderNumber}?include=lineItems`, token.buyer),
    );
    const lines = read.data.lineItems.map((item, k) => {
      const index = item.productId ? Number(item.productId.slice(3)) - 1 : indexes[k]!;
      return {
        lineId: item.lineId,
        quantity: item.quantity,
        price: item.price,
        gtin: generateDeviceIdentifiers(index)[0]!.deviceId,
        serials: Array.from({ length: item.quantity }, (_, u) => `SN${item.lineId}X${u + 1}`),
      };
    });
    const tracking = `1ZEDICRASH${String(o + 1).padStart(6, "0")}`;
    const invoiceNumber = `INV-EDI-CRASH-${orderNumber}`;
    const envelope = () => ({ senderId: partner.partnerIdentity.id, controlNumber: control++ });
    const files = [
      {
        kind: "855",
        control: control,
        text: partnerFile(
          [
            set855(
              orderNumber,
              lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity, price: line.price, code: "IA" })),
            ),
          ],
          envelope(),
        ),
      },
      {
        kind: "856",
        control: control,
        text: partnerFile(
          [
            set856(
              orderNumber,
              tracking,
              lines.map((line) => ({
                lineId: line.lineId,
                quantity: line.quantity,
                gtin: line.gtin,
                lot: `LOT${line.lineId}`,
                serials: line.serials,
              })),
            ),
          ],
          envelope(),
        ),
      },
      {
        kind: "810",
        control: control,
        text: partnerFile(
          [
            set810(
              orderNumber,
              invoiceNumber,
              lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity, price: line.price })),
            ),
          ],
          envelope(),
        ),
      },
    ];
    orders.push({ orderNumber, lines, invoiceNumber, tracking, files, answered: 0 });
  }
  // Their 850s reach the outbox through the vendor-lines queue, which a kill empties (local queues are not persisted):
  // the rounds start once they are all there, so that what is checked is the documents' exchange.
  const waiting = async () => {
    const res = await fetch(`${runtime.baseUrl}${MAILBOX}/${partner.id}/outbound?limit=1000`, {
      headers: { Authorization: `Bearer ${token.vendor}` },
    });
    return ((await res.json()) as { data: { items: { document: string }[] } }).data.items.filter((item) => item.document === "850").length;
  };
  for (let waited = 0; (await waiting()) < orders.length && waited < 120; waited++) await sleep(500);
  console.log(
    `partner ${partner.id} of vendor ${VENDOR}; ${orders.length} orders of ${linesPerOrder} lines placed, ${await waiting()} 850s in the outbox; ${orders.length * 3} files to post`,
  );

  /** Every document the partner read, by control number: the bytes each time (they must not differ). */
  const read = new Map<number, string>();
  const readTwiceDiffering: number[] = [];
  /** Every answer to every file, by the file's control number. */
  const answers = new Map<number, Answer[]>();
  const stats = { posts: 0, answers: 0, unanswered: 0, duplicatesPosted: 0, taken: 0 };

  const call = (method: string, pathname: string, body?: string) =>
    fetch(`${runtime.baseUrl}${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${token.vendor}`, ...(body === undefined ? {} : { "Content-Type": "application/edi-x12" }) },
      body,
    });

  /** Posts one file; its answer, or null when the runtime died under it (or answered something else than 200). */
  /** Files whose last post got no answer (the runtime died under it). */
  const unansweredFiles = new Set<number>();
  /** What the posts again after a crash were answered: received (the kill fell before it was applied) or duplicate. */
  const afterCrash: Record<string, number> = {};
  async function post(file: { control: number; text: string }): Promise<Answer | null> {
    stats.posts++;
    try {
      const res = await call("POST", `${MAILBOX}/${partner.id}/inbound`, file.text);
      if (res.status !== 200) {
        console.log(`  file ${file.control}: ${res.status} ${(await res.text()).slice(0, 200)}`);
        return null;
      }
      const [answer] = ((await res.json()) as { data: { interchanges: Answer[] } }).data.interchanges;
      answers.set(file.control, [...(answers.get(file.control) ?? []), answer!]);
      stats.answers++;
      if (unansweredFiles.delete(file.control)) afterCrash[answer!.outcome] = (afterCrash[answer!.outcome] ?? 0) + 1;
      return answer!;
    } catch {
      stats.unanswered++;
      unansweredFiles.add(file.control);
      return null;
    }
  }

  /** A partner's lane for one order: its files in turn, each until answered; now and then the last one again. */
  async function lane(order: Order, alive: () => boolean): Promise<void> {
    while (alive() && order.answered < order.files.length) {
      const answer = await post(order.files[order.answered]!);
      if (!answer) return; // killed: the next round posts the same bytes
      order.answered++;
      if (Math.random() < 0.25 && alive()) {
        stats.duplicatesPosted++;
        if (!(await post(order.files[order.answered - 1]!))) return;
      }
    }
  }

  /** The partner's taker: lists its outbox, reads each document and takes it (DELETE), again and again. */
  async function taker(alive: () => boolean, until: () => boolean): Promise<void> {
    while (alive()) {
      try {
        const listed = await call("GET", `${MAILBOX}/${partner.id}/outbound?limit=100`);
        if (listed.status !== 200) throw new Error(`list answered ${listed.status}`);
        const { items } = ((await listed.json()) as { data: { items: { controlNumber: number }[] } }).data;
        // Read and taken 8 at a time, so that the kills fall on takes as well as on posts.
        for (let at = 0; at < items.length; at += 8) {
          await Promise.all(
            items.slice(at, at + 8).map(async ({ controlNumber }) => {
              const res = await call("GET", `${MAILBOX}/${partner.id}/outbound/${controlNumber}`);
              if (res.status !== 200) throw new Error(`read ${controlNumber} answered ${res.status}`);
              const text = await res.text();
              const before = read.get(controlNumber);
              if (before !== undefined && before !== text) readTwiceDiffering.push(controlNumber);
              read.set(controlNumber, text);
              const taken = await call("DELETE", `${MAILBOX}/${partner.id}/outbound/${controlNumber}`);
              if (taken.status !== 204) throw new Error(`take ${controlNumber} answered ${taken.status}`);
              stats.taken++;
            }),
          );
        }
        if (items.length === 0 && until()) return;
      } catch (error) {
        if (!alive()) return;
        if (!(error instanceof TypeError)) throw error; // a fetch failure: the runtime died under it
        return;
      }
      await sleep(150);
    }
  }

  /** The partner's interchanges received and not applied: what a kill left between recording and applying. */
  const unappliedNow = async () =>
    (
      await sql(runtime, "DB", [
        { sql: "SELECT count(*) AS n FROM edi_received_interchanges WHERE partner_id = ?1 AND applied_at IS NULL", params: [partner.id] },
      ])
    )[0][0].n as number;
  const unappliedAfterRounds: number[] = [];
  const keptAfterKills: number[] = [];
  /** The inbound files kept in R2 (edi/inbound/), read while the runtime is down. */
  const inboundFiles = () =>
    withLocalBindings(async (env) => (await env.IMPORTS.list({ prefix: "edi/inbound/" })).objects.length, { persistTo });
  const allAnswered = () => orders.every((order) => order.answered === order.files.length);
  const progress: string[] = [];
  for (let round = 1; round <= crashes; round++) {
    let up = true;
    const alive = () => up;
    const startedAt = Date.now();
    const work = Promise.all([...orders.map((order) => lane(order, alive)), taker(alive, () => false)]);
    // The kill falls while posts are under way: a random moment after 1 to 5 of this round's posts were answered, so that
    // every round has files not applied yet in flight (and the taker mid-list).
    const answeredBefore = stats.answers;
    const target = 1 + Math.floor(Math.random() * 5);
    for (let waited = 0; stats.answers - answeredBefore < target && waited < 600; waited++) await sleep(25);
    await sleep(Math.floor(Math.random() * killWithinMs));
    up = false;
    await runtime.kill();
    await work;
    // The runtime down: the files the kill left kept in R2 (each waiting to be applied, or left with nothing to apply).
    keptAfterKills.push(await inboundFiles());
    const postedFiles = orders.reduce((sum, order) => sum + order.answered, 0);
    progress.push(`${postedFiles}`);
    process.stdout.write(
      `round ${round}/${crashes}: killed ${Date.now() - startedAt} ms in; files answered ${postedFiles}/${orders.length * 3}, documents read ${read.size}\n`,
    );
    runtime = await start(round);
    token = await tokens();
    unappliedAfterRounds.push(await unappliedNow());
    if (allAnswered() && round < crashes) {
      // Nothing left to post: the later rounds kill while the same files are posted again (duplicates) and taken.
      for (const order of orders) order.answered = Math.max(0, order.answered - 1 - Math.floor(Math.random() * 2));
    }
  }

  // After the last kill, time goes by before the partner posts again: the operator plane's housekeeping runs, twice, 6
  // minutes ahead (its scheduled time), past retryUnapplied's wait for what the kill left received and not applied.
  const unappliedAfterKill = await unappliedNow();
  for (let run = 0; run < 2; run++) {
    const res = await fetch(devScheduledUrl(runtime.baseUrl, { ...OPERATOR_HOUSEKEEPING, time: Date.now() + 6 * 60_000 }), {
      method: "POST",
    });
    if (res.status !== 202) throw new Error(`the operator plane's housekeeping answered ${res.status}: ${await res.text()}`);
    for (let waited = 0; waited < 60 && (await unappliedNow()) > 0; waited++) await sleep(1000);
  }
  await sleep(2000); // the last run's deletions of kept files
  const unappliedAfterHousekeeping = await unappliedNow();
  // Then the partner ends undisturbed: every file answered (those the last kill left unanswered posted again), the
  // outbox emptied.
  {
    const alive = () => true;
    for (let pass = 0; pass < 5 && !allAnswered(); pass++) await Promise.all(orders.map((order) => lane(order, alive)));
    check(allAnswered(), "files never answered 200 by a healthy runtime");
    await taker(alive, () => true);
  }
  await sleep(3000); // the stores' alarms publish the last events' lines
  await taker(
    () => true,
    () => true,
  );

  // What the stores and DB hold now.
  const orderNumbers = orders.map((order) => order.orderNumber);
  const lineIds = orders.flatMap((order) => order.lines.map((line) => line.lineId));
  const inList = (values: unknown[]) => values.map(() => "?").join(", ");
  const [events, parcels, parcelLines, units, invoices] = await sql(runtime, "store", [
    {
      sql: `SELECT type, aggregate_id AS orderNumber, payload FROM outbox_events WHERE type IN ('order.confirmed', 'order.acknowledged', 'order.shipped', 'invoice.received') AND aggregate_id IN (${inList(orderNumbers)})`,
      params: orderNumbers,
    },
    {
      sql: `SELECT d.id, o.order_number AS orderNumber, d.tracking_number AS tracking FROM shipping_documents d JOIN orders o ON o.id = d.order_id WHERE o.order_number IN (${inList(orderNumbers)})`,
      params: orderNumbers,
    },
    {
      sql: `SELECT line_id AS lineId, quantity FROM shipping_document_lines WHERE line_id IN (${inList(lineIds)})`,
      params: lineIds,
    },
    {
      sql: `SELECT line_id AS lineId, lot, serial, units FROM shipped_units WHERE line_id IN (${inList(lineIds)})`,
      params: lineIds,
    },
    {
      sql: `SELECT i.number, o.order_number AS orderNumber FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.order_number IN (${inList(orderNumbers)}) AND i.kind = 'invoice'`,
      params: orderNumbers,
    },
  ]);
  const [interchanges, received] = await sql(runtime, "DB", [
    {
      sql: "SELECT reference, interchange_control AS control FROM edi_interchanges WHERE partner_id = ?1 ORDER BY interchange_control",
      params: [partner.id],
    },
    {
      sql: "SELECT duplicate_key AS key, accepted, applied_at AS appliedAt, acknowledgment FROM edi_received_interchanges WHERE partner_id = ?1",
      params: [partner.id],
    },
  ]);
  // Beyond the last number: nothing (a document there would be one the partner never saw).
  const maxControl = Math.max(0, ...read.keys(), ...interchanges.map((row: { control: number }) => row.control));
  const beyond = await call("GET", `${MAILBOX}/${partner.id}/outbound/${maxControl + 1}`);
  await runtime.stop();
  const inboundLeft = await inboundFiles();

  // The documents the partner read: 850s by their lines, 997s by the group they acknowledge.
  const purchaseOrders = new Map<string, number[]>(); // order number -> control numbers of its 850s
  const acknowledgmentsOf = new Map<string, number[]>(); // inbound GS06 -> control numbers of 997s
  const lineOrder = new Map(orders.flatMap((order) => order.lines.map((line) => [line.lineId, order.orderNumber] as const)));
  let otherDocuments = 0;
  for (const [controlNumber, text] of read) {
    const interchange = readX12(text).interchanges[0]!;
    for (const set of interchange.groups.flatMap((group) => group.sets)) {
      if (set.id === "850") {
        const ids = set.segments.filter((s) => s.id === "PO1").map((s) => Number(element(s, 1)));
        const orderNumber = lineOrder.get(ids[0]!);
        if (!orderNumber) otherDocuments++;
        else purchaseOrders.set(orderNumber, [...(purchaseOrders.get(orderNumber) ?? []), controlNumber]);
      } else if (set.id === "997") {
        const ak1 = set.segments.find((s) => s.id === "AK1")!;
        const group = String(Number(element(ak1, 2)));
        acknowledgmentsOf.set(group, [...(acknowledgmentsOf.get(group) ?? []), controlNumber]);
      } else otherDocuments++;
    }
  }

  // 1. Every 855 line confirmed once, every 856 item shipped once, every 810 once.
  const payloads = (events as { type: string; orderNumber: string; payload: string }[]).map((e) => ({ ...e, data: JSON.parse(e.payload) }));
  let confirmedOnce = 0;
  let shippedOnce = 0;
  let invoicedOnce = 0;
  for (const order of orders) {
    const confirmations = payloads.filter((e) => e.type === "order.confirmed" && e.orderNumber === order.orderNumber);
    check(confirmations.length === 1, `${order.orderNumber}: ${confirmations.length} order.confirmed events (expected 1)`);
    for (const line of order.lines) {
      const confirmedIn = confirmations.filter((e) => (e.data.lines as { lineId: number }[]).some((l) => l.lineId === line.lineId)).length;
      const shippedEvents = payloads.filter((e) => e.type === "order.shipped" && e.data.lineId === line.lineId).length;
      const inParcels = (parcelLines as { lineId: number; quantity: number | null }[]).filter((p) => p.lineId === line.lineId);
      const lineUnits = (units as { lineId: number; serial: string | null; lot: string | null; units: number }[]).filter(
        (u) => u.lineId === line.lineId,
      );
      const serials = new Set(lineUnits.map((u) => u.serial));
      const unitsOk =
        lineUnits.length === line.serials.length &&
        line.serials.every((serial) => serials.has(serial)) &&
        lineUnits.every((u) => u.lot === `LOT${line.lineId}` && u.units === 1);
      check(confirmedIn === 1, `line ${line.lineId}: confirmed in ${confirmedIn} order.confirmed events (expected 1)`);
      check(shippedEvents === 1, `line ${line.lineId}: ${shippedEvents} order.shipped events (expected 1)`);
      check(inParcels.length === 1, `line ${line.lineId}: in ${inParcels.length} parcels (expected 1)`);
      check(unitsOk, `line ${line.lineId}: units ${JSON.stringify(lineUnits)} (expected ${line.serials.join(", ")} once each)`);
      if (confirmedIn === 1) confirmedOnce++;
      if (shippedEvents === 1 && inParcels.length === 1 && unitsOk) shippedOnce++;
    }
    const orderParcels = (parcels as { orderNumber: string; tracking: string }[]).filter((p) => p.orderNumber === order.orderNumber);
    check(
      orderParcels.length === 1 && orderParcels[0]!.tracking === order.tracking,
      `${order.orderNumber}: parcels ${JSON.stringify(orderParcels)} (expected one, ${order.tracking})`,
    );
    const invoiceRows = (invoices as { number: string; orderNumber: string }[]).filter((i) => i.orderNumber === order.orderNumber);
    const invoiceEvents = payloads.filter((e) => e.type === "invoice.received" && e.data.invoiceNumber === order.invoiceNumber).length;
    check(
      invoiceRows.length === 1 && invoiceRows[0]!.number === order.invoiceNumber,
      `${order.orderNumber}: invoices ${JSON.stringify(invoiceRows)} (expected ${order.invoiceNumber} once)`,
    );
    check(invoiceEvents === 1, `${order.orderNumber}: ${invoiceEvents} invoice.received events (expected 1)`);
    if (invoiceRows.length === 1 && invoiceEvents === 1) invoicedOnce++;
  }

  // 2. One 850 per order; control numbers 1..n, each read the same every time, as D1 has them.
  let ordersWithOne850 = 0;
  for (const order of orders) {
    const found = purchaseOrders.get(order.orderNumber) ?? [];
    check(found.length === 1, `${order.orderNumber}: ${found.length} 850s (${found.join(", ")}; expected 1)`);
    if (found.length === 1) ordersWithOne850++;
  }
  const controls = [...read.keys()].sort((a, b) => a - b);
  const holes = Array.from({ length: maxControl }, (_, i) => i + 1).filter((n) => !read.has(n));
  const d1Controls = (interchanges as { control: number }[]).map((row) => row.control);
  check(holes.length === 0, `control numbers never read (holes): ${holes.join(", ")}`);
  check(readTwiceDiffering.length === 0, `control numbers read with different bytes: ${readTwiceDiffering.join(", ")}`);
  check(beyond.status === 404, `a document past the last control number ${maxControl}: ${beyond.status}`);
  check(
    d1Controls.length === new Set(d1Controls).size &&
      d1Controls.length === controls.length &&
      d1Controls.every((n, i) => n === controls[i]),
    `edi_interchanges holds control numbers ${d1Controls.join(",")}; the partner read ${controls.join(",")}`,
  );

  // 3. One 997 per inbound interchange; every answer to it those bytes.
  const files = orders.flatMap((order) => order.files);
  let acknowledgedOnce = 0;
  for (const file of files) {
    const acks = acknowledgmentsOf.get(String(file.control)) ?? [];
    check(acks.length === 1, `inbound ${file.control} (${file.kind}): ${acks.length} 997s (${acks.join(", ")}; expected 1)`);
    const bytes = acks.length === 1 ? read.get(acks[0]!) : undefined;
    const fileAnswers = answers.get(file.control) ?? [];
    const differing = fileAnswers.filter((answer) => answer.acknowledgment !== bytes);
    check(differing.length === 0, `inbound ${file.control}: ${differing.length} of ${fileAnswers.length} answers not its 997's bytes`);
    const refused = fileAnswers.flatMap((answer) => answer.sets ?? []).filter((set) => set.outcome === "refused");
    check(refused.length === 0, `inbound ${file.control} (${file.kind}): refused sets ${JSON.stringify(refused)}`);
    if (acks.length === 1 && differing.length === 0) acknowledgedOnce++;
  }

  // 4. Every received interchange applied, no inbound file left.
  const rows = received as { key: string; accepted: number; appliedAt: string | null }[];
  const unapplied = rows.filter((row) => row.appliedAt === null).length;
  check(rows.length === files.length, `edi_received_interchanges: ${rows.length} rows for ${files.length} files`);
  check(unapplied === 0, `edi_received_interchanges: ${unapplied} not applied`);
  check(inboundLeft === 0, `R2: ${inboundLeft} inbound files left under edi/inbound/`);

  const outcomes = [...answers.values()].flat().reduce<Record<string, number>>((counts, answer) => {
    const key = `${answer.outcome}${answer.applied === false ? " (not applied)" : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});
  const lineCount = lineIds.length;
  console.log(
    `\n${crashes} SIGKILLs; posts ${stats.posts} (${stats.unanswered} unanswered, ${stats.duplicatesPosted} duplicates on purpose); answers ${JSON.stringify(outcomes)}; files answered after each round: ${progress.join(", ")}`,
  );
  console.log(
    `posts again after a crash answered ${JSON.stringify(afterCrash)}; inbound files kept in R2 after each kill: ${keptAfterKills.join(", ")}; received and not applied after each restart: ${unappliedAfterRounds.join(", ")}; after the last, before the housekeeping ${unappliedAfterKill}, after it ${unappliedAfterHousekeeping}`,
  );
  console.log(`documents read ${read.size} (taken ${stats.taken} times)`);
  console.table({
    "855 lines confirmed once": `${confirmedOnce}/${lineCount}`,
    "856 items shipped once (parcel, event, units)": `${shippedOnce}/${lineCount}`,
    "810 invoices once": `${invoicedOnce}/${orders.length}`,
    "orders with one 850": `${ordersWithOne850}/${orders.length}${otherDocuments ? ` (+${otherDocuments} other documents)` : ""}`,
    "control numbers (ISA13)": `1..${maxControl}, holes ${holes.length}, read differing ${readTwiceDiffering.length}, in D1 ${d1Controls.length}`,
    "inbound interchanges with one 997": `${acknowledgedOnce}/${files.length}`,
    "received interchanges applied": `${rows.length - unapplied}/${rows.length}`,
    "inbound files left in R2": `${inboundLeft}`,
  });
  if (violations.length > 0) {
    console.log(`\n${violations.length} VIOLATIONS:`);
    for (const violation of violations) console.log(`  ${violation}`);
    process.exitCode = 1;
  } else {
    console.log("exactly once: no document lost, none applied twice");
  }
} finally {
  if (process.env.MEDPARTS_KEEP_STATE) console.log(`state kept in ${persistTo}`);
  else rmSync(persistTo, { recursive: true, force: true });
}
