import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { generateDeviceIdentifiers, productId, VENDORS } from "../../src/dev/seed/catalog";
import { readXml, type XmlElement } from "../../src/operator/procurement/xml";
import { demoClientOf, savedDemoClients } from "../dev/local-platform";
import { demoConnection, findIn, orderRequestOfCart, unescapeHtml } from "./cxml-suite";

/**
 * `npm run demo -- --punchout`: Medparts from inside a procurement suite (docs/api.md, "Procurement systems (cXML)"),
 * against a running `npm start`. This script plays the suite and the requisitioner's browser: the operator connects the
 * suite, the suite sends ProfileRequest and PunchOutSetupRequest, the requisitioner searches, adds a part and scans a
 * label, Transfer cart posts the PunchOutOrderMessage back, the suite sends the OrderRequest of that cart, and the demo
 * vendor's acknowledgement and parcel come back to the suite as ConfirmationRequest and ShipNoticeRequest.
 *
 * It runs against demo.ts's --url and listens for the suite on its --suite-port (default: a free port). It leaves the
 * connection it made inert: its documentUrl removed (so its webhook endpoint is disabled) and its client disabled.
 */

/** The API's base URL: demo.ts's --url, set once by punchoutMain. */
let BASE_URL = "";
const SUPPLIER = { domain: "NetworkID", identity: "AN-MEDPARTS-DEMO" };
const DEMO_VENDOR_NAME = VENDORS.find((vendor) => vendor.id === DEMO_VENDOR_ID)!.name;

class StepFailed extends Error {}
let stepNumber = 0;
const step = (title: string) => console.log(`\n${++stepNumber}. ${title}`);
const show = (label: string, value: unknown) =>
  console.log(`   ${label.padEnd(18)} ${typeof value === "string" ? value : JSON.stringify(value)}`);

const find = findIn;

async function http(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(path.startsWith("http") ? path : `${BASE_URL}${path}`, { method, redirect: "manual", ...init });
  } catch (error) {
    throw new StepFailed(`${method} ${path}: no answer (${(error as Error).message}). Is \`npm start\` running at ${BASE_URL}?`);
  }
}

async function cxml(document: string): Promise<{ code: number; text: string; root: XmlElement }> {
  const res = await http("POST", "/cxml", { headers: { "Content-Type": "text/xml" }, body: document });
  const root = readXml(new Uint8Array(await res.arrayBuffer()));
  const status = find(root, "Response", "Status");
  if (!status) throw new StepFailed(`POST /cxml: no cXML Status (HTTP ${res.status})`);
  const answer = { code: Number(status.attributes.code), text: status.text.trim(), root };
  show("cXML Status", `${answer.code} ${status.attributes.text}${answer.text ? `: ${answer.text}` : ""}`);
  if (answer.code !== 200) throw new StepFailed(`The document was refused: ${answer.text}`);
  return answer;
}

const envelope = (buyer: string, secret: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.063/cXML.dtd">
<cXML payloadID="${Date.now()}.demo@suite.example" timestamp="${new Date().toISOString()}" xml:lang="en-US"><Header>
<From><Credential domain="NetworkID"><Identity>${buyer}</Identity></Credential></From>
<To><Credential domain="${SUPPLIER.domain}"><Identity>${SUPPLIER.identity}</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>${buyer}</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>Demo suite</UserAgent></Sender>
</Header><Request>${body}</Request></cXML>`;

async function token(credentials: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await http("POST", "/auth/oauth2/token", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    }),
  });
  if (!res.ok) throw new StepFailed(`token: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The suite's receiver: the documents Medparts sends back (documentUrl). */
function suiteReceiver(port: number) {
  const documents: XmlElement[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        const root = readXml(new Uint8Array(Buffer.concat(chunks)));
        documents.push(root);
        show("suite received", find(root, "Request")?.children[0]?.name ?? root.name);
      } catch (error) {
        show("suite refused", (error as Error).message);
      }
      res.writeHead(200, { "Content-Type": "text/xml" }).end('<cXML><Response><Status code="200" text="OK"/></Response></cXML>');
    });
  });
  return new Promise<{ documents: XmlElement[]; url: string; close: () => void }>((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve({ documents, url: `http://localhost:${(server.address() as AddressInfo).port}/cxml`, close: () => server.close() }),
    ),
  );
}

const field = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];
export async function punchoutMain(baseUrl: string, suitePort: number): Promise<void> {
  BASE_URL = baseUrl;
  try {
    await punchout(suitePort);
  } catch (error) {
    console.error(`\nDEMO FAILED at step ${stepNumber}: ${(error as Error).message}`);
    process.exit(1);
  }
}

