import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ORDER_NUMBER } from "../../src/api/orders/retrieve-routes";
import { DEMO_LINE_ID, DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { putOutbound } from "../../src/operator/edi/outbound/outbox";
import { DEMO_OFFER_SKU } from "../../src/operator/offers/schemas";
import { expectNoVictimData, expectSpecError, VICTIM_STRINGS } from "../helpers/adversarial";
import {
  API,
  call,
  newClient,
  OUTSIDE_API,
  operatorTokenFor,
  scim,
  scimTokenFor,
  TENANT_A,
  TENANT_B,
  testModeTokenFor,
  tokenFor,
  vendorTokenFor,
} from "../helpers/api";
import { expectMatchesContract, operationsOf, servedDocument, servedRoutes } from "../helpers/contract";
import { dispatch } from "../helpers/dispatch";
import { partnerInput } from "../helpers/edi";
import { createImport, ndjson, OFFER_IMPORTS, runImport } from "../helpers/imports";
import {
  eventsOf,
  freshOrder,
  issueQuote,
  JSMITH,
  KJOHNSON,
  lineFor,
  orderBody,
  putLineIn,
  type Quote,
  withoutFields,
} from "../helpers/orders";
import { CXML_URL, connect } from "../helpers/procurement";
import { storeRows, storeRowsById } from "../helpers/stores";
import { RECEIVER, registerEndpoint } from "../helpers/webhooks";
import { enforcementRecord, RECALL_IMPORTS, recallIdOf, shippedUnits } from "../recalls/helpers";
import {
  type AttackCase,
  type AttackContext,
  type AttackRequest,
  TENANT_MATRIX,
  VENDOR_ATTACKER,
  VENDOR_ATTACKER_NAME,
} from "./tenant-matrix";

/** Operations whose public documentation quotes the demo data in its examples (not a leak). */
const DOCUMENTATION = new Set(["get /customer/api/openapi.json"]);

let ctx: AttackContext;
let attackerToken: string;
let attackerVendorToken: string;
let attackerScimToken: string;
let attackerTestToken: string;

async function send(request: AttackRequest): Promise<Response> {
  const headers = request.idempotent ? { "Idempotency-Key": crypto.randomUUID() } : undefined;
  if (request.xml !== undefined) return dispatch(CXML_URL, { method: "POST", headers: { "Content-Type": "text/xml" }, body: request.xml });
  if (request.bearer === "scim")
    return scim(attackerScimToken, request.path.replace(/^\/scim\/v2/, ""), { method: request.method, body: request.json });
  const token =
    request.bearer === "vendor"
      ? attackerVendorToken
      : request.bearer === "test"
        ? attackerTestToken
        : request.bearer
          ? attackerToken
          : null;
  if (request.x12 !== undefined)
    return call(token, request.path, { method: request.method, body: request.x12, headers: { "Content-Type": "application/edi-x12" } });
  return call(token, request.path, { method: request.method, json: request.json, headers });
}

const listAt = (body: any, path: string): unknown[] => path.split(".").reduce((node, key) => node?.[key], body);

/** The body without what differs per request (correlation id, time) and with the probed value masked. */
const normalized = (text: string, value: string | number) =>
  text
    .replaceAll(String(value), "<value>")
    .replace(/"(correlationId|timestamp)":"[^"]*"/g, '"$1":"-"')
    .replace(/ (payloadID|timestamp)="[^"]*"/g, ' $1="-"');

/** The Status code of a cXML Response. */
const cxmlStatus = (text: string) => Number(/<Status code="(\d+)"/.exec(text)?.[1]);

/**
 * The problem's `instance` is the path the attacker sent (a path parameter may hold the probed value): that echo
 * is the attacker's own input, not tenant-1 data. Only the exact echo is removed; everything else is scanned.
 */
const withoutEchoedPath = (text: string, path: string) => {
  const bare = path.split("?")[0]!;
  const sent = OUTSIDE_API.test(bare) ? bare : new URL(API).pathname + bare;
  return text.replace(`"instance":"${sent}"`, '"instance":"-"');
};

async function attack(operation: string, c: AttackCase) {
  const [method] = operation.split(" ");
  const victimValue = c.victim(ctx);
  const request = await c.request(victimValue, ctx);
  const res = await send(request);
  const text = await res.clone().text();
  const context = `${operation} with tenant 1's ${c.input} ${victimValue}`;
  expectNoVictimData(withoutEchoedPath(text, request.path), context);

  const { path } = request;
  if ("denied" in c.expect) {
    expect(c.expect.denied, `${context}: ${res.status} ${text.slice(0, 300)}`).toContain(res.status);
    await expectSpecError(res, method!, path);
  } else if ("cxml" in c.expect) {
    expect([res.status, cxmlStatus(text)], `${context}: ${text.slice(0, 400)}`).toEqual([200, c.expect.cxml]);
  } else {
    expect(res.status, `${context}: ${text.slice(0, 300)}`).toBe(200);
    await expectMatchesContract(res, method!, path);
    expect(listAt(await res.json(), c.expect.empty), context).toEqual([]);
  }

  if (c.unknown !== undefined) {
    const probe = await send(await c.request(c.unknown, ctx));
    expect(probe.status, `${context}: an unknown value must look the same`).toBe(res.status);
    expect(normalized(await probe.text(), c.unknown)).toBe(normalized(text, victimValue));
  }

  if (c.own !== undefined) {
    const own = typeof c.own === "function" ? c.own(ctx) : c.own;
    const control = await send(await c.request(own, ctx));
    const controlText = await control.text();
    expect(control.status, `${operation} with the attacker's own ${c.input} must succeed: ${controlText.slice(0, 300)}`).toBeLessThan(300);
    if ("cxml" in c.expect) expect(cxmlStatus(controlText), `${operation} own ${c.input}: ${controlText.slice(0, 400)}`).toBe(200);
    if ("empty" in c.expect)
      expect(listAt(JSON.parse(controlText), c.expect.empty).length, `${operation} own ${c.input}`).toBeGreaterThan(0);
  }
}

/**
 * The attacking vendor's own lines, distinct, each in a status its move starts from: the demo data's lines are all
 * the demo vendor's, so they are ordered here (tenant 2) from the attacking vendor's options and moved along by it.
 */
async function attackerVendorLines(): Promise<AttackContext["attackerVendorLines"]> {
  const pick = (q: Quote) => q.customFields.length === 0 && q.vendorName === VENDOR_ATTACKER_NAME;
  const { lineIds } = await freshOrder(6, { who: KJOHNSON, pick });
  const [read, acknowledge, backorder, reject, ship, deliver] = lineIds as [number, number, number, number, number, number];
  const moveAs = async (lineId: number, action: string, body: unknown) => {
    const res = await call(attackerVendorToken, `/vendor/api/order-lines/${lineId}/${action}`, { method: "POST", json: body });
    if (res.status !== 200) throw new Error(`setting up line ${lineId}: ${action} answered ${res.status} ${await res.text()}`);
  };
  for (const lineId of [ship, deliver]) await moveAs(lineId, "acknowledge", { promisedShipDate: "2099-01-31" });
  await moveAs(deliver, "ship", { trackingNumber: "1ZSETUP0001" });
  return { read, acknowledge, backorder, reject, ship, deliver };
}

/**
 * The money side: an invoice of the demo vendor to tenant 1 (of the demo order's line), and the attacking vendor's on a
 * tenant-2 order of its own: a line to confirm, a line with a change waiting for tenant 2's answer, and invoices.
 */
async function moneySideFixtures() {
  const pick = (q: Quote) => q.customFields.length === 0 && q.vendorName === VENDOR_ATTACKER_NAME;
  const { orderNumber, lineIds } = await freshOrder(3, { who: KJOHNSON, pick });
  const [confirm, pending, invoiced] = lineIds as [number, number, number];
  const vendorPost = async (token: string, path: string, body: unknown) => {
    const res = await call(token, path, { method: "POST", json: body });
    if (res.status >= 300) throw new Error(`setting up ${path}: ${res.status} ${await res.text()}`);
    return (await res.json<{ data: Record<string, any> }>()).data;
  };
  await vendorPost(attackerVendorToken, "/vendor/api/order-confirmations", {
    type: "detail",
    lines: [{ lineId: pending, code: "IQ", quantity: 5 }],
  });
  const invoice = (token: string, order: string, lineId: number, number: string) =>
    vendorPost(token, "/vendor/api/invoices", {
      invoiceNumber: number,
      orderNumber: order,
      invoiceDate: new Date().toISOString().slice(0, 10),
      currency: "USD",
      lines: [{ lineId, quantity: 1, unitPrice: "10.00", amount: "10.00" }],
      summary: { subtotal: "10.00", tax: "0.00", freight: "0.00", total: "10.00" },
    });
  const victimNumber = `VICTIM-${crypto.randomUUID().slice(0, 8)}`;
  const victim = await invoice(await vendorTokenFor(DEMO_VENDOR_ID), DEMO_ORDER_NUMBER, DEMO_LINE_ID, victimNumber);
  const number = `ATTACKER-${crypto.randomUUID().slice(0, 8)}`;
  const read = await invoice(attackerVendorToken, orderNumber, invoiced, number);
  const accept = await invoice(attackerVendorToken, orderNumber, invoiced, `${number}-A`);
  const dispute = await invoice(attackerVendorToken, orderNumber, invoiced, `${number}-D`);
  return {
    attackerConfirmLine: confirm,
    attackerPendingLine: { orderNumber, lineId: pending },
    victimInvoice: { id: victim.invoiceId as number, number: victimNumber },
    attackerInvoices: { orderNumber, lineId: invoiced, number, read: read.invoiceId, accept: accept.invoiceId, dispute: dispute.invoiceId },
  };
}

/**
 * Offers and agreements: the demo vendor's (the victim's) and the attacking vendor's own. Agreements are written
 * straight to the database, each with a scope of its own so that none overlaps another.
 */
async function pricingFixtures() {
  const offer = {
    productId: "MP-0000002",
    condition: "Refurbished",
    purchaseChoice: "Buy",
    warranty: "6 months",
    price: 20,
    leadTimeDays: 5,
  };
  for (const sku of ["ATTACKER-OWN-1", "ATTACKER-OWN-DEL"]) {
    const res = await call(attackerVendorToken, `/vendor/api/offers/${sku}`, { method: "PUT", json: offer });
    if (res.status >= 300) throw new Error(`setting up offer ${sku}: ${res.status} ${await res.text()}`);
  }
  const agreement = async (vendorId: number, id: number) => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO price_agreements (id, vendor_id, reference, scope, tenant_id, effective_from, effective_to, created_at, creation_key) " +
        "VALUES (?1, ?2, ?3, 'tenant', 3, ?4, ?5, '2026-11-26T00:00:00.000Z', ?3)",
    )
      // 600_00n runs through the year 209n only.
      .bind(id, vendorId, `MATRIX-${id}`, `209${id % 10}-01-01T00:00:00.000Z`, `209${(id % 10) + 1}-01-01T00:00:00.000Z`)
      .run();
    return id;
  };
  const priceFile = async (vendorId: number) =>
    (
      await createImport(
        { format: "ndjson" },
        { "price.ndjson": '{"sku":"MATRIX-PF"}\n' },
        { collection: OFFER_IMPORTS, token: await vendorTokenFor(vendorId) },
      )
    ).id;
  // A mailbox partner of each vendor, each with document 777 waiting in its outbox, under
  // ids no response holds by chance (the matrix masks the probed value in what it compares).
  const ediPartner = async (vendorId: number, id: number) => {
    const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
      method: "POST",
      json: { vendorId, ...partnerInput({ name: `Matrix ${vendorId}` }) },
    });
    if (res.status !== 201) throw new Error(`setting up an EDI partner: ${res.status} ${await res.text()}`);
    await env.DB.prepare("UPDATE edi_partners SET id = ?2 WHERE id = ?1")
      .bind((await res.json<{ data: { id: number } }>()).data.id, id)
      .run();
    return id;
  };
  const victimEdiPartnerId = await ediPartner(DEMO_VENDOR_ID, 600_101);
  const attackerEdiPartnerId = await ediPartner(VENDOR_ATTACKER, 600_102);
  for (const partnerId of [victimEdiPartnerId, attackerEdiPartnerId]) {
    await putOutbound(env.IMPORTS, partnerId, 777, "ISA*matrix~", { document: "850", reference: "matrix" });
  }
  return {
    victimEdiPartnerId,
    attackerEdiPartnerId,
    victimOfferImportId: await priceFile(DEMO_VENDOR_ID),
    attackerOfferImportId: await priceFile(VENDOR_ATTACKER),
    victimOfferSku: DEMO_OFFER_SKU,
    attackerOfferSkus: { read: "ATTACKER-OWN-1", delete: "ATTACKER-OWN-DEL" },
    victimAgreementId: await agreement(DEMO_VENDOR_ID, 600_001),
    attackerAgreementIds: {
      read: await agreement(VENDOR_ATTACKER, 600_002),
      patch: await agreement(VENDOR_ATTACKER, 600_003),
      delete: await agreement(VENDOR_ATTACKER, 600_004),
    },
  };
}

