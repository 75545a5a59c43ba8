import { env, introspectWorkflowInstance } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { progressOf, readJob } from "../../src/operator/imports/jobs";
import { sweepImportJobs } from "../../src/operator/imports/sweep";
import { fullTextSegments } from "../../src/shared/catalog/full-text-index";
import { gtin14Of } from "../../src/shared/catalog/gtin";
import device from "../fixtures/gudid/device.txt?raw";
import gmdnTerms from "../fixtures/gudid/gmdnTerms.txt?raw";
import identifiers from "../fixtures/gudid/identifiers.txt?raw";
import productCodes from "../fixtures/gudid/productCodes.txt?raw";
import { call, expectProblem, json, operatorTokenFor, vendorTokenFor } from "../helpers/api";
import { search } from "../helpers/catalog";
import { expectMatchesContract } from "../helpers/contract";
import {
  catalogCount,
  catalogVersion,
  createImport,
  getJob,
  IMPORTS,
  type ImportOptions,
  importErrors,
  importRecord,
  type JobCaller,
  ndjson,
  OFFER_IMPORTS,
  productRow,
  runImport,
  startAndWait,
} from "../helpers/imports";

const product = (n: number, extra: Record<string, unknown> = {}) => importRecord("IMP", n, extra);

const count = catalogCount;

