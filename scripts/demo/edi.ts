import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { type PartnerSet, partnerFile, partnerInput, set810, set855, set856, set997, unique } from "../../src/dev/edi/partner-documents";
import { VENDORS } from "../../src/dev/seed/catalog";
import { readPurchaseOrder } from "../../src/operator/edi/mapping/purchase-order";
import type { Segment } from "../../src/operator/edi/x12/document";
import { readX12 } from "../../src/operator/edi/x12/reader";
import type { WriteSegment } from "../../src/operator/edi/x12/writer";
import { centsToText, textToCents } from "../../src/platform/money";
import { demoClientOf, savedDemoClients } from "../dev/local-platform";
import { call, currentStep, demoBaseUrl, type Envelope, http, StepFailed, show, step, token, useBaseUrl } from "./steps";

/**
 * `npm run demo -- --edi`: the demo vendor trading over X12 through the HTTPS mailbox (docs/edi.md, "The mailbox"),
 * against a running `npm start`. This script plays the operator (the trading partner), the hospital (its order and its
 * approval) and the supplier's EDI translator (what it fetches from the mailbox and posts to it): the 850 out, the
 * partner's 997 for it, an 855 with a price change (IP, CTP*CON) the buyer approves, the 856 with a lot and serials,
 * the 810 matched three ways, and our 997s taken from the outbox.
 *
 * The partner is the demo vendor's first that takes 850s (made once, then reused); its mailbox is read with the demo
 * vendor's client. It runs against demo.ts's --url.
 */

const DEMO_VENDOR_NAME = VENDORS.find((vendor) => vendor.id === DEMO_VENDOR_ID)!.name;
/** The sender (ISA06) of the partner the demo makes when the demo vendor has none that takes 850s. */
const DEMO_SENDER = "MPDEMOSUPPLY";

interface Partner {
  id: number;
  name: string;
  usage: string;
  vendorId: number;
  clientId: string;
  partnerIdentity: { qualifier: string; id: string };
  ourIdentity: { qualifier: string; id: string };
  documents: string[];
  transport: { kind: string };
  createdAt: string;
}
interface AppliedSet {
  set: string;
  controlNumber: string;
  outcome: "applied" | "refused" | "retry";
  messages: string[];
}
interface InterchangeResult {
  outcome: "received" | "duplicate" | "refused";
  interchangeControl?: string;
  acknowledgment?: string | null;
  reason?: string;
  sets?: AppliedSet[];
  applied?: boolean;
}
interface OutboundDocument {
  controlNumber: number;
  document: string;
  size: number;
  storedAt: string;
}
interface OrderLine {
  lineId: number;
  partNumber: string;
  quantity: number;
  shippedQuantity: number;
  price: string;
  statusName: string;
  confirmationCode?: string | null;
  pendingChange?: { code: string; unitPrice?: string | null; promisedShipDate?: string | null } | null;
}
interface OrderRecord {
  orderNumber?: string;
  poNumber: string;
  total: string;
  status: string;
  lineItems?: OrderLine[];
  shippingInfo?: { trackingNumber: string | null; carrierName: string; serviceLevel: string }[];
}
interface InvoiceRecord {
  invoiceId: number;
  invoiceNumber: string;
  total: string;
  status: string;
  lines: { lineNumber: number; matchStatus: string; matchExplanation: string }[];
}