/**
 * A test order of each tenant (placed with test-mode tokens, taken off the sandbox's schedule so that nothing moves it
 * meanwhile), and tenant 2's test-mode event and webhook endpoint.
 */
async function testModeFixtures() {
  const testOrder = async (who: typeof JSMITH) => {
    const token = await testModeTokenFor(who.tenantId);
    const detail = await call(token, "/catalog/detail", {
      method: "POST",
      json: { productId: "MP-0000002", requesterId: who.requesterContactId, facilityId: who.facilityId },
    });
    const option = ((await detail.json()) as { data: { options: (Quote & { customFields: unknown[] })[] } }).data.options.find(
      (o) => o.customFields.length === 0,
    )!;
    const res = await call(token, "/orders", {
      method: "POST",
      json: orderBody([lineFor({ ...option, productId: "MP-0000002" } as Quote)], who),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    if (res.status !== 201) throw new Error(`setting up a test order: ${res.status} ${await res.text()}`);
    const { orderNumber, eventId } = ((await res.json()) as { data: { orderNumber: string; eventId: string } }).data;
    await storeRows(
      -who.tenantId,
      "INSERT INTO sandbox_manual_orders (order_id, at) SELECT id, 'fixture' FROM orders WHERE order_number = ?",
      orderNumber,
    );
    return { orderNumber, eventId };
  };
  const victim = await testOrder(JSMITH);
  const attacker = await testOrder(KJOHNSON);
  // A test-mode invoice of tenant 2: the simulated vendor ships its own test order and invoices it.
  const invoiced = await testOrder(KJOHNSON);
  for (const scenario of ["ship", "invoice"]) {
    const ran = await call(attackerTestToken, `/test-helpers/orders/${invoiced.orderNumber}/simulate`, {
      method: "POST",
      json: { scenario },
    });
    if (ran.status !== 200) throw new Error(`setting up a test invoice: ${scenario} ${ran.status} ${await ran.text()}`);
  }
  const invoices = await call(attackerTestToken, `/invoices?q=${encodeURIComponent(`orderNumber:"${invoiced.orderNumber}"`)}`);
  const testInvoice = ((await invoices.json()) as { data: { invoices: { invoiceId: number }[] } }).data.invoices[0]!;
  const endpoint = await call(attackerTestToken, "/webhook-endpoints", {
    method: "POST",
    json: { url: `${RECEIVER}/ok/attacker-test`, eventTypes: ["*"] },
  });
  return {
    victimTestOrderNumber: victim.orderNumber,
    attackerTestOrderNumber: attacker.orderNumber,
    attackerTestEventId: attacker.eventId,
    attackerTestInvoiceId: testInvoice.invoiceId,
    attackerTestEndpointId: ((await endpoint.json()) as { data: { id: string } }).data.id,
  };
}

/** SCIM users and groups of each tenant, made through /scim/v2 itself. */
async function scimFixtures() {
  const create = async (tenantId: number, kind: "Users" | "Groups", body: Record<string, unknown>) => {
    const res = await scim(await scimTokenFor(tenantId), `/${kind}`, { method: "POST", body });
    if (res.status !== 201) throw new Error(`setting up SCIM ${kind}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; userName: string; displayName: string };
  };
  const user = async (tenantId: number, userName: string) => {
    const { id } = await create(tenantId, "Users", { userName, name: { givenName: "Matrix", familyName: "User" } });
    return { id, userName };
  };
  const group = async (tenantId: number, displayName: string) => ({
    id: (await create(tenantId, "Groups", { displayName })).id,
    displayName,
  });
  return {
    victimScimUser: await user(TENANT_A, "victim-scim@stmarys.example"),
    attackerScimUsers: {
      read: await user(TENANT_B, "own-scim@lakeside.example"),
      delete: await user(TENANT_B, "own-scim-delete@lakeside.example"),
    },
    victimScimGroup: await group(TENANT_A, "Victim facility group"),
    attackerScimGroups: { read: await group(TENANT_B, "Own facility group"), delete: await group(TENANT_B, "Own group to delete") },
  };
}

/**
 * Returns: tenant 1's (a shipped core of the demo vendor's demo line) and tenant 2's own on the attacking vendor's line,
 * one per operation in a status that operation moves on, written straight to the store that holds the line; and a
 * delivered line of tenant 2's to request a return on.
 */
/** A recall touching only tenant 1's units, and one touching only tenant 2's, loaded by one recall import. */
async function recallFixtures() {
  const victimUnits = await shippedUnits([{ lot: "ISO-RCL-V", serial: "ISO-V-1" }]);
  const attackerUnits = await shippedUnits([{ lot: "ISO-RCL-A", serial: "ISO-A-1" }], { who: KJOHNSON });
  const records = [
    enforcementRecord("Z-9901-2026", `UDI-DI ${victimUnits.gtin} Lot ISO-RCL-V`),
    enforcementRecord("Z-9902-2026", `UDI-DI ${attackerUnits.gtin} Lot ISO-RCL-A`),
  ];
  const job = await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson(records) }, { collection: RECALL_IMPORTS });
  if (job.state !== "succeeded") throw new Error(`recall import ${job.state}`);
  const attackerId = (await recallIdOf("Z-9902-2026"))!;
  const [unit] = await storeRows(TENANT_B, "SELECT unit_id FROM recall_units WHERE recall_id = ?1", attackerId);
  return { victimRecallId: (await recallIdOf("Z-9901-2026"))!, attackerRecall: { id: attackerId, unitId: unit!.unit_id as number } };
}

async function returnFixtures(attackerLine: number) {
  const insertReturn = async (lineId: number, kind: string, status: string) =>
    (
      await storeRowsById(
        lineId,
        "INSERT INTO unit_returns (tenant_id, order_id, line_id, vendor_id, facility_id, kind, status, quantity, rma_number, charge_cents, " +
          "proposed_price_cents, outcome, due_at, created_at, updated_at) SELECT o.tenant_id, l.order_id, l.id, l.vendor_id, o.facility_id, ?2, ?3, " +
          "1, 'RMA-ISO-' || l.id || '-' || ?3, 100, 500, CASE WHEN ?3 = 'quoted' THEN 'beyond_flat_rate' END, '2099-01-01T00:00:00.000Z', " +
          "'2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id = ?1 RETURNING id",
        lineId,
        kind,
        status,
      )
    )[0]!.id as number;
  const delivered = await freshOrder(1, { who: KJOHNSON });
  await putLineIn(delivered.lineIds[0]!, "Delivered");
  return {
    victimReturnId: await insertReturn(DEMO_LINE_ID, "core", "shipped"),
    attackerReturns: {
      read: await insertReturn(attackerLine, "core", "open"),
      ship: await insertReturn(attackerLine, "core", "open"),
      decide: await insertReturn(attackerLine, "repair", "quoted"),
      authorize: await insertReturn(attackerLine, "rma", "requested"),
      decline: await insertReturn(attackerLine, "rma", "requested"),
      receive: await insertReturn(attackerLine, "core", "shipped"),
      diagnose: await insertReturn(attackerLine, "repair", "received"),
      sendBack: await insertReturn(attackerLine, "repair", "repairing"),
      deliveredLine: { orderNumber: delivered.orderNumber, lineId: delivered.lineIds[0]! },
      vendorLine: attackerLine,
    },
  };
}

/** A procurement connection of each tenant, and a quote issued to tenant 2 (kjohnson) for its own OrderRequests. */
async function procurementFixtures(): Promise<AttackContext["procurement"]> {
  const quote = await issueQuote("MP-0000002", KJOHNSON, withoutFields);
  return {
    victim: await connect(JSMITH),
    attacker: await connect(KJOHNSON),
    attackerQuote: { productId: quote.productId, priceOptionId: quote.priceOptionId, price: quote.price.toFixed(2) },
  };
}

describe("tenant isolation matrix: tenant 2 aimed at tenant 1's resources (test/adversarial/tenant-matrix.ts)", () => {
  beforeAll(async () => {
    const [victimClient, attackerClient] = await Promise.all([
      newClient(TENANT_A, ["catalog:read"]),
      newClient(TENANT_B, ["catalog:read"]),
    ]);
    const victimQuote = await issueQuote("MP-0000002", JSMITH, withoutFields);
    attackerToken = await tokenFor(TENANT_B);
    attackerVendorToken = await vendorTokenFor(VENDOR_ATTACKER);
    attackerScimToken = await scimTokenFor(TENANT_B);
    attackerTestToken = await testModeTokenFor(TENANT_B);
    const attackerVendor = await attackerVendorLines();
    const [victimOrder, attackerOrder] = [await freshOrder(), await freshOrder(1, { who: KJOHNSON })];
    const money = await moneySideFixtures();
    const endpoint = async (tenantId: number) => (await registerEndpoint(`${RECEIVER}/ok/${crypto.randomUUID()}`, ["*"], tenantId)).id;
    ctx = {
      victimClient,
      attackerClient,
      victimPriceOptionId: victimQuote.priceOptionId,
      attackerVendorLines: attackerVendor,
      ...money,
      victimEventId: (await eventsOf(victimOrder.orderNumber))[0]!.id,
      attackerEventId: (await eventsOf(attackerOrder.orderNumber))[0]!.id,
      victimEndpointId: await endpoint(TENANT_A),
      attackerEndpointIds: { read: await endpoint(TENANT_B), delete: await endpoint(TENANT_B) },
      victimImportId: (await createImport({ format: "ndjson" }, { "victim.ndjson": '{"id":"x"}\n' })).id,
      ...(await pricingFixtures()),
      ...(await scimFixtures()),
      ...(await testModeFixtures()),
      ...(await returnFixtures(attackerVendor.read)),
      ...(await recallFixtures()),
      procurement: await procurementFixtures(),
    };
  });

  it("has a row for every operation of the OpenAPI document and every route the app serves, and no other", async () => {
    const documented = operationsOf(await servedDocument()).map((o) => `${o.method} ${o.path}`);
    const served = servedRoutes();
    const rows = Object.keys(TENANT_MATRIX).sort();
    expect(rows, "add the new operation to TENANT_MATRIX").toEqual([...new Set(documented)].sort());
    expect(rows, "add the new route to TENANT_MATRIX").toEqual([...new Set(served)].sort());
  });

  it("the leak markers are real: tenant 1's own view of its data contains them", async () => {
    const res = await call(
      await tokenFor(TENANT_A),
      `/orders/search?q=${encodeURIComponent("requesterId:50001")}&include=lineItems,shippingInfo&limit=100`,
    );
    const text = await res.text();
    expect(VICTIM_STRINGS.filter((s) => text.includes(s)).length).toBeGreaterThan(2);
    expect(() => expectNoVictimData(text, "tenant 1 itself")).toThrow();
  });

  for (const [operation, row] of Object.entries(TENANT_MATRIX)) {
    if ("noTenantData" in row) {
      it(`${operation}: ${row.noTenantData}; answers tenant 2 without tenant-1 data`, async () => {
        const [, path] = operation.split(" ");
        const res = row.request
          ? await send(row.request)
          : await call(attackerToken, `https://medparts.test${path}?q=${encodeURIComponent('name~"med"')}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(300);
        if (!DOCUMENTATION.has(operation)) expectNoVictimData(await res.text(), operation);
      });
      continue;
    }
    describe(operation, () => {
      for (const c of row.cases)
        it(`${c.input}: ${"denied" in c.expect ? c.expect.denied.join("/") : "empty result"}, no tenant-1 data`, () =>
          attack(operation, c));
    });
  }
});