describe("catalog import: NDJSON through the Workflow", () => {
  it("creates products, then a second import of the same file writes nothing and keeps the catalog version", async () => {
    const file = ndjson([1, 2, 3].map((n) => product(n)));
    const first = await runImport({ format: "ndjson" }, { "catalog.ndjson": file });
    expect(first.state).toBe("succeeded");
    expect(first.counts).toMatchObject({ read: 3, created: 3, updated: 0, unchanged: 0, rejected: 0 });
    expect(first.progress).toMatchObject({ phase: "done", fraction: 1 });
    // The job ends after the catalog's upkeep: deep pages' sort positions hold for the new catalog, the index is merged.
    expect(
      await count(
        "SELECT count(*) AS n FROM catalog_positions_built b JOIN catalog_version v ON v.id = 1 AND v.version = b.catalog_version",
      ),
    ).toBe(3);
    expect(await fullTextSegments(env.CATALOG)).toBe(1);
    const row = (await readJob(env.CATALOG, first.id))!;
    expect(row.upkeep_started_at).not.toBeNull();
    expect(progressOf({ ...row, state: "running" }, new Date().toISOString())).toMatchObject({ phase: "upkeep", fraction: 1 });
    expect(await productRow("IMP-2")).toMatchObject({
      title: "Imported pump part 2",
      manufacturer: "Importwerk Medical",
      status: "active",
    });
    const version = await catalogVersion();
    const again = await runImport({ format: "ndjson" }, { "catalog.ndjson": file });
    expect(again.counts).toMatchObject({ read: 3, created: 0, updated: 0, unchanged: 3 });
    expect(await catalogVersion()).toBe(version);
    // The staging rows are gone once the job has ended.
    expect(await count("SELECT count(*) AS n FROM catalog_import_rows WHERE job_id IN (?, ?)", first.id, again.id)).toBe(0);
  });

  it("updates what changed only, matches manufacturers and categories by normalized name, and the product is found by search", async () => {
    await runImport({ format: "ndjson" }, { "a.ndjson": ndjson([product(20), product(21)]) });
    const changed = await runImport(
      { format: "ndjson" },
      {
        "b.ndjson": ndjson([
          product(20, { title: "Renamed  pump   part", manufacturer: "  IMPORTWERK medical " }),
          product(21, { categories: ["infusion pumps"] }),
        ]),
      },
    );
    // product 21: "infusion pumps" is the catalog's "Infusion Pumps", and the manufacturer's case and spaces are not a change
    expect(changed.counts).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(await productRow("IMP-20")).toMatchObject({ title: "Renamed pump part", manufacturer: "Importwerk Medical" });
    expect(await count("SELECT count(*) AS n FROM manufacturers WHERE name = 'Importwerk Medical' COLLATE NOCASE")).toBe(1);
    const found = await search({ filters: { query: "renamed pump" } });
    expect(found.items.map((item) => item.id)).toContain("IMP-20");
  });

  it("rejectAll: one bad row fails the job and nothing is applied; the errors name line, key, field and reason", async () => {
    const file = ndjson([product(10), { ...product(11), deviceIdentifiers: [{ deviceId: "00614141000013" }] }, product(12)]);
    const job = await runImport({ format: "ndjson" }, { "bad.ndjson": `${file}{not json\n` });
    expect(job.state).toBe("failed");
    expect(job.failure.code).toBe("rows_rejected");
    expect(await productRow("IMP-10")).toBeNull();
    const errors = await importErrors(job.id);
    expect(errors).toEqual([
      expect.objectContaining({
        file: "bad.ndjson",
        line: 2,
        productKey: "IMP-11",
        field: "deviceIdentifiers.0.deviceId",
        code: "invalid_gtin",
      }),
      expect.objectContaining({ line: 4, code: "malformed_json" }),
    ]);
    expect(await count("SELECT count(*) AS n FROM catalog_import_rows WHERE job_id = ?", job.id)).toBe(0);
  });

  it("each kind of bad row is named: wrong type, missing field, unknown field, too long, ill-formed Unicode, a key twice", async () => {
    const rows = [
      product(30, { title: 5 }),
      { ...product(31), title: undefined },
      product(32, { colour: "red" }),
      product(33, { title: "x".repeat(201) }),
      `{"id":"IMP-34","partNumber":"P34","title":"\\ud800","manufacturer":"M"}`,
      product(35),
      product(35, { title: "the same key again" }),
      [1, 2],
    ];
    const file = rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n");
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "rows.ndjson": file });
    expect(job.state).toBe("succeeded");
    expect(job.counts).toMatchObject({ read: 8, created: 1, rejected: 7 });
    const byLine = Object.fromEntries((await importErrors(job.id)).map((e) => [e.line, [e.field, e.code]]));
    expect(byLine).toEqual({
      1: ["title", "wrong_type"],
      2: ["title", "missing_field"],
      3: ["colour", "unknown_field"],
      4: ["title", "invalid_value"],
      5: ["title", "ill_formed_text"],
      7: ["id", "duplicate_key"],
      8: [null, "wrong_type"],
    });
    // The first line with a key wins.
    expect(await productRow("IMP-35")).toMatchObject({ title: "Imported pump part 35" });
  });

  it("skipFailedRows stops at maxErrors: more rejected rows fail the job, nothing applied", async () => {
    const file = ndjson([product(40), { bad: 1 }, { bad: 2 }, { bad: 3 }]);
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows", maxErrors: 2 }, { "x.ndjson": file });
    expect(job.state).toBe("failed");
    expect(job.failure.code).toBe("too_many_errors");
    expect(await productRow("IMP-40")).toBeNull();
  });

  it("a dry run reports the counts the real run then has, and writes nothing", async () => {
    await runImport({ format: "ndjson" }, { "a.ndjson": ndjson([product(50), product(51)]) });
    const file = ndjson([product(50), product(51, { title: "changed" }), product(52), { id: "bad" }]);
    const dry = await runImport({ format: "ndjson", dryRun: true, onError: "skipFailedRows" }, { "b.ndjson": file });
    expect(dry.state).toBe("succeeded");
    expect(await productRow("IMP-52")).toBeNull();
    expect((await productRow("IMP-51"))!.title).toBe("Imported pump part 51");
    const real = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "b.ndjson": file });
    expect(real.counts).toEqual(dry.counts);
    expect(real.counts).toMatchObject({ read: 4, created: 1, updated: 1, unchanged: 1, rejected: 1 });
  });

  it("device identifiers: GTINs stored as GTIN-14 with package levels; one claimed by another product is refused", async () => {
    const unit = gtin14Of("0077777100000");
    const taken = (await env.CATALOG.prepare("SELECT device_id FROM device_identifiers LIMIT 1").first<{ device_id: string }>())!.device_id;
    const job = await runImport(
      { format: "ndjson", onError: "skipFailedRows" },
      {
        "d.ndjson": ndjson([
          product(60, {
            deviceIdentifiers: [{ deviceId: unit.slice(2) }, { deviceId: gtin14Of("1077777100000"), containsDeviceId: unit, quantity: 12 }],
          }),
          product(61, { deviceIdentifiers: [{ deviceId: unit }] }),
          product(62, { deviceIdentifiers: [{ deviceId: taken }] }),
        ]),
      },
    );
    expect(job.counts).toMatchObject({ created: 1, rejected: 2 });
    const errors = await importErrors(job.id);
    expect(errors.map((e) => e.code)).toEqual(["duplicate_device_identifier", "device_identifier_taken"]);
    const { results } = await env.CATALOG.prepare(
      "SELECT device_id, contains_device_id, quantity FROM device_identifiers WHERE product_id = 'IMP-60' ORDER BY device_id",
    ).all();
    expect(results).toEqual([
      { device_id: unit, contains_device_id: null, quantity: null },
      { device_id: gtin14Of("1077777100000"), contains_device_id: unit, quantity: 12 },
    ]);
  });

  it("the main database's copy of the product codes follows the catalog: created with the products, replaced on update", async () => {
    const codesOf = async (id: string) =>
      (
        await env.DB.prepare("SELECT agency, code FROM product_codes WHERE product_id = ? ORDER BY agency, code")
          .bind(id)
          .all<{ agency: string; code: string }>()
      ).results;
    const [first, second] = [gtin14Of("0077777200001"), gtin14Of("0077777200002")];
    await runImport({ format: "ndjson" }, { "c.ndjson": ndjson([product(63, { deviceIdentifiers: [{ deviceId: first }] })]) });
    expect(await codesOf("IMP-63")).toEqual([
      { agency: "", code: "IMP6300A" },
      { agency: "GS1", code: first },
    ]);
    const updated = await runImport(
      { format: "ndjson" },
      { "c.ndjson": ndjson([product(63, { partNumber: "IMP-63-B", deviceIdentifiers: [{ deviceId: second }] })]) },
    );
    expect(updated.counts).toMatchObject({ updated: 1 });
    expect(await codesOf("IMP-63")).toEqual([
      { agency: "", code: "IMP63B" },
      { agency: "GS1", code: second },
    ]);
  });

  it("a record without id is matched by its unit GTIN, then by manufacturer and part number, else gets an id made from them", async () => {
    const seeded = await env.CATALOG.prepare(
      "SELECT p.id, p.part_number, m.name AS manufacturer, d.device_id FROM products p JOIN manufacturers m ON m.id = p.manufacturer_id " +
        "JOIN device_identifiers d ON d.product_id = p.id AND d.contains_device_id IS NULL ORDER BY p.rowid LIMIT 2",
    ).all<{ id: string; part_number: string; manufacturer: string; device_id: string }>();
    const [byGtin, byPart] = seeded.results;
    const { id: _a, ...base } = product(0);
    const job = await runImport(
      { format: "ndjson" },
      {
        "k.ndjson": ndjson([
          { ...base, partNumber: "ANYTHING1", title: "matched by GTIN", deviceIdentifiers: [{ deviceId: byGtin!.device_id }] },
          { ...base, partNumber: byPart!.part_number, manufacturer: byPart!.manufacturer.toUpperCase(), title: "matched by part number" },
          { ...base, partNumber: "NEW-PART 7", title: "new by part number" },
        ]),
      },
    );
    expect(job.counts).toMatchObject({ created: 1, updated: 2 });
    expect((await productRow(byGtin!.id))!.title).toBe("matched by GTIN");
    expect((await productRow(byPart!.id))!.title).toBe("matched by part number");
    expect((await productRow("MPN-IMPORTWERKMEDICAL-NEWPART7"))!.title).toBe("new by part number");
  });

  it("a record without id matched by part number keeps its product when the file adds another with the same part number", async () => {
    await runImport({ format: "ndjson" }, { "z.ndjson": ndjson([product(64)]) });
    const { id: _id, ...idless } = product(64, { title: "written without its id" });
    const file = ndjson([idless, product(65, { partNumber: idless.partNumber })]);
    const first = await runImport({ format: "ndjson" }, { "i.ndjson": file });
    expect(first.counts).toMatchObject({ created: 1, updated: 1 });
    expect((await productRow("IMP-64"))!.title).toBe("written without its id");
    // Read again (other bytes, so that every row is read): two products now have that part number; the row's own
    // product is the one written from it, and nothing is created.
    const again = await runImport({ format: "ndjson" }, { "i.ndjson": `${file}\n` });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await productRow(`MPN-IMPORTWERKMEDICAL-${idless.partNumber}`)).toBeNull();
  });
});

