import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { VENDORS } from "../../src/dev/seed/catalog";
import { GS } from "../../src/shared/udi/gs1";
import { demoClientOf, savedDemoClients } from "../dev/local-platform";
import { call, currentStep, demoBaseUrl, StepFailed, show, step, token, useBaseUrl } from "./steps";

/**
 * `npm run demo -- --recall`: an FDA recall answered in minutes (docs/recalls.md), against a running `npm start`. The
 * demo vendor ships units with their scanned codes; the operator loads an openFDA record naming the product's GTIN and
 * the lot through a recall import; the hospital's store matches it at once: the recall with its units, its
 * acknowledgement, what was found, the scan-to-order warning and a return of the units; the vendor's counts.
 */

const DEMO_VENDOR_NAME = VENDORS.find((vendor) => vendor.id === DEMO_VENDOR_ID)!.name;
const REQUESTER = { requesterId: 50001, userId: 1, facilityId: 1001, shippingAddressId: 11, billingAddressId: 13 };

interface Option {
  priceOptionId: string;
  price: string;
  vendorName: string;
  customFields: { isRequired: boolean }[];
}
interface Detail {
  product: { id: string; partNumber: string; deviceIdentifiers: { agency: string; deviceId: string; quantity: number | null }[] };
  options: Option[];
}

export async function recallMain(baseUrl: string): Promise<void> {
  useBaseUrl(baseUrl);
  try {
    await recall();
  } catch (error) {
    console.error(`\nDEMO FAILED at step ${currentStep()}: ${(error as Error).message}`);
    process.exit(1);
  }
}

