import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { ROWS_PER_SLICE } from "../../src/operator/imports/formats/window";
import { applyOfferChunk } from "../../src/operator/offers/price-files";
import { call, expectProblem, json, operatorTokenFor, tokenFor, vendorTokenFor } from "../helpers/api";
import { createImport, IMPORTS, importErrors, type JobCaller, ndjson, OFFER_IMPORTS, runImport, startAndWait } from "../helpers/imports";
import { issueQuotes } from "../helpers/orders";

/** A vendor of the demo data, and another one that must never see its price files. */
const VENDOR = 5;
const OTHER_VENDOR = 3;

const as = async (vendor = VENDOR): Promise<JobCaller> => ({ collection: OFFER_IMPORTS, token: await vendorTokenFor(vendor) });

const offer = (sku: string, extra: Record<string, unknown> = {}) => ({
  sku,
  productId: productId(60),
  condition: "New OEM",
  purchaseChoice: "Buy",
  warranty: "12 months",
  price: 100,
  leadTimeDays: 2,
  ...extra,
});

const offerOf = async (sku: string, vendor = VENDOR) => {
  const res = await call(await vendorTokenFor(vendor), `/vendor/api/offers/${sku}`);
  return res.status === 200 ? (await json(res)).data : null;
};

const revisions = async (sku: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM vendor_offers WHERE vendor_id = ? AND sku = ?")
    .bind(VENDOR, sku)
    .first<{ n: number }>())!.n;