describe("catalog import: replace", () => {
  it("withdraws what the file lacks (never deletes), and the guard refuses to withdraw more than maxWithdrawPercent", async () => {
    const active = await count("SELECT count(*) AS n FROM products WHERE status != 'withdrawn'");
    const few = ndjson([product(70)]);
    const guarded = await runImport({ format: "ndjson", mode: "replace" }, { "few.ndjson": few });
    expect(guarded.state).toBe("failed");
    expect(guarded.failure.code).toBe("withdraw_guard");
    expect(guarded.failure.message).toContain(`lacks ${active}`);
    expect(await productRow("IMP-70")).toBeNull();
    // Everything but one product: withdraws that one only.
    const { results } = await env.CATALOG.prepare("SELECT id FROM products WHERE status != 'withdrawn' ORDER BY rowid").all<{
      id: string;
    }>();
    const keep = results.slice(1).map((row) => row.id);
    await env.CATALOG.prepare("UPDATE products SET content_hash = NULL").run();
    const allButOne = await runImport(
      { format: "ndjson", mode: "replace", dryRun: true },
      { "all.ndjson": ndjson(keep.map((id, i) => ({ ...product(i), id }))) },
    );
    expect(allButOne.counts).toMatchObject({ withdrawn: 1, updated: keep.length });
    expect((await productRow(results[0]!.id))!.status).toBe("active"); // a dry run
  });
});