const until = async <T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new StepFailed(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

async function recall(): Promise<void> {
  console.log(`Medparts recall demo against ${demoBaseUrl()}: this script plays ${DEMO_VENDOR_NAME}, the operator and the hospital`);
  const saved = savedDemoClients();
  const operator = demoClientOf("MEDPARTS_OPERATOR", saved?.operator);
  const vendor = demoClientOf("MEDPARTS_VENDOR", saved?.vendor);
  const buyer = demoClientOf("MEDPARTS", saved && { clientId: saved.clientId, clientSecret: saved.clientSecret });
  if (!operator || !vendor || !buyer) throw new StepFailed("No demo clients: run `npm start` first (it writes .medparts-demo.json).");
  const [buyerToken, vendorToken, operatorToken] = [await token(buyer), await token(vendor), await token(operator)];

  step(`The hospital orders 3 units of a product ${DEMO_VENDOR_NAME} sells`);
  let found: { detail: Detail; option: Option; gtin: string } | undefined;
  for (let n = 1; n <= 60 && !found; n++) {
    const detail = await call<Detail>("POST", "/customer/api/catalog/detail", {
      token: buyerToken,
      json: { productId: `MP-${String(n).padStart(7, "0")}`, requesterId: REQUESTER.requesterId, facilityId: REQUESTER.facilityId },
    });
    const option = detail.options.find((o) => o.vendorName === DEMO_VENDOR_NAME && o.customFields.every((field) => !field.isRequired));
    const unit = detail.product.deviceIdentifiers.find((di) => di.agency === "GS1" && (di.quantity ?? 1) === 1);
    if (option && unit) found = { detail, option, gtin: unit.deviceId };
  }
  if (!found) throw new StepFailed(`No product of ${DEMO_VENDOR_NAME} with a GTIN among the first 60.`);
  const { detail, option, gtin } = found;
  const order = await call<{ orderNumber: string }>("POST", "/customer/api/orders", {
    token: buyerToken,
    headers: { "Idempotency-Key": crypto.randomUUID() },
    json: {
      ...REQUESTER,
      shippingMethod: "GROUND",
      payment: { paymentMethod: "PO", poNumber: "PO-RECALL-DEMO" },
      quoteItems: [{ priceOptionId: option.priceOptionId, productId: detail.product.id, price: option.price, quantity: 3 }],
    },
  });
  const lines = await call<{ lineItems: { lineId: number }[] }>("GET", `/customer/api/orders/${order.orderNumber}?include=lineItems`, {
    token: buyerToken,
  });
  const lineId = lines.lineItems[0]!.lineId;
  show("order", `${order.orderNumber}, line ${lineId}: 3 x ${detail.product.partNumber} (GTIN ${gtin})`);

  const lot = `DEMO${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
  step(`${DEMO_VENDOR_NAME} ships them, scanning each unit's label: GTIN, lot ${lot}, a serial each`);
  const codes = [1, 2, 3].map((n) => `01${gtin}17301231` + `10${lot}${GS}21RD-${n}`);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await call("POST", `/vendor/api/order-lines/${lineId}/acknowledge`, { token: vendorToken, json: { promisedShipDate: tomorrow } });
  await call("POST", `/vendor/api/order-lines/${lineId}/ship`, {
    token: vendorToken,
    json: { trackingNumber: `1ZRCLDEMO${lot}`, units: codes },
  });
  await call("POST", `/vendor/api/order-lines/${lineId}/deliver`, { token: vendorToken, json: {} });
  show("shipped", codes.join("  "));

  const productNumber = `Z-${String(1000 + Math.floor(Math.random() * 9000))}-2026`;
  step(`The operator loads the FDA's record ${productNumber} through a recall import: code_info names the GTIN and the lot`);
  const record = {
    recall_number: productNumber,
    event_id: "99001",
    classification: "Class I",
    status: "Ongoing",
    recalling_firm: "Acme Infusion Inc.",
    product_description: `${detail.product.partNumber}, infusion set`,
    reason_for_recall: "The connector may crack and leak.",
    code_info: `UDI-DI ${gtin}; Lot Numbers: ${lot}, ${lot}X`,
    recall_initiation_date: tomorrow.replaceAll("-", ""),
  };
  show("code_info", record.code_info);
  const job = await call<{ id: string; links: { self: string } }>("POST", "/admin/api/recalls/imports", {
    token: operatorToken,
    json: { format: "ndjson" },
  });
  const uploaded = await fetch(`${demoBaseUrl()}/admin/api/recalls/imports/${job.id}/files/recalls.ndjson`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/octet-stream" },
    body: `${JSON.stringify(record)}\n`,
  });
  if (!uploaded.ok) throw new StepFailed(`uploading the recall file: HTTP ${uploaded.status} ${await uploaded.text()}`);
  const started = Date.now();
  await call("POST", `/admin/api/recalls/imports/${job.id}/start`, { token: operatorToken });
  const ended = await until(async () => {
    const state = await call<{ state: string; counts: Record<string, number> }>("GET", `/admin/api/recalls/imports/${job.id}`, {
      token: operatorToken,
    });
    if (state.state === "failed" || state.state === "cancelled") throw new StepFailed(`the import ${state.state}`);
    return state.state === "succeeded" ? state : undefined;
  }, "the recall import");
  show("import", `${job.id} succeeded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(ended.counts)}`);

  step("The hospital's store matched it against the units it received: recall.affects_you, and the recall with its units");
  const listed = await until(async () => {
    const page = await call<{ recalls: { id: number; productNumber: string; classification: string; affectedUnits: number }[] }>(
      "GET",
      `/customer/api/recalls?q=${encodeURIComponent(`productNumber:"${productNumber}"`)}`,
      { token: buyerToken },
    );
    return page.recalls[0];
  }, "the recall in the hospital's list");
  show("recall", `${listed.id} ${listed.productNumber} ${listed.classification}: ${listed.affectedUnits} units affected`);
  // The recall with every unit its list counts (a store matches its units page by page).
  const one = await until(async () => {
    const recall = await call<{
      units: { unitId: number; lot: string; serial: string; facilityId: number; outcome: string; reason: string }[];
    }>("GET", `/customer/api/recalls/${listed.id}`, { token: buyerToken });
    return recall.units.length >= listed.affectedUnits ? recall : undefined;
  }, "the recall's units");
  for (const unit of one.units)
    show(`unit ${unit.unitId}`, `${unit.lot}/${unit.serial} at facility ${unit.facilityId}: ${unit.outcome} (${unit.reason})`);

  step("A nurse scans one of the units: scan to order says it is under recall");
  const scan = await call<{ results: { recalls: { productNumber: string; classification: string; outcome: string }[] }[] }>(
    "POST",
    "/customer/api/catalog/resolve",
    { token: buyerToken, json: { codes: [codes[0]] } },
  );
  show("scan", JSON.stringify(scan.results[0]!.recalls));

  step("The hospital acknowledges it, finds two units and learns one was used, and sends the found ones back");
  await call("POST", `/customer/api/recalls/${listed.id}/acknowledge`, { token: buyerToken });
  const [a, b, c] = one.units;
  await call("POST", `/customer/api/recalls/${listed.id}/units`, {
    token: buyerToken,
    json: {
      units: [
        { unitId: a!.unitId, disposition: "found" },
        { unitId: b!.unitId, disposition: "found" },
        { unitId: c!.unitId, disposition: "used" },
      ],
    },
  });
  const returns = await call<{ returns: { returnId: number; quantity: number }[]; skipped: unknown[] }>(
    "POST",
    `/customer/api/recalls/${listed.id}/returns`,
    { token: buyerToken, headers: { "Idempotency-Key": crypto.randomUUID() }, json: { unitIds: [a!.unitId, b!.unitId] } },
  );
  show("returns", JSON.stringify(returns));

  step(`${DEMO_VENDOR_NAME} sees the recall touches its units: counts only, never a hospital's name`);
  const vendorView = await call<{ recalls: { id: number; affectedUnits: number; hospitals: number }[] }>("GET", "/vendor/api/recalls", {
    token: vendorToken,
  });
  show("vendor", JSON.stringify(vendorView.recalls.find((r) => r.id === listed.id)));
  console.log("\nRecall demo complete.");
}