const until = async <T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new StepFailed(`Waited ${timeoutMs / 1000} s for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/** A segment as X12 text, in the demo's delimiters (`*`, components `>`). */
const segmentText = (segment: Segment | WriteSegment) => {
  const component = (e: string | { components: string[] }) => (typeof e === "string" ? e : e.components.join(">"));
  const elements = segment.elements.map((e) =>
    typeof e === "object" && "repetitions" in e ? e.repetitions.map(component).join("^") : component(e),
  );
  return [segment.id, ...elements].join("*").replace(/\*+$/, "");
};

/** The segments of an interchange's sets (no envelope), those of `ids` only when given: the X12 shown abridged. */
function showX12(text: string, ids?: string[]) {
  for (const interchange of readX12(text).interchanges)
    for (const group of interchange.groups)
      for (const set of group.sets)
        for (const segment of set.segments) if (!ids || ids.includes(segment.id)) show("  X12", segmentText(segment));
}

export async function ediMain(baseUrl: string): Promise<void> {
  useBaseUrl(baseUrl);
  try {
    await edi();
  } catch (error) {
    console.error(`\nDEMO FAILED at step ${currentStep()}: ${(error as Error).message}`);
    process.exit(1);
  }
}

async function edi(): Promise<void> {
  console.log(
    `Medparts EDI demo against ${demoBaseUrl()}: this script plays the operator, the hospital and ${DEMO_VENDOR_NAME}'s EDI translator`,
  );
  const saved = savedDemoClients();
  const operator = demoClientOf("MEDPARTS_OPERATOR", saved?.operator);
  const vendor = demoClientOf("MEDPARTS_VENDOR", saved?.vendor);
  const buyer = demoClientOf("MEDPARTS", saved && { clientId: saved.clientId, clientSecret: saved.clientSecret });
  if (!operator || !vendor || !buyer) throw new StepFailed("No demo clients: run `npm start` first (it writes .medparts-demo.json).");

  step(`The operator sets up ${DEMO_VENDOR_NAME} as an X12 trading partner over the HTTPS mailbox`);
  const operatorToken = await token(operator);
  const partners = await call<{ items: Partner[] }>("GET", `/admin/api/edi-partners?vendorId=${DEMO_VENDOR_ID}&limit=100`, {
    token: operatorToken,
  });
  // The vendor's 850s go to its first production partner (by id) that takes them (docs/edi.md, "Sending the 850").
  let partner = partners.items.filter((p) => p.usage === "production" && p.documents.includes("850")).sort((a, b) => a.id - b.id)[0];
  if (partner) {
    show("partner", `${partner.id} "${partner.name}" reused (sends as ${partner.partnerIdentity.qualifier}/${partner.partnerIdentity.id})`);
    if (partner.transport.kind !== "mailbox")
      throw new StepFailed(`The vendor's 850s go to partner ${partner.id} over ${partner.transport.kind}, not the mailbox.`);
    const missing = ["855", "856", "810"].filter((set) => !partner!.documents.includes(set));
    if (missing.length > 0) throw new StepFailed(`Partner ${partner.id} does not exchange ${missing.join(", ")}.`);
  } else {
    partner = await call<Partner>("POST", "/admin/api/edi-partners", {
      token: operatorToken,
      json: {
        vendorId: DEMO_VENDOR_ID,
        ...partnerInput({
          name: `${DEMO_VENDOR_NAME} EDI (demo)`,
          partnerIdentity: { qualifier: "ZZ", id: DEMO_SENDER },
          partnerApplicationId: DEMO_SENDER,
        }),
      },
    });
    show("partner", `${partner.id} "${partner.name}" added, sends as ${partner.partnerIdentity.qualifier}/${partner.partnerIdentity.id}`);
  }
  show("documents", `${partner.documents.join(", ")}, 997 back for each group`);
  const mailbox = `/vendor/api/edi/partners/${partner.id}`;
  show("mailbox", `${mailbox}/inbound (post), ${mailbox}/outbound (fetch, take)`);
  const vendorToken = await token(vendor);
  // The partner's interchange control numbers (ISA13): new ones each run, as a duplicate (same sender, ISA13, date) is
  // answered but not applied again.
  let control = (Date.now() % 900_000_000) + 1;
  /**
   * The GS06 of the files posted that we acknowledge (each file's control number), which our 997s name in AK102; a
   * partner's own 997 is not acknowledged in turn.
   */
  const posted = new Set<string>();
  const post = async (what: string, sets: PartnerSet[]): Promise<InterchangeResult> => {
    const text = partnerFile(sets, {
      senderId: partner!.partnerIdentity.id,
      receiverId: partner!.ourIdentity.id,
      controlNumber: control++,
    });
    if (!sets.every((set) => set.id === "997" || set.id === "999")) posted.add(String(control - 1));
    const res = await http("POST", `${mailbox}/inbound`, { token: vendorToken, x12: text });
    const [result] = ((await res.json()) as Envelope<{ interchanges: InterchangeResult[] }>).data.interchanges;
    if (!result) throw new StepFailed(`The mailbox answered nothing for the ${what}.`);
    show("posted", `${what}, ISA13 ${result.interchangeControl ?? "-"}: ${result.outcome}${result.reason ? ` (${result.reason})` : ""}`);
    if (result.outcome !== "received") throw new StepFailed(`The ${what} was ${result.outcome}: ${result.reason ?? ""}`);
    for (const set of result.sets ?? [])
      show(`  ${set.set} ${set.controlNumber}`, `${set.outcome}${set.messages.length > 0 ? `: ${set.messages.join("; ")}` : ""}`);
    const refused = (result.sets ?? []).find((set) => set.outcome !== "applied");
    if (refused) throw new StepFailed(`The ${what}'s ${refused.set} was ${refused.outcome}: ${refused.messages.join("; ")}`);
    return result;
  };
  const showAcknowledgment = (result: InterchangeResult) => {
    if (!result.acknowledgment) return show("our answer", "none owed");
    show("our answer", "(also waiting in the outbox)");
    showX12(result.acknowledgment, ["AK1", "AK2", "AK5", "AK9"]);
  };

  step(`The hospital orders from ${DEMO_VENDOR_NAME} (customer API)`);
  const buyerToken = await token(buyer);
  const api = "/customer/api";
  const user = await call<{
    userId: number;
    contactId: number;
    companies: { facilities: { id: number }[]; shippingAddresses: { id: number }[]; billingAddresses: { id: number }[] }[];
  }>("GET", `${api}/users/lookup?loginUserId=${encodeURIComponent(process.env.DEMO_USER ?? "jsmith")}`, { token: buyerToken });
  const company = user.companies.find((c) => c.facilities.length > 0 && c.shippingAddresses.length > 0 && c.billingAddresses.length > 0);
  if (!company) throw new StepFailed("The demo buyer has no company with a facility and addresses to order for.");
  const ids = { facilityId: company.facilities[0]!.id, requesterId: user.contactId };
  const query = process.env.DEMO_QUERY ?? "SpO2 sensor";
  const { items } = await call<{ items: { id: string }[] }>("POST", `${api}/catalog/search`, {
    token: buyerToken,
    json: { filters: { query }, pagination: { limit: 10, offset: 0 }, ...ids },
  });
  type Option = { priceOptionId: string; price: string; vendorName: string; customFields: { isRequired: boolean }[] };
  type Detail = {
    product: { id: string; title?: string; deviceIdentifiers: { agency: string; deviceId: string; containsDeviceId: string | null }[] };
    options: Option[];
  };
  // The search's products, then (when none of those fits) those the vendor offers.
  const offered = async () =>
    (await call<{ offers: { productId: string }[] }>("GET", "/vendor/api/offers?limit=50", { token: vendorToken })).offers.map(
      (offer) => offer.productId,
    );
  const tried = new Set<string>();
  const fitting = async (productIds: string[]): Promise<{ productId: string; option: Option; gtin: string } | undefined> => {
    for (const productId of productIds) {
      if (tried.has(productId)) continue;
      tried.add(productId);
      const detail = await call<Detail>("POST", `${api}/catalog/detail`, { token: buyerToken, json: { productId, ...ids } });
      const option = detail.options.find((o) => o.vendorName === DEMO_VENDOR_NAME && !o.customFields.some((f) => f.isRequired));
      // The unit's GTIN: the 856 names it (LIN UK) for the lot and serials of its units.
      const gtin = detail.product.deviceIdentifiers.find((d) => d.agency === "GS1" && d.containsDeviceId === null)?.deviceId;
      if (option && gtin) return { productId, option, gtin };
    }
    return undefined;
  };
  const chosen = (await fitting(items.map((item) => item.id))) ?? (await fitting(await offered()));
  if (!chosen)
    throw new StepFailed(`No price option of ${DEMO_VENDOR_NAME} with a GTIN for "${query}" or among its offers; set DEMO_QUERY.`);
  const poNumber = `EDI-DEMO-${Date.now().toString(36).toUpperCase()}`;
  const quantity = 2;
  const placed = await call<{ orderNumber: string }>("POST", `${api}/orders`, {
    token: buyerToken,
    headers: { "Idempotency-Key": crypto.randomUUID() },
    json: {
      ...ids,
      userId: user.userId,
      shippingAddressId: company.shippingAddresses[0]!.id,
      billingAddressId: company.billingAddresses[0]!.id,
      shippingMethod: "GROUND",
      quoteItems: [{ priceOptionId: chosen.option.priceOptionId, productId: chosen.productId, quantity, price: chosen.option.price }],
      payment: { paymentMethod: "PO", poNumber },
      notes: "Created by npm run demo -- --edi",
    },
  });
  const orderNumber = placed.orderNumber;
  const readOrder = () => call<OrderRecord>("GET", `${api}/orders/${orderNumber}?include=lineItems,shippingInfo`, { token: buyerToken });
  const line = (await readOrder()).lineItems?.[0];
  if (!line) throw new StepFailed(`The order ${orderNumber} has no line.`);
  show("order", `${orderNumber}, PO ${poNumber}`);
  show("line", `${line.lineId}: ${line.quantity} x ${line.partNumber} at ${line.price} (${line.statusName})`);

  step("The partner fetches its 850 from the mailbox and takes it");
  const outbound = async () => {
    const documents: OutboundDocument[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: OutboundDocument[]; cursor: string | null } = await call(
        "GET",
        `${mailbox}/outbound?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { token: vendorToken },
      );
      documents.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    return documents;
  };
  const documentText = async (controlNumber: number) =>
    (await http("GET", `${mailbox}/outbound/${controlNumber}`, { token: vendorToken })).text();
  const take = (controlNumber: number) => http("DELETE", `${mailbox}/outbound/${controlNumber}`, { token: vendorToken });
  const read850 = new Map<number, string>();
  // The order's lines reach the vendor's queue when it is placed; its 850 is in the outbox a moment later.
  const sent = await until(async () => {
    for (const document of await outbound()) {
      if (document.document !== "850" || read850.has(document.controlNumber)) continue;
      const text = await documentText(document.controlNumber);
      read850.set(document.controlNumber, text);
      const [interchange] = readX12(text).interchanges;
      const group = interchange?.groups[0];
      const set = group?.sets[0];
      if (!interchange || !group || !set) continue;
      const { order } = readPurchaseOrder(set);
      if (order.lines.some((l) => l.lineNumber === String(line.lineId))) return { document, text, interchange, group, set, order };
    }
    return undefined;
  }, `the 850 of ${orderNumber} in the outbox`);
  show(
    "850",
    `ISA13 ${sent.interchange.controlNumber}, GS06 ${sent.group.controlNumber}, ST02 ${sent.set.controlNumber}, ${sent.document.size} bytes`,
  );
  showX12(sent.text, ["BEG", "PO1", "CTT", "AMT"]);
  await take(sent.document.controlNumber);
  show("taken", `DELETE ${mailbox}/outbound/${sent.document.controlNumber}`);

  step("The partner's translator accepts the 850: its 997 posted to the mailbox");
  const ack850 = set997({
    functionalId: sent.group.functionalId,
    controlNumber: sent.group.controlNumber,
    sets: [{ id: "850", controlNumber: sent.set.controlNumber }],
  });
  for (const segment of ack850.segments) show("  X12", segmentText(segment));
  showAcknowledgment(await post("997 for the 850", [ack850]));

  step("The partner confirms with a price change: an 855, ACK code IP with CTP*CON the new price");
  const newCents = textToCents(line.price)! + 500;
  const newPrice = centsToText(newCents);
  // The translator echoes the 850's PO1 (line id, vendor's SKU) in what it sends back.
  const sku = line.partNumber;
  const confirmation = set855(orderNumber, [{ lineId: line.lineId, quantity, price: line.price, code: "IP", newPrice, sku }]);
  for (const segment of confirmation.segments.filter((s) => ["BAK", "PO1", "CTP", "ACK"].includes(s.id)))
    show("  X12", segmentText(segment));
  showAcknowledgment(await post("855", [confirmation]));
  const proposed = (await readOrder()).lineItems?.[0];
  const change = proposed?.pendingChange;
  if (!change) throw new StepFailed("The 855's price change is not waiting for the buyer.");
  show("buyer sees", `line ${proposed.statusName}, code ${proposed.confirmationCode}: a pending change waits for the buyer`);
  show("pending change", `${change.code}: unit price ${line.price} -> ${change.unitPrice}, ship ${change.promisedShipDate ?? "-"}`);

  step("The buyer approves the new price (customer API, change-decision)");
  const decided = await call<{ lineStatus: string; orderStatus: string }>(
    "POST",
    `${api}/orders/${orderNumber}/lines/${line.lineId}/change-decision`,
    { token: buyerToken, json: { decision: "accept" } },
  );
  const approved = await readOrder();
  show("line", `${decided.lineStatus} at ${approved.lineItems?.[0]?.price}, order ${decided.orderStatus}, total ${approved.total}`);
  if (textToCents(approved.lineItems?.[0]?.price ?? "0") !== newCents) throw new StepFailed("The approved price was not applied.");

  step("The partner ships: an 856 with the unit GTIN, a lot, an expiry and a serial per unit");
  const tracking = `1ZEDI${unique()}${unique()}`.slice(0, 18);
  const lot = `LOT-${unique()}`;
  const serials = Array.from({ length: quantity }, (_, i) => `SN-${unique()}-${i + 1}`);
  const notice = set856(orderNumber, tracking, [{ lineId: line.lineId, quantity, gtin: chosen.gtin, lot, serials, sku }]);
  for (const segment of notice.segments.filter((s) => ["BSN", "TD5", "REF", "LIN", "SN1", "DTM"].includes(s.id)))
    show("  X12", segmentText(segment));
  showAcknowledgment(await post("856", [notice]));
  const shipped = await readOrder();
  const shippedLine = shipped.lineItems?.[0];
  show(
    "buyer sees",
    `order ${shipped.status}; line ${shippedLine?.statusName}, ${shippedLine?.shippedQuantity} of ${shippedLine?.quantity} shipped`,
  );
  for (const parcel of shipped.shippingInfo ?? [])
    if (parcel.trackingNumber) show("parcel", `${parcel.trackingNumber} ${parcel.carrierName}`);
  for (const serial of serials) show("unit", `GTIN ${chosen.gtin}, lot ${lot}, serial ${serial}, expires 2030-12-31`);
  if (shippedLine?.statusName !== "Shipped") throw new StepFailed(`Expected the line Shipped, the buyer sees ${shippedLine?.statusName}.`);
  // The units' lots and serials are searchable (recalls): the order is found by its lot and by a serial.
  for (const q of [`lotNumber:"${lot}"`, `serialNumber:"${serials[0]}"`]) {
    const found = await call<{ orders: { orderNumber?: string; poNumber: string }[] }>(
      "GET",
      `${api}/orders/search?q=${encodeURIComponent(q)}`,
      { token: buyerToken },
    );
    show("search", `${q}: ${found.orders.map((o) => o.poNumber).join(", ") || "nothing"}`);
    if (!found.orders.some((o) => o.poNumber === poNumber)) throw new StepFailed(`The order is not found by ${q}.`);
  }

  step("The partner invoices: an 810 at the approved price, matched three ways (order, receipt, invoice)");
  const invoiceNumber = `INV-EDI-${unique()}`;
  const invoiceSet = set810(orderNumber, invoiceNumber, [{ lineId: line.lineId, quantity, price: newPrice, sku }]);
  for (const segment of invoiceSet.segments.filter((s) => ["BIG", "IT1", "TDS"].includes(s.id))) show("  X12", segmentText(segment));
  showAcknowledgment(await post("810", [invoiceSet]));
  const { invoices } = await call<{ invoices: InvoiceRecord[] }>(
    "GET",
    `${api}/invoices?q=${encodeURIComponent(`invoiceNumber:"${invoiceNumber}"`)}`,
    { token: buyerToken },
  );
  const invoice = invoices[0];
  if (!invoice) throw new StepFailed(`The buyer sees no invoice ${invoiceNumber}.`);
  show("invoice", `${invoice.invoiceNumber} (id ${invoice.invoiceId}): total ${invoice.total}, ${invoice.status}`);
  for (const l of invoice.lines) show(`  line ${l.lineNumber}`, `${l.matchStatus}: ${l.matchExplanation}`);
  if (invoice.status !== "matched") throw new StepFailed(`Expected a matched invoice, got ${invoice.status}.`);

  step("The partner takes our 997s from the outbox");
  // Ours for this run's files: AK102 names the group (GS06, the file's control number). Others (another run's) stay.
  const answered = new Set<string>();
  for (const document of (await outbound()).filter((d) => d.document === "997")) {
    const [interchange] = readX12(await documentText(document.controlNumber)).interchanges;
    const ak1 = interchange?.groups[0]?.sets[0]?.segments.find((s) => s.id === "AK1");
    const ak9 = interchange?.groups[0]?.sets[0]?.segments.find((s) => s.id === "AK9");
    if (!ak1 || !ak9 || !posted.has(ak1.elements[1] ?? "")) continue;
    await take(document.controlNumber);
    answered.add(ak1.elements[1]!);
    show("taken", `997 ISA13 ${document.controlNumber}: AK1 ${ak1.elements.slice(0, 2).join(" ")}, AK9 ${ak9.elements[0]}`);
  }
  const unanswered = [...posted].filter((control) => !answered.has(control));
  if (unanswered.length > 0) throw new StepFailed(`No 997 in the outbox for the files of ISA13 ${unanswered.join(", ")}.`);
  const left = await outbound();
  show("left waiting", left.length === 0 ? "nothing" : `${left.length} (${left.map((d) => d.document).join(", ")}): not this run's`);

  console.log(`\nEDI demo complete: order ${orderNumber} (PO ${poNumber}) ordered, confirmed, shipped and invoiced over X12.`);
}