describe("catalog import: CSV and GUDID", () => {
  it("CSV (RFC 4180): BOM, CRLF, quoted fields with commas, quotes and newlines; semicolon-separated categories", async () => {
    const csv =
      "\ufeffid,partNumber,title,description,manufacturer,categories,gtin,packageGtin,packageQuantity\r\n" +
      `CSV-1,C-100,"Valve, 3-way","A ""quoted"" word\r\nand a second line",Csvtronic,Valves; Tubing,${gtin14Of("0077777200001")},${gtin14Of("1077777200001")},20\r\n` +
      "CSV-2,C-200,Plain,,Csvtronic,,,,\r\n" +
      "CSV-3,,No part number,,Csvtronic,,,,\r\n";
    const job = await runImport({ format: "csv", onError: "skipFailedRows" }, { "parts.csv": csv });
    expect(job.counts).toMatchObject({ read: 3, created: 2, rejected: 1 });
    expect(await productRow("CSV-1")).toMatchObject({
      title: "Valve, 3-way",
      description: 'A "quoted" word and a second line',
      categories: '["Valves","Tubing"]',
    });
    expect(await importErrors(job.id)).toEqual([expect.objectContaining({ line: 5, field: "partNumber", code: "missing_field" })]);
  });

  it("a CSV with an unknown column fails as a file, with the column named and the nearest one suggested", async () => {
    const job = await runImport({ format: "csv" }, { "parts.csv": "id,partNumber,titles,manufacturer\nX,1,t,m\n" });
    expect(job.state).toBe("failed");
    expect(job.failure).toEqual({ code: "unknown_column", message: 'parts.csv: Unknown column "titles". Did you mean title?' });
  });

  it("the AccessGUDID release: devices with their package hierarchy, GMDN terms as categories, discontinued status", async () => {
    const job = await runImport(
      { format: "gudid", onError: "skipFailedRows" },
      { "device.txt": device, "identifiers.txt": identifiers, "gmdnTerms.txt": gmdnTerms, "productCodes.txt": productCodes },
    );
    expect(job.state).toBe("succeeded");
    expect(job.counts).toMatchObject({ read: 12, created: 11, rejected: 1 });
    expect(await importErrors(job.id)).toEqual([expect.objectContaining({ file: "device.txt", line: 13, code: "invalid_gtin" })]);
    const catheter = await productRow("GS1-00871234100510");
    expect(catheter).toMatchObject({ manufacturer: "Fennowick Vascular, Inc.", status: "active" });
    expect(catheter!.description).toContain('5" curved tip');
    expect((await productRow("GS1-00871234100411"))!.status).toBe("discontinued");
    const { results } = await env.CATALOG.prepare(
      "SELECT device_id, contains_device_id, quantity FROM device_identifiers WHERE product_id = 'GS1-00871234100510' ORDER BY quantity NULLS FIRST",
    ).all();
    expect(results[0]).toEqual({ device_id: "00871234100510", contains_device_id: null, quantity: null });
    expect(results.slice(1)).toEqual(
      expect.arrayContaining([expect.objectContaining({ contains_device_id: "00871234100510", quantity: 10 })]),
    );
  });
});