async function punchout(suitePort: number): Promise<void> {
  console.log(`Medparts PunchOut demo against ${BASE_URL}: this script plays the procurement suite and the browser`);
  const saved = savedDemoClients();
  const operator = demoClientOf("MEDPARTS_OPERATOR", saved?.operator);
  const vendor = demoClientOf("MEDPARTS_VENDOR", saved?.vendor);
  if (!operator || !vendor) throw new StepFailed("No demo clients: run `npm start` first (it writes .medparts-demo.json).");
  const suite = await suiteReceiver(suitePort);
  const operatorToken = await token(operator);
  let made: { id: number; clientId: string; mapping: Record<string, unknown> } | undefined;
  try {
    step("The operator connects the hospital's suite (POST /admin/api/procurement-connections)");
    const buyer = `AN-DEMO-${Date.now()}`;
    const { tenantId, ...mapping } = demoConnection("St. Mary's Ariba (demo)", buyer, SUPPLIER, suite.url);
    const created = await http("POST", "/admin/api/procurement-connections", {
      headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tenantId, ...mapping }),
    });
    if (created.status !== 201) throw new StepFailed(`connection: HTTP ${created.status} ${await created.text()}`);
    const { connection, sharedSecret, cxmlUrl } = (
      (await created.json()) as {
        data: { connection: { id: number; clientId: string }; sharedSecret: string; cxmlUrl: string };
      }
    ).data;
    made = { id: connection.id, clientId: connection.clientId, mapping };
    show("connection", connection.id);
    show("cXML URL", cxmlUrl);
    show("SharedSecret", `${sharedSecret.slice(0, 6)}... (shown once)`);

    step("The suite asks what Medparts accepts (ProfileRequest)");
    const profile = await cxml(envelope(buyer, sharedSecret, "<ProfileRequest/>"));
    show(
      "transactions",
      find(profile.root, "Response", "ProfileResponse")!
        .children.filter((c) => c.name === "Transaction")
        .map((c) => c.attributes.requestName),
    );

    step("The requisitioner opens Medparts from the suite (PunchOutSetupRequest)");
    const returnUrl = suite.url.replace("/cxml", "/punchout-return");
    const setup = await cxml(
      envelope(
        buyer,
        sharedSecret,
        `<PunchOutSetupRequest operation="create"><BuyerCookie>demo-cart-1</BuyerCookie><BrowserFormPost><URL>${returnUrl}</URL></BrowserFormPost></PunchOutSetupRequest>`,
      ),
    );
    const startPage = find(setup.root, "Response", "PunchOutSetupResponse", "StartPage", "URL")!.text;
    show("StartPage", startPage);

    step("The browser opens the StartPage, searches, adds a part and scans a label");
    const started = await http("GET", new URL(startPage).pathname);
    const cookie = started.headers.get("Set-Cookie")?.split(";")[0];
    if (!cookie) throw new StepFailed(`StartPage: HTTP ${started.status}, no session cookie`);
    const page = async (path: string) => (await http("GET", path, { headers: { Cookie: cookie } })).text();
    const post = (path: string, form: Record<string, string>) =>
      http("POST", path, {
        headers: { Cookie: cookie, Origin: new URL(BASE_URL).origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
    const search = await page("/punchout/shop?q=sensor");
    show("search", `${/<caption>([^<]*)<\/caption>/.exec(search)?.[1] ?? "no results"} for "sensor"`);
    const product = /href="\/punchout\/shop\/products\/([^"]+)"/.exec(search)?.[1] ?? productId(3);
    // The demo vendor's option (its lines are the ones this demo moves as that vendor), with its custom fields filled in.
    const rows = (await page(`/punchout/shop/products/${product}`)).split("<tr>");
    const row =
      rows.find((r) => r.includes(DEMO_VENDOR_NAME) && r.includes('<form class="inline"')) ??
      rows.find((r) => r.includes('<form class="inline"'));
    const detail = row ? (/<form class="inline"[\s\S]*?<\/form>/.exec(row)?.[0] ?? "") : "";
    const form = Object.fromEntries(
      [
        "priceOptionId",
        "productId",
        "description",
        "manufacturerName",
        "manufacturerPartId",
        "unitOfMeasure",
        "leadTimeDays",
        "purchaseType",
      ].map((name) => [name, unescapeHtml(field(detail, name) ?? "")]),
    );
    const answers: Record<string, string> = { costCenter: "4410", loanReturnDate: "2030-01-31", coreSerialNumber: "SN-123456" };
    const fields = Object.fromEntries(
      [...detail.matchAll(/name="field:([^"]+)"/g)].map((m) => [`field:${m[1]!}`, answers[m[1]!] ?? "see notes"]),
    );
    await post("/punchout/shop/cart", { ...form, ...fields, quantity: "2" });
    show("added", `${form.description} × 2 from ${row?.includes(DEMO_VENDOR_NAME) ? DEMO_VENDOR_NAME : "its first vendor"}`);
    const gtin = generateDeviceIdentifiers(11)[0]!.deviceId;
    const scanned = await post("/punchout/shop/scan", { code: `(01)${gtin}(10)LOT-DEMO` });
    show("scanned", `(01)${gtin}(10)LOT-DEMO -> ${scanned.headers.get("Location")}`);

    step("Transfer cart: the PunchOutOrderMessage goes back to the suite in cxml-urlencoded");
    const transfer = await (await post("/punchout/shop/transfer", {})).text();
    const message = readXml(new TextEncoder().encode(unescapeHtml(field(transfer, "cxml-urlencoded") ?? "")));
    const items = find(message, "Message", "PunchOutOrderMessage")!.children.filter((c) => c.name === "ItemIn");
    for (const item of items) {
      show(
        "ItemIn",
        `${item.attributes.quantity} × ${find(item, "ItemID", "SupplierPartID")!.text} at $${find(item, "ItemDetail", "UnitPrice", "Money")!.text}`,
      );
    }

    step("The suite's approved requisition comes back as an OrderRequest");
    const orderId = `PO-DEMO-${Date.now().toString(36).toUpperCase()}`;
    const order = await cxml(
      envelope(
        buyer,
        sharedSecret,
        orderRequestOfCart(orderId, items, (i) => (i + 1) * 10),
      ),
    );
    const orderNumber = /order (\S+) for orderID/.exec(order.text)![1]!;

    step("The vendor acknowledges and ships: the suite gets a ConfirmationRequest and a ShipNoticeRequest");
    const vendorToken = await token(vendor);
    const vendorLines = await http("GET", `/vendor/api/order-lines?orderNumber=${encodeURIComponent(orderNumber)}`, {
      headers: { Authorization: `Bearer ${vendorToken}` },
    });
    const lineId = ((await vendorLines.json()) as { data: { lines: { lineId: number }[] } }).data.lines[0]?.lineId;
    if (lineId !== undefined) {
      const moveLine = (action: string, body: unknown) =>
        http("POST", `/vendor/api/order-lines/${lineId}/${action}`, {
          headers: { Authorization: `Bearer ${vendorToken}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      await moveLine("acknowledge", { promisedShipDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) });
      await moveLine("ship", { trackingNumber: `1ZDEMO${Date.now().toString(36).toUpperCase()}`, carrierName: "UPS" });
    } else show("vendor", "the order's first line is another vendor's: no move made");
    const deadline = Date.now() + 20_000;
    while (suite.documents.length < 2 && Date.now() < deadline && lineId !== undefined) await new Promise((r) => setTimeout(r, 250));
    if (lineId !== undefined && suite.documents.length < 2)
      throw new StepFailed(`The suite received ${suite.documents.length} of 2 documents.`);
    console.log(`\nPunchOut demo complete: order ${orderNumber} (orderID ${orderId}) placed from the suite's cart.`);
  } finally {
    suite.close();
    if (made) await retire(operatorToken, made);
  }
}

/**
 * Leaves the demo's connection inert: without its documentUrl (its webhook endpoint `we_cxml_<id>` is disabled) and
 * with its client disabled, so that later events are not posted to a suite that is gone.
 */
async function retire(operatorToken: string, made: { id: number; clientId: string; mapping: Record<string, unknown> }) {
  const authorization = { Authorization: `Bearer ${operatorToken}` };
  const replaced = await http("PUT", `/admin/api/procurement-connections/${made.id}`, {
    headers: { ...authorization, "Content-Type": "application/json" },
    body: JSON.stringify({ ...made.mapping, documentUrl: null }),
  });
  const disabled = await http("POST", `/admin/api/clients/${encodeURIComponent(made.clientId)}/disable`, { headers: authorization });
  const failed = [replaced, disabled].find((res) => !res.ok);
  if (failed) {
    console.error(`Could not retire the demo's connection ${made.id}: HTTP ${failed.status} ${await failed.text()}`);
    return;
  }
  show("connection", `${made.id} retired: documentUrl removed (its webhook endpoint disabled), client ${made.clientId} disabled`);
}