describe("price files: a vendor's offers through an import job", () => {
  it("NDJSON creates offers named by product id, GTIN or manufacturer and part number; the same file again writes nothing", async () => {
    const unitGtin = generateDeviceIdentifiers(61)[0]!.deviceId;
    const part = await env.CATALOG.prepare(
      "SELECT p.part_number AS part, m.name AS manufacturer FROM products p JOIN manufacturers m ON m.id = p.manufacturer_id WHERE p.id = ?",
    )
      .bind(productId(62))
      .first<{ part: string; manufacturer: string }>();
    const file = ndjson([
      offer("PF-1"),
      offer("PF-2", { productId: undefined, gtin: unitGtin, price: 55.5 }),
      offer("PF-3", { productId: undefined, manufacturer: part!.manufacturer, partNumber: part!.part, price: 12.25 }),
    ]);
    const first = await runImport({ format: "ndjson" }, { "prices.ndjson": file }, await as());
    expect(first).toMatchObject({ state: "succeeded", counts: { read: 3, created: 3, updated: 0, unchanged: 0, rejected: 0 } });
    expect(first.links.self).toMatch(new RegExp(`${OFFER_IMPORTS}/${first.id}$`));
    expect(await offerOf("PF-2")).toMatchObject({ productId: productId(61), price: 55.5, status: "active" });
    expect(await offerOf("PF-3")).toMatchObject({ productId: productId(62), price: 12.25 });
    // A buyer's next quote carries the file's price.
    const quotes = await issueQuotes(productId(61));
    expect(quotes.find((q) => (q as unknown as { vendorSku: string }).vendorSku === "PF-2")?.price).toBe(55.5);

    const again = await runImport({ format: "ndjson" }, { "prices.ndjson": file }, await as());
    expect(again.counts).toMatchObject({ read: 3, created: 0, updated: 0, unchanged: 3 });
    expect(await revisions("PF-1")).toBe(1);
  });

  it("a changed price updates the offer in place (same revision); changed terms make a new revision", async () => {
    await runImport({ format: "ndjson" }, { "a.ndjson": ndjson([offer("PF-10"), offer("PF-11")]) }, await as());
    const before = await offerOf("PF-10");
    const changed = await runImport(
      { format: "ndjson" },
      { "b.ndjson": ndjson([offer("PF-10", { price: 89.99 }), offer("PF-11", { warranty: "24 months" })]) },
      await as(),
    );
    expect(changed.counts).toMatchObject({ updated: 2, created: 0, unchanged: 0 });
    expect(await offerOf("PF-10")).toMatchObject({ price: 89.99, revision: before.revision });
    expect(await revisions("PF-11")).toBe(2);
  });

  it("CSV rows: each bad row is rejected with its line, column and reason; with skipFailedRows the others are applied", async () => {
    const csv = [
      "sku,productId,condition,purchaseChoice,warranty,price,leadTimeDays,effectiveFrom,effectiveTo,futurePrice,futurePriceEffectiveFrom",
      `PF-20,${productId(63)},New OEM,Buy,12 months,10.50,3,,,11.00,2030-01-01T00:00:00Z`,
      `PF-21,${productId(63)},New OEM,Buy,12 months,10.505,3,,,,`,
      "PF-22,MP-9999999,New OEM,Buy,12 months,10,3,,,,",
      `PF-20,${productId(64)},New OEM,Buy,12 months,10,3,,,,`,
      `PF-23,${productId(64)},New OEM,Buy,12 months,10,3,2030-02-01T00:00:00Z,2030-01-01T00:00:00Z,,`,
      `PF-24,${productId(64)},New OEM,Buy,12 months,0,3,,,,`,
      `PF-25,${productId(64)},"New OEM, boxed",Buy,12 months,7,3,,,,`,
      "",
    ].join("\n");
    const job = await runImport({ format: "csv", onError: "skipFailedRows" }, { "prices.csv": csv }, await as());
    expect(job).toMatchObject({ state: "succeeded", counts: { read: 7, created: 2, rejected: 5 } });
    const errors = await importErrors(job.id, await as());
    expect(errors.map((e) => [e.line, e.productKey, e.field, e.code])).toEqual([
      [3, "PF-21", "price", "invalid_value"],
      [4, "PF-22", "productId", "unknown_product"],
      [5, "PF-20", "sku", "duplicate_key"],
      [6, "PF-23", "effectiveTo", "invalid_value"],
      [7, "PF-24", "price", "invalid_value"],
    ]);
    expect(await offerOf("PF-20")).toMatchObject({ price: 10.5, futurePrice: { price: 11, effectiveFrom: "2030-01-01T00:00:00.000Z" } });
    expect(await offerOf("PF-25")).toMatchObject({ condition: "New OEM, boxed" });
    expect(await offerOf("PF-21")).toBeNull();
  });

  it("rejectAll (the default): one bad row fails the job and no offer is written; a dry run counts and writes nothing", async () => {
    const file = ndjson([offer("PF-30"), offer("PF-31", { price: -1 })]);
    const failed = await runImport({ format: "ndjson" }, { "p.ndjson": file }, await as());
    expect(failed).toMatchObject({ state: "failed", failure: { code: "rows_rejected" }, counts: { created: 1, rejected: 1 } });
    expect(await offerOf("PF-30")).toBeNull();
    const dry = await runImport({ format: "ndjson", dryRun: true }, { "p.ndjson": ndjson([offer("PF-32")]) }, await as());
    expect(dry).toMatchObject({ state: "succeeded", dryRun: true, counts: { created: 1 } });
    expect(await offerOf("PF-32")).toBeNull();
  });

  it("a file fault fails the job: an unknown CSV column names the closest one", async () => {
    const job = await runImport({ format: "csv" }, { "p.csv": "sku,prize\nPF-40,1\n" }, await as());
    expect(job.state).toBe("failed");
    expect(job.failure.code).toBe("unknown_column");
    expect(job.failure.message).toContain("price");
  });

  it("a price file is upsert only (replace, gudid are refused): withdrawing stays explicit", async () => {
    const token = await vendorTokenFor(VENDOR);
    for (const body of [{ format: "ndjson", mode: "replace" }, { format: "gudid" }]) {
      await expectProblem(await call(token, OFFER_IMPORTS, { method: "POST", json: body }), 400);
    }
  });

  it("validation and apply steps that fail are retried, and the job ends as a clean run would (mockStepError)", async () => {
    const caller = await as();
    const job = await createImport({ format: "ndjson" }, { "m.ndjson": ndjson([offer("PF-90"), offer("PF-91", { price: 91 })]) }, caller);
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "validate m.ndjson 0" }, new Error("D1 went away"), 2);
      await m.mockStepError({ name: "apply 0" }, new Error("D1 went away"), 1);
    });
    expect((await call(caller.token!, `${OFFER_IMPORTS}/${job.id}/start`, { method: "POST" })).status).toBe(202);
    await instance.waitForStatus("complete");
    const done = (await json(await call(caller.token!, `${OFFER_IMPORTS}/${job.id}`))).data;
    expect(done).toMatchObject({ state: "succeeded", counts: { read: 2, created: 2, rejected: 0 } });
    expect(await offerOf("PF-91")).toMatchObject({ price: 91 });
    expect(await revisions("PF-90")).toBe(1);
  });

  it("an apply step that runs again after its offers committed writes nothing more", async () => {
    const jobId = "imp_PFreplay0000000000000";
    const record = (sku: string, price: number) =>
      JSON.stringify({
        sku,
        productId: productId(65),
        input: { ...offer(sku, { price }), sku: undefined, unitOfMeasure: "EA", packQuantity: 1, customFields: [] },
      });
    await env.CATALOG.batch([
      env.CATALOG.prepare(
        "INSERT INTO catalog_imports (id, kind, vendor_id, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, client_id, created_at) " +
          "VALUES (?, 'offers', ?, 'ndjson', 'upsert', 0, 'rejectAll', 0, 0, 'running', 'test', ?)",
      ).bind(jobId, VENDOR, new Date().toISOString()),
      env.CATALOG.prepare(
        "INSERT INTO offer_import_rows (job_id, seq, sku, action, record) VALUES (?1, 1, 'PF-50', 'create', ?2), (?1, 2, 'PF-51', 'create', ?3)",
      ).bind(jobId, record("PF-50", 20), record("PF-51", 21)),
    ]);
    const job = { id: jobId, vendor_id: VENDOR };
    await applyOfferChunk(env, job, 0, 2, 0);
    const rows = async () =>
      (
        await env.DB.prepare(
          "SELECT sku, id, price_cents, updated_at, replaced_at FROM vendor_offers WHERE vendor_id = ? AND sku IN ('PF-50', 'PF-51') ORDER BY id",
        )
          .bind(VENDOR)
          .all()
      ).results;
    const first = await rows();
    expect(first.map((r) => r.price_cents)).toEqual([2000, 2100]);
    await applyOfferChunk(env, job, 0, 2, 0);
    expect(await rows()).toEqual(first);
    expect((await env.CATALOG.prepare("SELECT rows_applied FROM catalog_imports WHERE id = ?").bind(jobId).first())!.rows_applied).toBe(2);
    // The fixture job ends, as the Workflow would end it: a job under way holds the vendor's next start (one at a time).
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'succeeded' WHERE id = ?").bind(jobId).run();
  });

  // Production D1 refuses a string over 2 MB; the local one does not, so jsonGroups (test/offers/offers.test.ts) is what
  // keeps each bound group under 1 MB. Here: a 2,000-row chunk of such offers is over 2 MB of JSON, and it is written.
  it("a chunk of offers with ten long custom fields each (over 2 MB of JSON) is written whole", async () => {
    const customFields = Array.from({ length: 10 }, (_, i) => ({
      fieldId: `field${i}`,
      prompt: "P".repeat(200),
      isRequired: false,
      formatRegex: `^[A-Z]{1,${100 + i}}$`,
      errorMessage: "E".repeat(300),
    }));
    const rows = Array.from({ length: 400 }, (_, i) => offer(`PF-BIG-${i}`, { productId: productId(50 + (i % 20)), customFields }));
    const file = ndjson(rows);
    expect(file.length).toBeGreaterThan(2_000_000);
    const job = await runImport({ format: "ndjson" }, { "big.ndjson": file }, await as());
    expect(job).toMatchObject({ state: "succeeded", counts: { created: 400, rejected: 0 } });
    expect(await offerOf("PF-BIG-399")).toMatchObject({
      customFields: expect.arrayContaining([expect.objectContaining({ fieldId: "field9" })]),
    });
  });

  it("a window of more rows than a slice keeps every row's decision: rejections in every slice, a SKU's first line across slices", async () => {
    const rows = Array.from({ length: 2 * ROWS_PER_SLICE + 200 }, (_, i) => offer(`PF-S-${i}`, { price: 10 + (i % 7) }));
    rows[1] = offer("PF-S-1", { price: 0 });
    rows[ROWS_PER_SLICE + 50] = offer("PF-S-3");
    rows[2 * ROWS_PER_SLICE + 100] = offer(`PF-S-${2 * ROWS_PER_SLICE + 100}`, { leadTimeDays: -1 });
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "slices.ndjson": ndjson(rows) }, await as());
    expect(job).toMatchObject({ state: "succeeded", counts: { read: rows.length, created: rows.length - 3, rejected: 3 } });
    const errors = await importErrors(job.id, await as());
    expect(errors.map((e) => [e.line, e.productKey, e.code])).toEqual([
      [2, "PF-S-1", "invalid_value"],
      [ROWS_PER_SLICE + 51, "PF-S-3", "duplicate_key"],
      [2 * ROWS_PER_SLICE + 101, `PF-S-${2 * ROWS_PER_SLICE + 100}`, "invalid_value"],
    ]);
    expect(await offerOf(`PF-S-${rows.length - 1}`)).toMatchObject({ price: 10 + ((rows.length - 1) % 7) });
  });

  it("a SKU's first line wins across windows, even when that line was rejected for its product", async () => {
    const padding = Array.from({ length: 4500 }, (_, i) =>
      offer(`PF-PAD-${i}`, { warranty: `12 months ${"w".repeat(200)}`.slice(0, 100) }),
    );
    const file = ndjson([offer("PF-X", { productId: "MP-9999999" }), ...padding, offer("PF-X")]);
    expect(file.length).toBeGreaterThan(1024 * 1024); // the last line is in a later window than the first
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "w.ndjson": file }, await as());
    const errors = await importErrors(job.id, await as());
    expect(errors.map((e) => [e.line, e.code])).toEqual([
      [1, "unknown_product"],
      [4502, "duplicate_key"],
    ]);
    expect(await offerOf("PF-X")).toBeNull();
  });

  it("a vendor's price files run one at a time: starting another while one is under way is a 409", async () => {
    const caller = await as();
    const first = await createImport({ format: "ndjson" }, { "a.ndjson": ndjson([offer("PF-80")]) }, caller);
    const second = await createImport({ format: "ndjson" }, { "b.ndjson": ndjson([offer("PF-81")]) }, caller);
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', started_at = ?2, progressed_at = ?2 WHERE id = ?1")
      .bind(first.id, new Date().toISOString())
      .run();
    const refused = await expectProblem(await call(caller.token!, `${OFFER_IMPORTS}/${second.id}/start`, { method: "POST" }), 409);
    expect(refused.detail).toContain("Another price file");
    // Another vendor is not held up by it.
    const other = await createImport({ format: "ndjson" }, { "c.ndjson": ndjson([offer("PF-82")]) }, await as(OTHER_VENDOR));
    expect((await startAndWait(other.id, await as(OTHER_VENDOR))).state).toBe("succeeded");
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'cancelled' WHERE id = ?").bind(first.id).run();
    expect((await startAndWait(second.id, caller)).state).toBe("succeeded");
  });

  it("the operator's event feed says a price file finished, naming its vendor", async () => {
    const job = await runImport({ format: "ndjson" }, { "e.ndjson": ndjson([offer("PF-60")]) }, await as());
    const events = await env.CATALOG.prepare("SELECT type, data FROM operator_events WHERE id = ?").bind(`evt_import_${job.id}`).first<{
      type: string;
      data: string;
    }>();
    expect(events!.type).toBe("offers.import.finished");
    expect(JSON.parse(events!.data)).toMatchObject({ importId: job.id, vendorId: VENDOR, state: "succeeded", counts: { created: 1 } });
  });
});