describe("catalog import: files", () => {
  it("a gzip upload is decompressed once and read like the plain file", async () => {
    const file = ndjson([product(80), product(81)]);
    const gzipped = new Uint8Array(await new Response(new Blob([file]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const job = await runImport({ format: "ndjson" }, { "c.ndjson.gz": gzipped });
    expect(job.files[0]).toMatchObject({ gzip: true });
    expect(job.counts).toMatchObject({ created: 2 });
  });

  it("file faults fail the job with a clear reason: empty, not UTF-8, not NDJSON, not gzip", async () => {
    const cases: [string | Uint8Array, string][] = [
      ["\n\n  \n", "empty_file"],
      [new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), "not_utf8"],
      ["id,partNumber\nX,1\n", "not_ndjson"],
      // gzip's magic bytes, then no gzip stream
      [new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]), "not_gzip"],
    ];
    for (const [content, code] of cases) {
      const job = await runImport({ format: "ndjson" }, { "f.ndjson": content });
      expect([job.state, job.failure?.code]).toEqual(["failed", code]);
    }
  });

  it("large files: windows of 1 MiB end on whole lines; line numbers and counts run across them", async () => {
    const description = "d".repeat(900);
    const records = Array.from({ length: 3000 }, (_, n) => product(1000 + n, { description }));
    const lines = records.map((record) => JSON.stringify(record));
    lines[2500] = "{broken";
    const created = await createImport({ format: "ndjson", onError: "skipFailedRows" }, { "big.ndjson": `${lines.join("\r\n")}\r\n` });
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, created.id);
    expect((await call(await operatorTokenFor(), `${IMPORTS}/${created.id}/start`, { method: "POST" })).status).toBe(202);
    await instance.waitForStatus("complete");
    // Its three windows are one step's (WINDOWS_PER_STEP): the first step ends the file.
    expect(await instance.waitForStepResult({ name: "validate big.ndjson 0" })).toMatchObject({
      outcome: "next",
      done: true,
      cursor: { rows: 3000 },
    });
    const job = await getJob(created.id);
    expect(job.progress.bytesTotal).toBeGreaterThan(2.5 * 1024 * 1024);
    expect(job.counts).toMatchObject({ read: 3000, created: 2999, rejected: 1 });
    expect(await importErrors(job.id)).toEqual([expect.objectContaining({ line: 2501, code: "malformed_json" })]);
  });

  it("a multipart upload resumes: the parts received are listed, completion checks them and joins them in order", async () => {
    const token = await operatorTokenFor();
    const job = await createImport({ format: "ndjson" }, {});
    const base = `${IMPORTS}/${job.id}/files/big.ndjson`;
    const begun = await json(await call(token, `${base}/uploads`, { method: "POST" }));
    const partSize = begun.data.partSize as number;
    const line = `${JSON.stringify(product(90, { description: "p".repeat(1000) }))}\n`;
    const body = new TextEncoder().encode(line.repeat(Math.ceil((partSize * 1.5) / line.length)));
    const put = (n: number, bytes: Uint8Array) => call(token, `${base}/parts/${n}`, { method: "PUT", body: bytes });
    expect((await put(2, body.subarray(partSize))).status).toBe(200);
    await expectProblem(await call(token, `${base}/complete`, { method: "POST" }), 409); // part 1 is missing
    expect((await put(1, body.subarray(0, partSize))).status).toBe(200);
    const listed = await json(await call(token, base));
    expect(listed.data.parts).toEqual([
      { partNumber: 1, size: partSize },
      { partNumber: 2, size: body.length - partSize },
    ]);
    expect((await call(token, `${base}/complete`, { method: "POST" })).status).toBe(200);
    // R2 holds the parts joined in order: the file as it was.
    const stored = await env.IMPORTS.get(`imports/${job.id}/big.ndjson`);
    const digest = async (bytes: ArrayBuffer | Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    expect(await digest(await stored!.arrayBuffer())).toEqual(await digest(body));
    expect((await getJob(job.id)).files[0]).toMatchObject({ size: body.length, uploaded: true });
  });

  it("uploads are refused clearly: no Content-Length, a second file for ndjson, a GUDID name, after the start", async () => {
    const token = await operatorTokenFor();
    const job = await createImport({ format: "ndjson" }, { "one.ndjson": ndjson([product(95)]) });
    const stream = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    });
    await expectProblem(await call(token, `${IMPORTS}/${job.id}/files/two.ndjson`, { method: "PUT", body: "{}" }), 400);
    await expectProblem(
      await call(token, `${IMPORTS}/${job.id}/files/one.ndjson`, { method: "PUT", body: stream, duplex: "half" } as RequestInit),
      411,
    );
    const gudid = await createImport({ format: "gudid" }, {});
    await expectProblem(await call(token, `${IMPORTS}/${gudid.id}/files/devices.txt`, { method: "PUT", body: "x" }), 400);
    await expectProblem(await call(token, `${IMPORTS}/${gudid.id}/start`, { method: "POST" }), 409); // device.txt missing
    await startAndWait(job.id);
    await expectProblem(await call(token, `${IMPORTS}/${job.id}/files/one.ndjson`, { method: "PUT", body: "{}" }), 409);
  });
});

