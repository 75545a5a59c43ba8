import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRoundTrips, RoundTripProbe } from "../../scripts/bench/probe";
import production from "../../src/api/index";
import { DEMO_CASE_QUANTITY, generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import type { Bindings } from "../../src/env";
import { gtin14Of, gtinCheckDigit } from "../../src/shared/catalog/gtin";
import { GS } from "../../src/shared/udi/gs1";
import { hibccCheckCharacter } from "../../src/shared/udi/hibcc";
import { API, call, expectProblem, json, TENANT_A, tokenFor } from "../helpers/api";
import { JSMITH, KJOHNSON } from "../helpers/orders";

const resolve = async (body: unknown) => call(await tokenFor(TENANT_A), "/catalog/resolve", { method: "POST", json: body });
const results = async (codes: string[], extra: Record<string, unknown> = {}) => {
  const res = await resolve({ codes, ...extra });
  expect(res.status).toBe(200);
  return (await json(res)).data.results as Record<string, any>[];
};

const unitGtin = (index: number) => generateDeviceIdentifiers(index)[0]!.deviceId;
const caseGtin = (index: number) => generateDeviceIdentifiers(index)[1]!.deviceId;
const withCheck = (data: string) => `${data}${hibccCheckCharacter(data)}`;
const NESTED = { unit: gtin14Of("0950600099001"), box: gtin14Of("1950600099001"), case: gtin14Of("2950600099001") };

/** Products of other agencies (and a part number that reads as GS1), inserted beside the seeded catalog. */
beforeAll(async () => {
  const product = (id: string, part: string) =>
    env.CATALOG.prepare(
      "INSERT INTO products (id, part_number, display_part_number, normalized_part_number, title, description, manufacturer_id, categories, status) " +
        "VALUES (?1, ?2, ?2, ?2, 'Scan test part', '', 1, '[]', 'active')",
    ).bind(id, part);
  const identifier = (agency: string, deviceId: string, product: string) =>
    env.CATALOG.prepare("INSERT INTO device_identifiers (agency, device_id, product_id) VALUES (?, ?, ?)").bind(agency, deviceId, product);
  await env.CATALOG.batch([
    product("SCAN-HIBCC", "SCANHIBCC1"),
    identifier("HIBCC", "A99912345", "SCAN-HIBCC"),
    product("SCAN-ISBT", "SCANISBT1"),
    identifier("ICCBBA", "08717648200274", "SCAN-ISBT"),
    product("SCAN-PART", "10D9T"),
    // Nested levels: a case of 5 boxes of 10 units.
    product("SCAN-NESTED", "SCANNESTED1"),
    identifier("GS1", NESTED.unit, "SCAN-NESTED"),
    env.CATALOG.prepare(
      "INSERT INTO device_identifiers (agency, device_id, product_id, contains_device_id, quantity) VALUES ('GS1', ?1, 'SCAN-NESTED', ?2, 10), ('GS1', ?3, 'SCAN-NESTED', ?1, 5)",
    ).bind(NESTED.box, NESTED.unit, NESTED.case),
  ]);
});

describe("scan to order: every format resolves to its product", () => {
  it("a GS1 DataMatrix, a GS1-128 in brackets, a Digital Link and a bare GTIN name the same product with their data", async () => {
    const gtin = unitGtin(7);
    const found = await results([
      `]d201${gtin}17301200` + `10LOT7${GS}21SN-0007`,
      `(01)${gtin}(11)250101(17)301231(10)LOT7(240)PUMP-7(241)CPN7`,
      `https://example.com/01/${gtin}/10/LOT7/21/SN-0007?17=301231`,
      ` ${gtin}\r\n`,
    ]);
    for (const result of found) expect(result).toMatchObject({ status: "resolved", product: { id: productId(7) }, problem: null });
    expect(found.map((r) => [r.reading, r.form])).toEqual([
      ["gs1", "element-string"],
      ["gs1", "bracketed"],
      ["gs1", "digital-link"],
      ["gtin", "gtin"],
    ]);
    expect(found[0]!.udi).toMatchObject({ agency: "GS1", deviceId: gtin, lot: "LOT7", serial: "SN-0007", expiry: "2030-12-31" });
    expect(found[1]!.udi).toMatchObject({ production: "2025-01-01", additionalProductId: "PUMP-7", customerPartNumber: "CPN7" });
    expect(found[3]!.packaging).toEqual({ level: "unit", deviceId: gtin, containsDeviceId: null, quantity: 1 });
    expect(found[0]!.product.deviceIdentifiers[0]).toMatchObject({ agency: "GS1", deviceId: gtin });
  });

  it("a case's GTIN resolves to its unit product with the pack quantity", async () => {
    const [result] = await results([`(01)${caseGtin(20)}`]);
    expect(result).toMatchObject({
      status: "resolved",
      product: { id: productId(20) },
      packaging: { level: "package", deviceId: caseGtin(20), containsDeviceId: unitGtin(20), quantity: DEMO_CASE_QUANTITY },
    });
  });

  it("nested packaging levels multiply: a case of 5 boxes of 10 is 50 units", async () => {
    const [unit, box, kase] = await results([`(01)${NESTED.unit}`, `(01)${NESTED.box}`, `(01)${NESTED.case}`]);
    expect([unit, box, kase].map((r) => [r!.product.id, r!.packaging.level, r!.packaging.quantity])).toEqual([
      ["SCAN-NESTED", "unit", 1],
      ["SCAN-NESTED", "package", 10],
      ["SCAN-NESTED", "package", 50],
    ]);
  });

  it("HIBCC concatenated, and primary and secondary scanned as two codes (linked by the link character)", async () => {
    const primary = withCheck("+A99912345");
    const check = primary.at(-1)!;
    const found = await results(["+A99912345/$$52001510X3/16D20111212/S77DEFG457", withCheck(`+$$3301231LOT9${check}`), primary]);
    expect(found[0]).toMatchObject({
      status: "resolved",
      reading: "hibcc",
      form: "hibcc-concatenated",
      product: { id: "SCAN-HIBCC" },
      udi: { agency: "HIBCC", deviceId: "A99912345", lot: "10X3", serial: "77DEFG45", expiry: "2020-01-15", production: "2011-12-12" },
    });
    expect(found[1]).toMatchObject({
      status: "resolved",
      form: "hibcc-secondary",
      linkedTo: 2,
      product: { id: "SCAN-HIBCC" },
      udi: { lot: "LOT9" },
    });
    expect(found[2]).toMatchObject({ status: "resolved", form: "hibcc-primary", linkedTo: 1, udi: { lot: "LOT9", expiry: "2030-12-31" } });
  });

  it("ISBT 128 as AccessGUDID parses it", async () => {
    const [result] = await results(["=/08717648200274=,000025=A99971312345600=>014032=}013032&,1000000000000XYZ123"]);
    expect(result).toMatchObject({
      status: "resolved",
      reading: "isbt128",
      product: { id: "SCAN-ISBT" },
      udi: { agency: "ICCBBA", deviceId: "08717648200274", serial: "000025", lot: "000000000000XYZ123", expiry: "2014-02-01" },
    });
  });

  it("a code that is both a part number and GS1 data: an exact part number of the catalog wins, and says so", async () => {
    const [part, lotOnly] = await results(["10D9T", "10ZZZ"]);
    expect(part).toMatchObject({
      status: "resolved",
      reading: "partNumber",
      alternatives: ["gs1"],
      product: { id: "SCAN-PART" },
      udi: null,
    });
    expect(lotOnly).toMatchObject({ status: "unresolved", reading: "gs1", problem: { element: "01", code: "no_device_identifier" } });
  });

  it("plain symbols by their payload, an EAN-13 scan, a Digital Link keyed by an SSCC, a refurbished part's label", async () => {
    const gtin = unitGtin(9);
    const sscc = `09506000000000042${gtinCheckDigit("09506000000000042")}`;
    const gln = `950600000001${gtinCheckDigit("950600000001")}`;
    // The unit GTIN-14 starts with 0: its GTIN-13 is what an EAN-13 carries.
    const found = await results([
      `]Q1${withCheck("+A99912345")}`,
      `]d1https://id.example.com/01/${gtin}/10/LOT9`,
      `]E0${gtin.slice(1)}`,
      `https://id.example.com/00/${sscc}`,
      `(01)${gtin}(416)${gln}(7020)RF-9(7021)OK(30)3`,
      withCheck("+a99912345"),
    ]);
    expect(found.map((r) => [r.status, r.reading, r.product?.id ?? null, r.problem?.code ?? null])).toEqual([
      ["resolved", "hibcc", "SCAN-HIBCC", null],
      ["resolved", "gs1", productId(9), null],
      ["resolved", "gtin", productId(9), null],
      ["unresolved", "gs1", null, "no_device_identifier"],
      ["resolved", "gs1", productId(9), null],
      ["unresolved", null, null, "bad_characters"],
    ]);
    expect(found[1]).toMatchObject({ form: "digital-link", udi: { lot: "LOT9" } });
    expect(found[3]!.problem.message).toContain("SSCC");
    expect(found[4]).toMatchObject({ udi: { deviceId: gtin, quantity: 3 } });
  });
});

describe("scan to order: a code that fails says which element and why, without failing the others", () => {
  it("check digits, dates, unknown AIs, lengths, unknown identifiers, unlinked secondaries", async () => {
    const gtin = unitGtin(8);
    const wrongCheck = `${gtin.slice(0, 13)}${(Number(gtin[13]) + 1) % 10}`;
    const found = await results([
      `(01)${wrongCheck}(10)L1`,
      `(01)${gtin}(17)301332`,
      `]d201${gtin}99X${GS}7777ABC`,
      `(01)${gtin}(10)${"L".repeat(21)}`,
      "(01)00000000000017",
      withCheck("+$$3301231LOT9%"),
      "+A99912345Q",
      gtin,
    ]);
    expect(found.map((r) => [r.status, r.problem?.element ?? null, r.problem?.code ?? null])).toEqual([
      ["unresolved", "01", "check_digit"],
      ["unresolved", "17", "bad_date"],
      ["unresolved", "7777", "unknown_ai"],
      ["unresolved", "10", "too_long"],
      ["unresolved", "01", "unknown_device_identifier"],
      ["unresolved", "link", "unlinked_secondary"],
      ["unresolved", "check", "check_character"],
      ["resolved", null, null],
    ]);
    for (const result of found.slice(0, 7)) expect(result.problem.message).toMatch(/\w/);
  });
});

const QUOTING = { requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId };

/** Price options without what differs between two issues of the same quote (its id, its expiry). */
const shape = (options: Record<string, unknown>[]) => options.map(({ priceOptionId: _, expiresAt: __, ...rest }) => rest);

/** The options catalog detail issues JSMITH for the product. */
const detailOptions = async (id: string) =>
  (await json(await call(await tokenFor(TENANT_A), "/catalog/detail", { method: "POST", json: { productId: id, ...QUOTING } }))).data
    .options as Record<string, unknown>[];

/** Scan to order through the production Worker with the bench's probe: its results and sequential D1 round trips. */
async function probedResolve(body: unknown) {
  const token = await tokenFor(TENANT_A);
  const send = async () => {
    const probe = new RoundTripProbe(0);
    const ctx = createExecutionContext();
    const request = new Request<unknown, IncomingRequestCfProperties>(`${API}/catalog/resolve`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const res = await production.fetch(request, probe.wrap(env as unknown as Bindings), ctx);
    const d1 = parseRoundTrips(probe.summary()).d1;
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    return { d1, results: (await json(res)).data.results as Record<string, any>[] };
  };
  await send(); // the isolate's first access check is remembered after it (as on catalog detail)
  return send();
}

describe("scan to order: quotes in the same call", () => {
  it("with requesterId and facilityId, each product's price options are issued as catalog detail issues them", async () => {
    const [result] = await results([`(01)${unitGtin(3)}`], QUOTING);
    expect(result!.priceOptions.length).toBeGreaterThan(0);
    expect(shape(result!.priceOptions)).toEqual(shape(await detailOptions(productId(3))));
    expect(result!.priceOptions[0].priceOptionId).toHaveLength(71);
    // Without them, no quotes are issued.
    const [plain] = await results([`(01)${unitGtin(3)}`]);
    expect(plain!.priceOptions).toBeNull();
  });

  it("one sequential D1 round trip, as catalog detail: the offers of the products the codes name are read beside the lookup", async () => {
    const { d1, results: found } = await probedResolve({ codes: [`(01)${unitGtin(11)}`, `(01)${caseGtin(30)}`], ...QUOTING });
    expect(d1).toBe(1);
    expect(found.map((r) => r.product.id)).toEqual([productId(11), productId(30)]);
    expect(shape(found[0]!.priceOptions)).toEqual(shape(await detailOptions(productId(11))));
    expect(shape(found[1]!.priceOptions)).toEqual(shape(await detailOptions(productId(30))));
    expect(found[0]!.priceOptions.length).toBeGreaterThan(0);
    // Without quotes nothing is read on the main database beside the lookup either.
    expect((await probedResolve({ codes: [`(01)${unitGtin(11)}`] })).d1).toBe(1);
  });

  it("a product the main database's copy of the codes lacks, or names wrongly, is still quoted as detail quotes it (a second read)", async () => {
    await env.DB.prepare("DELETE FROM product_codes WHERE product_id = ?").bind(productId(12)).run();
    const lacking = await probedResolve({ codes: [`(01)${unitGtin(12)}`], ...QUOTING });
    expect(lacking.d1).toBe(2);
    expect(lacking.results[0]!.product.id).toBe(productId(12));
    expect(lacking.results[0]!.priceOptions.length).toBeGreaterThan(0);
    expect(shape(lacking.results[0]!.priceOptions)).toEqual(shape(await detailOptions(productId(12))));

    // The copy says product 14's GTIN names product 13: the catalog decides, and product 13's offers are not quoted.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM product_codes WHERE product_id = ?").bind(productId(14)),
      env.DB.prepare("INSERT INTO product_codes (agency, code, product_id) VALUES ('GS1', ?, ?)").bind(unitGtin(14), productId(13)),
    ]);
    const stale = await probedResolve({ codes: [`(01)${unitGtin(14)}`], ...QUOTING });
    expect(stale.d1).toBe(2);
    expect(stale.results[0]!.product.id).toBe(productId(14));
    expect(shape(stale.results[0]!.priceOptions)).toEqual(shape(await detailOptions(productId(14))));
    const skusOf13 = (await detailOptions(productId(13))).map((option) => option.vendorSku);
    expect(skusOf13.length).toBeGreaterThan(0);
    for (const option of stale.results[0]!.priceOptions) expect(skusOf13).not.toContain(option.vendorSku);
  });

  it("a withdrawn product is never quoted, though the copy names it and its offers are read", async () => {
    await env.CATALOG.prepare("UPDATE products SET status = 'withdrawn' WHERE id = ?").bind(productId(15)).run();
    const { d1, results: found } = await probedResolve({ codes: [`(01)${unitGtin(15)}`], ...QUOTING });
    expect(d1).toBe(1);
    expect(found[0]).toMatchObject({ status: "resolved", product: { id: productId(15), status: "withdrawn" }, priceOptions: [] });
  });

  it("another tenant's requester or facility is the same 403 as on detail", async () => {
    await expectProblem(
      await resolve({ codes: [unitGtin(3)], requesterId: KJOHNSON.requesterContactId, facilityId: JSMITH.facilityId }),
      403,
    );
    await expectProblem(
      await resolve({ codes: [unitGtin(3)], requesterId: JSMITH.requesterContactId, facilityId: KJOHNSON.facilityId }),
      403,
    );
  });

  it("bad requests are 400s naming the field: no codes, too many, a code too long, requesterId without facilityId", async () => {
    for (const body of [
      { codes: [] },
      { codes: Array.from({ length: 51 }, () => "x") },
      { codes: ["x".repeat(513)] },
      { codes: [""] },
      { codes: ["x"], requesterId: JSMITH.requesterContactId },
      { codes: "x" },
    ]) {
      await expectProblem(await resolve(body), 400);
    }
  });
});
