import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unescapeHtml } from "../../scripts/demo/cxml-suite";
import { ORDER_LIMITS } from "../../src/api/orders/options";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { MAX_CART_LINES } from "../../src/operator/procurement/punchout-setup";
import { purgeSessions } from "../../src/operator/procurement/sessions";
import { readXml, type XmlElement } from "../../src/operator/procurement/xml";
import { readUnverifiedPriceOption } from "../../src/shared/catalog/price-option-ids";
import { BASE_URL, call, json, TENANT_A, tokenFor } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
import { dispatch } from "../helpers/dispatch";
import { issueQuote, JSMITH, withoutFields } from "../helpers/orders";
import {
  connect,
  FORM_POST_URL,
  find,
  itemOut,
  orderRequest,
  postCxml,
  requestDocument,
  setupRequest,
  type TestConnection,
} from "../helpers/procurement";

/** A browser's view of the shop: the session cookie it was given, sent back on every request. */
class Browser {
  cookie = "";
  async get(path: string) {
    return dispatch(`${BASE_URL}${path}`, { headers: this.cookie ? { Cookie: this.cookie } : {}, redirect: "manual" });
  }
  async post(path: string, form: Record<string, string | string[]>, origin: string | null = BASE_URL) {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) for (const one of Array.isArray(value) ? value : [value]) body.append(key, one);
    return dispatch(`${BASE_URL}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: this.cookie, ...(origin ? { Origin: origin } : {}) },
      body,
      redirect: "manual",
    });
  }
}

async function punchOut(connection: TestConnection, operation = "create", items = ""): Promise<Browser> {
  const answer = await postCxml(requestDocument(connection, setupRequest(operation, items)));
  expect(answer.code, answer.text).toBe(200);
  const start = new URL(find(answer.root, "Response", "PunchOutSetupResponse", "StartPage", "URL")!.text);
  const browser = new Browser();
  const res = await browser.get(start.pathname);
  expect(res.status).toBe(303);
  const setCookie = res.headers.get("Set-Cookie")!;
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/Secure/i);
  expect(setCookie).toMatch(/SameSite=None/i);
  browser.cookie = setCookie.split(";")[0]!;
  expect((await new Browser().get(start.pathname)).status).toBe(410);
  return browser;
}

/** The hidden fields of the first add-to-cart form of a product page. */
function firstAddForm(page: string): Record<string, string> {
  const form = /<form class="inline" action="\/punchout\/shop\/cart" method="post">(.*?)<\/form>/s.exec(page)![1]!;
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescapeHtml(m[2]!)]),
  );
}

function transferredMessage(page: string): XmlElement {
  expect(page).toContain(`action="${FORM_POST_URL.replace(/&/g, "&amp;")}"`);
  const value = /<input type="hidden" name="cxml-urlencoded" value="([^"]*)">/.exec(page)![1]!;
  return readXml(new TextEncoder().encode(unescapeHtml(value)));
}

describe("the PunchOut shop", () => {
  it("searches with facets, shows the facility's prices, keeps a cart, takes a scanned label, and transfers it as a PunchOutOrderMessage", async () => {
    const connection = await connect();
    const browser = await punchOut(connection);

    const search = await browser.get("/punchout/shop?q=");
    const searchPage = await search.text();
    expect(search.status).toBe(200);
    expect(search.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(searchPage).toContain("/punchout/shop/products/");
    expect(searchPage).toMatch(/<h2 id="facet-manufacturer">Manufacturer<\/h2>/);
    const manufacturer = /href="(\/punchout\/shop\?[^"]*manufacturer=[^"]+)"/.exec(searchPage)![1]!;
    const narrowed = await browser.get(unescapeHtml(manufacturer));
    expect(await narrowed.text()).toContain('aria-current="true"');

    const product = productId(7);
    const detail = await (await browser.get(`/punchout/shop/products/${product}`)).text();
    const form = firstAddForm(detail);
    expect(form.priceOptionId).toMatch(/^po_/);
    expect((await browser.post("/punchout/shop/cart", { ...form, quantity: "3" }, null)).status).toBe(403);
    expect((await browser.post("/punchout/shop/cart", { ...form, quantity: "3" }, "https://evil.example.com")).status).toBe(403);
    const crossSite = await dispatch(`${BASE_URL}/punchout/shop/cart`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: browser.cookie,
        "Sec-Fetch-Site": "cross-site",
        Origin: BASE_URL,
      },
      body: new URLSearchParams({ ...form, quantity: "3" }),
    });
    expect(crossSite.status).toBe(403);
    // The option's custom fields are asked on the page and travel with the line (the first demo option asks a return date).
    expect(detail).toContain('name="field:loanReturnDate"');
    const added = await browser.post("/punchout/shop/cart", { ...form, quantity: "3", "field:loanReturnDate": "2030-01-31" });
    expect([added.status, added.headers.get("Location")]).toEqual([303, "/punchout/shop/cart?notice=added"]);

    const gtin = generateDeviceIdentifiers(11)[0]!.deviceId;
    const scanned = await browser.post("/punchout/shop/scan", { code: `(01)${gtin}(10)LOT1` });
    expect(scanned.headers.get("Location")).toBe("/punchout/shop/cart?notice=added");
    const unresolved = await browser.post("/punchout/shop/scan", { code: "NOT-A-LABEL-AT-ALL-XYZ" });
    expect(unresolved.headers.get("Location")).toBe("/punchout/shop/cart?notice=unresolved");

    const cart = await (await browser.get("/punchout/shop/cart")).text();
    expect(cart).toContain("Cart (2 lines)");
    const updated = await browser.post("/punchout/shop/cart/update", { quantity: ["2", "1"] });
    expect(updated.headers.get("Location")).toBe("/punchout/shop/cart?notice=updated");

    const transfer = await browser.post("/punchout/shop/transfer", {});
    const transferPage = await transfer.text();
    expect(transfer.status).toBe(200);
    expect(transfer.headers.get("Content-Security-Policy")).toContain("form-action https://suite.example.com");
    const message = transferredMessage(transferPage);
    const poom = find(message, "Message", "PunchOutOrderMessage")!;
    expect(find(poom, "BuyerCookie")!.text).toBe("cookie-123");
    const items = poom.children.filter((child) => child.name === "ItemIn");
    expect(items.map((item) => item.attributes.quantity)).toEqual(["2", "1"]);
    expect(find(items[0], "ItemID", "SupplierPartID")!.text).toBe(product);
    expect(find(items[0], "ItemID", "SupplierPartAuxiliaryID")!.text).toBe(form.priceOptionId);
    expect(find(items[1], "ItemID", "SupplierPartID")!.text).toBe(productId(11));

    // The session ends with the transfer.
    expect((await browser.get("/punchout/shop/cart")).status).toBe(401);

    // The suite's OrderRequest of that cart: each ItemIn becomes an ItemOut, held to its quote.
    const lines = items.map((item) => ({
      productId: find(item, "ItemID", "SupplierPartID")!.text,
      priceOptionId: find(item, "ItemID", "SupplierPartAuxiliaryID")!.text,
      quantity: Number(item.attributes.quantity),
      price: find(item, "ItemDetail", "UnitPrice", "Money")!.text,
      extrinsics: Object.fromEntries(
        find(item, "ItemDetail")!
          .children.filter((child) => child.name === "Extrinsic")
          .map((extrinsic) => [extrinsic.attributes.name!, extrinsic.text]),
      ),
    }));
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const order = await postCxml(requestDocument(connection, orderRequest(orderId, lines)));
    expect(order.code, order.text).toBe(200);
    expect(order.text).toMatch(/Medparts order \S+ for orderID/);
  });

  it("reopens the suite's cart for edit, and shows it read-only for inspect", async () => {
    const connection = await connect();
    const quote = await issueQuote(productId(8), JSMITH, withoutFields);
    const items = itemOut(
      { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 5, price: quote.price.toFixed(2) },
      0,
    );
    const edit = await punchOut(connection, "edit", items);
    const editCart = await (await edit.get("/punchout/shop/cart")).text();
    expect(editCart).toContain("Cart (1 line)");
    expect(editCart).toContain('value="5"');
    const inspect = await punchOut(connection, "inspect", items);
    const inspectCart = await (await inspect.get("/punchout/shop/cart")).text();
    expect(inspectCart).not.toContain("Update cart");
    expect(inspectCart).toContain("Return to procurement");
    const refused = await inspect.post("/punchout/shop/cart/update", { quantity: ["0"] });
    expect(refused.headers.get("Location")).toBe("/punchout/shop/cart");
    const message = transferredMessage(await (await inspect.post("/punchout/shop/transfer", {})).text());
    const header = find(message, "Message", "PunchOutOrderMessage", "PunchOutOrderMessageHeader")!;
    expect(header.attributes.operationAllowed).toBe("inspect");
  });

  it("an edit of an ordered cart gets fresh quotes of the same offers, so the suite's change order (update) is placed", async () => {
    const connection = await connect();
    const quote = await issueQuote(productId(14), JSMITH, withoutFields);
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const line = { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 2, price: quote.price.toFixed(2) };
    const first = await postCxml(requestDocument(connection, orderRequest(orderId, [line])));
    expect(first.code, first.text).toBe(200);
    const firstNumber = /order (\S+) for orderID/.exec(first.text)![1]!;
    await backgroundSettled();

    // The requisitioner reopens the ordered cart from the suite and sends it back unchanged.
    const edit = await punchOut(connection, "edit", itemOut(line, 0));
    const message = transferredMessage(await (await edit.post("/punchout/shop/transfer", {})).text());
    const [item] = find(message, "Message", "PunchOutOrderMessage")!.children.filter((child) => child.name === "ItemIn");
    const fresh = find(item, "ItemID", "SupplierPartAuxiliaryID")!.text;
    expect(fresh).not.toBe(quote.priceOptionId);
    expect(readUnverifiedPriceOption(fresh)!.offerId).toBe(readUnverifiedPriceOption(quote.priceOptionId)!.offerId);

    const update = await postCxml(
      requestDocument(
        connection,
        orderRequest(orderId, [{ ...line, priceOptionId: fresh, price: find(item, "ItemDetail", "UnitPrice", "Money")!.text }], {
          type: "update",
        }),
      ),
    );
    expect(update.code, update.text).toBe(200);
    const order = await json(await call(await tokenFor(TENANT_A), `/orders/${firstNumber}`));
    expect(order.data.status).toBe("Cancelled");
  });

  it("a cart holds no more lines than an order: the orders API's limit", () => {
    expect(MAX_CART_LINES).toBe(ORDER_LIMITS.maxLines);
  });

  it("sessions past their end are purged by the operator plane's housekeeping; live ones stay", async () => {
    const connection = await connect();
    const live = await punchOut(connection);
    await punchOut(connection);
    const [ended] = (await env.DB.prepare("SELECT id FROM punchout_sessions ORDER BY id DESC LIMIT 1").all<{ id: number }>()).results;
    await env.DB.prepare("UPDATE punchout_sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(ended!.id).run();
    expect(await purgeSessions(env.DB, new Date())).toBeGreaterThanOrEqual(1);
    expect(await env.DB.prepare("SELECT id FROM punchout_sessions WHERE id = ?").bind(ended!.id).first()).toBeNull();
    expect((await live.get("/punchout/shop/cart")).status).toBe(200);
  });

  it("opens nothing without a live session cookie, and the cookie of one session opens only it", async () => {
    const stranger = new Browser();
    expect((await stranger.get("/punchout/shop")).status).toBe(401);
    stranger.cookie = "mp_punchout=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    expect((await stranger.get("/punchout/shop/cart")).status).toBe(401);
    expect((await stranger.get("/punchout/start/not-a-code")).status).toBe(410);
    const token = await tokenFor(TENANT_A);
    const withBearer = await dispatch(`${BASE_URL}/punchout/shop/cart`, { headers: { Authorization: `Bearer ${token}` } });
    expect(withBearer.status).toBe(401);
  });
});