describe("import uploads: refusals as documented", () => {
  /** A 400 of an upload operation: the ValidationProblem the document promises there, naming `field`. */
  const expectFieldRefused = async (res: Response, method: string, path: string, field: string) => {
    const body = await expectProblem(res, 400);
    await expectMatchesContract(res, method, path);
    expect(body.type).toMatch(/\/docs\/errors\/validation$/);
    expect(Object.keys(body.errors)).toEqual([field]);
  };

  it("a second file name, a name GUDID does not take and an empty file are validation problems, on all 8 upload operations of both kinds of job", async () => {
    const callers: (JobCaller & { collection: string; token: string })[] = [
      { collection: IMPORTS, token: await operatorTokenFor() },
      { collection: OFFER_IMPORTS, token: await vendorTokenFor(5) },
    ];
    for (const { collection, token } of callers) {
      const job = await createImport({ format: "ndjson" }, { "one.ndjson": "{}\n" }, { collection, token });
      const file = `${collection}/${job.id}/files/two.ndjson`;
      const attempts: [string, string, RequestInit][] = [
        ["PUT", file, { body: "{}" }],
        ["POST", `${file}/uploads`, {}],
        ["PUT", `${file}/parts/1`, { body: "{}" }],
        ["POST", `${file}/complete`, {}],
      ];
      for (const [method, path, init] of attempts) {
        await expectFieldRefused(await call(token, path, { method, ...init }), method, path, "name");
      }
      const empty = `${collection}/${job.id}/files/one.ndjson`;
      await expectFieldRefused(await call(token, empty, { method: "PUT", body: new Uint8Array(0) }), "PUT", empty, "body");
    }
    const gudid = await createImport({ format: "gudid" }, {});
    const path = `${IMPORTS}/${gudid.id}/files/devices.txt`;
    await expectFieldRefused(await call(await operatorTokenFor(), path, { method: "PUT", body: "x" }), "PUT", path, "name");
  });
});