describe("price files: who sees them", () => {
  it("another vendor, the operator's catalog imports and a buyer cannot see or touch a vendor's price file", async () => {
    const job = await createImport({ format: "ndjson" }, { "x.ndjson": ndjson([offer("PF-70")]) }, await as());
    const other = await vendorTokenFor(OTHER_VENDOR);
    for (const path of ["", "/errors", "/files/x.ndjson"]) {
      await expectProblem(await call(other, `${OFFER_IMPORTS}/${job.id}${path}`), 404);
    }
    await expectProblem(await call(other, `${OFFER_IMPORTS}/${job.id}/start`, { method: "POST" }), 404);
    await expectProblem(await call(other, `${OFFER_IMPORTS}/${job.id}/cancel`, { method: "POST" }), 404);
    const listed = (await json(await call(other, OFFER_IMPORTS))).data.items as { id: string }[];
    expect(listed.map((j) => j.id)).not.toContain(job.id);
    const mine = (await json(await call(await vendorTokenFor(VENDOR), OFFER_IMPORTS))).data.items as { id: string }[];
    expect(mine.map((j) => j.id)).toContain(job.id);
    // The operator's catalog imports are another kind of job: the vendor's is not one of them, and the other way round.
    const operator = await operatorTokenFor();
    await expectProblem(await call(operator, `${IMPORTS}/${job.id}`), 404);
    const catalogJob = await createImport({ format: "ndjson" }, { "c.ndjson": '{"id":"x"}\n' });
    await expectProblem(await call(await vendorTokenFor(VENDOR), `${OFFER_IMPORTS}/${catalogJob.id}`), 404);
    // Tokens of the wrong kind are refused before anything is read.
    expect((await call(operator, OFFER_IMPORTS)).status).toBe(401);
    expect((await call(await tokenFor(1), OFFER_IMPORTS)).status).toBe(401);
  });
});