describe("catalog import: the job's life", () => {
  it("cancel: at once while awaiting upload; at the next window while validating; refused once applying", async () => {
    const token = await operatorTokenFor();
    const waiting = await createImport({ format: "ndjson" }, {});
    const cancelled = await json(await call(token, `${IMPORTS}/${waiting.id}/cancel`, { method: "POST" }));
    expect(cancelled.data.state).toBe("cancelled");

    const validating = await createImport({ format: "ndjson" }, { "v.ndjson": ndjson([product(100)]) });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', started_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), validating.id)
      .run();
    expect((await call(token, `${IMPORTS}/${validating.id}/cancel`, { method: "POST" })).status).toBe(200);
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, validating.id);
    await env.CATALOG_IMPORTS.create({ id: validating.id, params: { jobId: validating.id } });
    await instance.waitForStatus("complete");
    expect((await getJob(validating.id)).state).toBe("cancelled");
    expect(await productRow("IMP-100")).toBeNull();

    const running = await createImport({ format: "ndjson" }, { "r.ndjson": ndjson([product(101)]) });
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'running' WHERE id = ?").bind(running.id).run();
    const refused = await expectProblem(await call(token, `${IMPORTS}/${running.id}/cancel`, { method: "POST" }), 409);
    expect(refused.detail).toContain("nothing is half-applied");
    // This job has no Workflow to end it: end it, so that the next catalog import may start (one runs at a time).
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'failed' WHERE id = ?").bind(running.id).run();
  });

  it("a step that fails is retried and the import ends as a clean run would (mockStepError)", async () => {
    const file = ndjson([product(110), product(111)]);
    const job = await createImport({ format: "ndjson" }, { "m.ndjson": file });
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "validate m.ndjson 0" }, new Error("D1 went away"), 2);
      await m.mockStepError({ name: "apply 0" }, new Error("D1 went away"), 1);
    });
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/start`, { method: "POST" });
    await instance.waitForStatus("complete");
    expect((await getJob(job.id)).counts).toMatchObject({ read: 2, created: 2, rejected: 0 });
  });

  it("a started job left without its instance is started when read after 30 s without progress (the sweep)", async () => {
    const job = await createImport({ format: "ndjson" }, { "s.ndjson": ndjson([product(130)]) });
    const longAgo = new Date(Date.now() - 60_000).toISOString();
    await env.CATALOG.prepare("UPDATE catalog_imports SET state = 'validating', started_at = ?, progressed_at = ? WHERE id = ?")
      .bind(longAgo, longAgo, job.id)
      .run();
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    expect((await getJob(job.id)).state).toBe("validating"); // this read starts the instance
    await instance.waitForStatus("complete");
    expect(await getJob(job.id)).toMatchObject({ state: "succeeded", counts: expect.objectContaining({ created: 1 }) });
  });

  it("a job whose instance errored (a step failing past its retries) is failed by the sweep, nothing applied", async () => {
    const job = await createImport({ format: "ndjson" }, { "e.ndjson": ndjson([product(131)]) });
    await using instance = await introspectWorkflowInstance(env.CATALOG_IMPORTS, job.id);
    await instance.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "verdict" }, new Error("D1 is gone for good"));
    });
    await call(await operatorTokenFor(), `${IMPORTS}/${job.id}/start`, { method: "POST" });
    await instance.waitForStatus("errored");
    await sweepImportJobs(env);
    expect((await getJob(job.id)).failure).toEqual({ code: "internal_error", message: "The import stopped on an unexpected error." });
    expect(await productRow("IMP-131")).toBeNull();
  });

  it("errors page by cursor and download whole as NDJSON; the finished job is an operator event", async () => {
    const token = await operatorTokenFor();
    const rows = Array.from({ length: 5 }, (_, n) => ({ id: `E-${n}` }));
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "e.ndjson": ndjson([product(120), ...rows]) });
    const first = await json(await call(token, `${IMPORTS}/${job.id}/errors?limit=3`));
    expect(first.data.items.map((e: { line: number }) => e.line)).toEqual([2, 3, 4]);
    const second = await json(await call(token, `${IMPORTS}/${job.id}/errors?limit=3&cursor=${first.data.nextCursor}`));
    expect(second.data.items.map((e: { line: number }) => e.line)).toEqual([5, 6]);
    expect(second.data.nextCursor).toBeNull();
    const download = await call(token, `${IMPORTS}/${job.id}/errors.ndjson`);
    expect(download.headers.get("Content-Type")).toBe("application/x-ndjson");
    const lines = (await download.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(5);
    const events = await json(await call(token, "/admin/api/events?limit=100"));
    expect(events.data.items).toContainEqual(
      expect.objectContaining({ type: "catalog.import.finished", data: expect.objectContaining({ importId: job.id, state: "succeeded" }) }),
    );
  });
});

describe("catalog import: bad input is refused, never stored or read silently", () => {
  it("text with a C0 control character or DEL is a rejected row (control_character); tabs and line breaks are white space", async () => {
    const job = await runImport(
      { format: "ndjson", onError: "skipFailedRows" },
      {
        "c.ndjson": ndjson([
          product(140, { title: "\u0000 NUL\u0007bell" }),
          product(141, { description: "tab\there\r\nline" }),
          product(142, { categories: ["Valves", "bad\u001f"] }),
          product(143, { manufacturer: "DEL\u007f" }),
        ]),
      },
    );
    expect(job.counts).toMatchObject({ read: 4, created: 1, rejected: 3 });
    const byLine = Object.fromEntries((await importErrors(job.id)).map((e) => [e.line, [e.productKey, e.field, e.code]]));
    expect(byLine).toEqual({
      1: ["IMP-140", "title", "control_character"],
      3: ["IMP-142", "categories.1", "control_character"],
      4: ["IMP-143", "manufacturer", "control_character"],
    });
    expect(await productRow("IMP-140")).toBeNull();
    expect((await productRow("IMP-141"))!.description).toBe("tab here line");

    const csv = await runImport(
      { format: "csv", onError: "skipFailedRows" },
      { "c.csv": 'id,partNumber,title,manufacturer\nIMP-144,P144,"bell\u0007",Importwerk Medical\n' },
    );
    expect(await importErrors(csv.id)).toEqual([expect.objectContaining({ line: 2, field: "title", code: "control_character" })]);
    expect(await productRow("IMP-144")).toBeNull();
  });

  it("a file of only a byte order mark and blank lines is empty_file, NDJSON or CSV, and blank lines past the first window too", async () => {
    const bomAndBlankLines = "\ufeff\r\n\n  \n";
    const cases: [ImportOptions["format"], string, string][] = [
      ["ndjson", "b.ndjson", bomAndBlankLines],
      ["csv", "b.csv", bomAndBlankLines],
      ["ndjson", "long.ndjson", `\ufeff${"\n".repeat(1024 * 1024 + 10)}`],
    ];
    for (const [format, name, content] of cases) {
      const job = await runImport({ format }, { [name]: content });
      expect([name, job.state, job.failure?.code, job.counts.read]).toEqual([name, "failed", "empty_file", 0]);
    }
  });

  it("a cursor of the errors list that this API did not make is a 400 naming cursor, not an empty page", async () => {
    const token = await operatorTokenFor();
    const job = await runImport({ format: "ndjson", onError: "skipFailedRows" }, { "e.ndjson": ndjson([{ id: "E-1" }, { id: "E-2" }]) });
    const notMade = [
      "%ff%fe'",
      ...["not json", JSON.stringify(["e.ndjson", 1.5]), JSON.stringify({ file: "e.ndjson" })].map((text) =>
        encodeURIComponent(btoa(text)),
      ),
    ];
    for (const cursor of notMade) {
      const refused = await expectProblem(await call(token, `${IMPORTS}/${job.id}/errors?cursor=${cursor}`), 400);
      expect(Object.keys(refused.errors), cursor).toEqual(["cursor"]);
    }
    const first = await json(await call(token, `${IMPORTS}/${job.id}/errors?limit=1`));
    const second = await json(await call(token, `${IMPORTS}/${job.id}/errors?limit=1&cursor=${first.data.nextCursor}`));
    expect(second.data.items.map((e: { line: number }) => e.line)).toEqual([2]);
  });
});
