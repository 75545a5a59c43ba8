import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../../env";
import { amountCents, amountText, centsToText } from "../../../platform/money";
import { fromOwnPages } from "../../../platform/same-origin";
import { readUnverifiedPriceOption } from "../../../shared/catalog/price-option-ids";
import { type ApiAnswer, ApiUnavailable, apiOf, callApi } from "../api";
import { readConnection } from "../connections";
import { MAX_CART_LINES } from "../punchout-setup";
import {
  type CartLine,
  endSession,
  openSession,
  openShopSession,
  type PunchOutSession,
  SESSION_COOKIE,
  SESSION_SECONDS,
  type SessionKeys,
  saveCart,
  sessionOf,
} from "../sessions";
import { AUTO_SUBMIT, autoSubmitSource, Html, html, page } from "./html";
import { punchOutOrderMessage } from "./order-message";

/**
 * The PunchOut shop (docs/api.md, "Procurement systems (cXML)"): server-rendered pages that search the catalog with facets,
 * show a product's prices for the connection's requester and facility (contract prices first), keep a cart, put a scanned
 * UDI label's product in it, and transfer it to the suite as a PunchOutOrderMessage. Every catalog read goes through the
 * customer API with the session's token, as any integrator's would.
 */

export const SHOP_BASE = "/punchout";
const PAGE_SIZE = 20;

interface Option {
  priceOptionId: string;
  price: number;
  condition: string;
  warranty: string;
  purchaseType: string;
  vendorName: string;
  leadTimeDays: number;
  priceSource: "list" | "contract";
  unitOfMeasure: string;
  customFields: { fieldId: string; prompt: string; isRequired: boolean; errorMessage: string }[];
}
interface Product {
  id: string;
  partNumber: string;
  title: string;
  description: string;
  manufacturer: string;
}

function securityHeaders(formAction = "'self'", script = "") {
  return {
    "Content-Type": "text/html; charset=UTF-8",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors https:${script ? `; script-src ${script}` : ""}`,
  };
}

const htmlPage = (status: number, text: string, headers = securityHeaders()) =>
  new Response(text, { status, headers: headers as Record<string, string> });

const ended = () =>
  htmlPage(
    401,
    page(
      { title: "Session ended", readOnly: true },
      html`<h1>Your PunchOut session has ended</h1><p>Return to your procurement system and open Medparts from there again.</p>`,
    ),
  );

const unavailable = () =>
  htmlPage(
    503,
    page({ title: "Unavailable", readOnly: true }, html`<h1>Medparts is briefly unavailable</h1><p>Reload the page in a moment.</p>`),
  );

type SessionHandler<T> = (c: Context<AppEnv>, session: PunchOutSession, prefetched: T) => Promise<Response>;

/**
 * A shop page: the session the cookie opens (or a page saying it ended); a POST only from the shop's own pages.
 * `prefetch` (a page's API call) runs at the same time as the read of the session's cart.
 */
const withSession =
  <T = undefined>(handler: SessionHandler<T>, prefetch?: (c: Context<AppEnv>, session: SessionKeys) => Promise<T>) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    if (c.req.method === "POST" && !fromOwnPages(c)) {
      return htmlPage(403, page({ title: "Refused", readOnly: true }, html`<h1>This form was not sent from the Medparts shop</h1>`));
    }
    const opened = await openShopSession(c.env.DB, getCookie(c, SESSION_COOKIE));
    if (!opened) return ended();
    try {
      const [cart, prefetched] = await Promise.all([opened.cart, prefetch ? prefetch(c, opened.keys) : (undefined as T)]);
      if (cart === null) return ended();
      return await handler(c, { ...opened.keys, cart }, prefetched);
    } catch (err) {
      if (err instanceof ApiUnavailable) return unavailable();
      throw err;
    }
  };

const api = <T>(c: Context<AppEnv>, session: SessionKeys, method: "GET" | "POST", path: string, body?: unknown) =>
  callApi<T>(apiOf(c.env), session.token, method, path, body);

/** An API answer the page cannot use: the session's token expired (401), or the API is down. */
function checked<T>(answer: { status: number; body: T }): T {
  if (answer.status === 401) throw new SessionEnded();
  if (answer.status >= 500 || answer.status === 429) throw new ApiUnavailable(`the API answered ${answer.status}`);
  return answer.body;
}
class SessionEnded extends Error {}

const money = (amount: number | string) => `$${amountText(amount)}`;
const lines = (cart: CartLine[]) => cart.length;

interface SearchAnswer {
  data: {
    items: { id: string; displayPartNumber: string; description: string; oem: string }[];
    pagination: { total: number; hasMore: boolean };
    facets: { field: string; values: { value: string; count: number }[] }[];
  };
}

function searchParams(c: Context<AppEnv>) {
  return {
    query: (c.req.query("q") ?? "").slice(0, 200),
    manufacturer: c.req.queries("manufacturer")?.slice(0, 10) ?? [],
    category: c.req.queries("category")?.slice(0, 10) ?? [],
    offset: Math.max(0, Math.min(10_000, Number.parseInt(c.req.query("offset") ?? "0", 10) || 0)),
  };
}

function fetchSearch(c: Context<AppEnv>, session: SessionKeys) {
  const { query, manufacturer, category, offset } = searchParams(c);
  const facets = [
    ...(manufacturer.length ? [{ field: "manufacturer", values: manufacturer }] : []),
    ...(category.length ? [{ field: "category", values: category }] : []),
  ];
  return api<SearchAnswer>(c, session, "POST", "/catalog/search", {
    filters: { query: query || null, facets },
    pagination: { limit: PAGE_SIZE, offset },
    facilityId: session.facilityId,
    requesterId: session.requesterId,
  });
}

async function searchPage(c: Context<AppEnv>, session: PunchOutSession, answer: ApiAnswer<SearchAnswer>): Promise<Response> {
  const { query, manufacturer, category, offset } = searchParams(c);
  if (answer.status === 400) {
    return htmlPage(
      400,
      page({ title: "Search", cartCount: lines(session.cart), notice: { text: "That search could not be read.", error: true } }, html``),
    );
  }
  const { items, pagination, facets: counts } = checked(answer).data;
  const link = (changes: Record<string, string | string[] | null>) => {
    const params = new URLSearchParams();
    if (query) params.set("q", query);
    for (const value of manufacturer) params.append("manufacturer", value);
    for (const value of category) params.append("category", value);
    for (const [key, value] of Object.entries(changes)) {
      params.delete(key);
      for (const one of value === null ? [] : Array.isArray(value) ? value : [value]) params.append(key, one);
    }
    return `/punchout/shop?${params}`;
  };
  const chosen = { manufacturer, category } as Record<string, string[]>;
  const facetBlock = counts.map(
    (facet) =>
      html`<section aria-labelledby="facet-${facet.field}"><h2 id="facet-${facet.field}">${facet.field === "manufacturer" ? "Manufacturer" : "Category"}</h2><ul>${facet.values
        .slice(0, 12)
        .map((value) => {
          const selected = chosen[facet.field]?.includes(value.value) ?? false;
          const next = selected ? chosen[facet.field]!.filter((v) => v !== value.value) : [...(chosen[facet.field] ?? []), value.value];
          return html`<li><a href="${link({ [facet.field]: next, offset: null })}" ${selected ? new Html(' aria-current="true"') : ""}>${selected ? html`<span aria-hidden="true">✓ </span><span class="skip">Selected: </span>` : ""}${value.value} (${value.count})</a></li>`;
        })}</ul></section>`,
  );
  const results = items.length
    ? html`<table><caption>${pagination.total} ${pagination.total === 1 ? "part" : "parts"}</caption><thead><tr><th scope="col">Part number</th><th scope="col">Description</th><th scope="col">Manufacturer</th></tr></thead><tbody>${items.map(
        (item) =>
          html`<tr><td><a href="/punchout/shop/products/${encodeURIComponent(item.id)}">${item.displayPartNumber}</a></td><td>${item.description}</td><td>${item.oem}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No parts match.</p>`;
  const pager = html`<nav aria-label="Pages">${offset > 0 ? html`<a href="${link({ offset: String(Math.max(0, offset - PAGE_SIZE)) })}">Previous</a> ` : ""}${
    pagination.hasMore ? html`<a href="${link({ offset: String(offset + PAGE_SIZE) })}">Next</a>` : ""
  }</nav>`;
  return htmlPage(
    200,
    page(
      {
        title: query ? `Search: ${query}` : "Catalog",
        cartCount: lines(session.cart),
        readOnly: session.operation === "inspect",
        notice: noticeOf(c),
      },
      html`<h1>${query ? `Parts matching “${query}”` : "Catalog"}</h1><div class="facets">${facetBlock}</div>${results}${pager}`,
    ),
  );
}

const NOTICES: Record<string, { text: string; error?: boolean }> = {
  added: { text: "Added to the cart." },
  updated: { text: "Cart updated." },
  unresolved: { text: "That label names no part Medparts offers you.", error: true },
  "no-price": { text: "That part has no price for your facility.", error: true },
  full: { text: `The cart is full (${MAX_CART_LINES} lines).`, error: true },
  invalid: { text: "That could not be added: check the quantity.", error: true },
};
const noticeOf = (c: Context<AppEnv>) => NOTICES[c.req.query("notice") ?? ""] ?? null;

/** Options in the order a buyer chooses: contract prices first, then the lowest price. */
const byPreference = (a: Option, b: Option) =>
  (a.priceSource === "contract" ? 0 : 1) - (b.priceSource === "contract" ? 0 : 1) ||
  (amountCents(a.price) ?? 0) - (amountCents(b.price) ?? 0);

interface DetailAnswer {
  data: { product: Product; options: Option[] };
}

const fetchDetail = (c: Context<AppEnv>, session: SessionKeys) =>
  api<DetailAnswer>(c, session, "POST", "/catalog/detail", {
    productId: c.req.param("productId") ?? "",
    facilityId: session.facilityId,
    requesterId: session.requesterId,
  });

async function productPage(c: Context<AppEnv>, session: PunchOutSession, answer: ApiAnswer<DetailAnswer>): Promise<Response> {
  if (answer.status === 404 || answer.status === 400) {
    return htmlPage(404, page({ title: "Not found", cartCount: lines(session.cart) }, html`<h1>No such part</h1>`));
  }
  const { product, options } = checked(answer).data;
  const readOnly = session.operation === "inspect";
  const rows = [...options]
    .sort(byPreference)
    .map(
      (option, i) =>
        html`<tr><td>${money(option.price)}${option.priceSource === "contract" ? html` <strong>contract</strong>` : ""}</td><td>${option.condition}</td><td>${option.purchaseType}</td><td>${option.warranty}</td><td>${option.vendorName}</td><td>${option.leadTimeDays} days</td><td>${
          readOnly
            ? ""
            : html`<form class="inline" action="/punchout/shop/cart" method="post"><input type="hidden" name="priceOptionId" value="${option.priceOptionId}"><input type="hidden" name="productId" value="${product.id}"><input type="hidden" name="description" value="${product.title}"><input type="hidden" name="manufacturerName" value="${product.manufacturer}"><input type="hidden" name="manufacturerPartId" value="${product.partNumber}"><input type="hidden" name="unitOfMeasure" value="${option.unitOfMeasure}"><input type="hidden" name="leadTimeDays" value="${option.leadTimeDays}"><input type="hidden" name="purchaseType" value="${option.purchaseType}">${option.customFields.map(
                (field, j) =>
                  html`<label for="field-${i}-${j}">${field.prompt}</label><input id="field-${i}-${j}" name="field:${field.fieldId}" maxlength="500" ${field.isRequired ? new Html("required") : ""} title="${field.errorMessage}"> `,
              )}<label for="qty-${i}">Quantity</label><input id="qty-${i}" name="quantity" type="number" min="1" max="9999" value="1" required> <button type="submit">Add to cart</button></form>`
        }</td></tr>`,
    );
  return htmlPage(
    200,
    page(
      { title: product.title, cartCount: lines(session.cart), readOnly, notice: noticeOf(c) },
      html`<h1>${product.title}</h1><p>${product.manufacturer} · ${product.partNumber}</p><p>${product.description}</p>${
        options.length
          ? html`<table><caption>Prices for your facility</caption><thead><tr><th scope="col">Unit price</th><th scope="col">Condition</th><th scope="col">Purchase</th><th scope="col">Warranty</th><th scope="col">Vendor</th><th scope="col">Lead time</th><th scope="col"><span class="skip">Add</span></th></tr></thead><tbody>${rows}</tbody></table>`
          : html`<p>No prices for your facility.</p>`
      }`,
    ),
  );
}

/**
 * An edit reopens a cart whose quotes the order it became has already used (a quote is ordered once): each line gets a
 * fresh quote of the same offer revision, at the price quoted now, so that the suite's change order (type="update") of
 * the transferred cart can be placed. A line whose offer no longer has an option keeps its quote, and the order names it.
 */
async function requoted(c: Context<AppEnv>, session: PunchOutSession): Promise<CartLine[]> {
  return Promise.all(
    session.cart.map(async (line) => {
      const offerId = readUnverifiedPriceOption(line.priceOptionId)?.offerId;
      const answer = await api<DetailAnswer>(c, session, "POST", "/catalog/detail", {
        productId: line.productId,
        facilityId: session.facilityId,
        requesterId: session.requesterId,
      });
      if (answer.status !== 200 || offerId === undefined) return line;
      const fresh = answer.body.data.options
        .map((option) => ({ option, terms: readUnverifiedPriceOption(option.priceOptionId) }))
        .find(({ terms }) => terms?.offerId === offerId);
      return fresh ? { ...line, priceOptionId: fresh.option.priceOptionId, unitPriceCents: fresh.terms!.priceCents } : line;
    }),
  );
}

const redirect = (to: string) => new Response(null, { status: 303, headers: { Location: to, "Cache-Control": "no-store" } });

function cartLineFromForm(form: FormData): CartLine | null {
  const text = (name: string, max: number) => {
    const value = form.get(name);
    return typeof value === "string" && value.length <= max ? value.trim() : null;
  };
  const priceOptionId = text("priceOptionId", 200);
  const productId = text("productId", 64);
  const quantity = Number(text("quantity", 4));
  const terms = priceOptionId ? readUnverifiedPriceOption(priceOptionId) : null;
  if (!terms || !productId || !Number.isInteger(quantity) || quantity < 1 || quantity > 9999) return null;
  const lead = Number(text("leadTimeDays", 4));
  const requiredFields: CartLine["requiredFields"] = [];
  for (const [name, value] of form.entries()) {
    if (!name.startsWith("field:") || typeof value !== "string" || requiredFields.length >= 20) continue;
    const fieldId = name.slice("field:".length);
    if (fieldId.length > 100 || value.length > 500) return null;
    if (value.trim()) requiredFields.push({ fieldId, value: value.trim() });
  }
  return {
    priceOptionId: priceOptionId!,
    productId,
    quantity,
    // The price the quote says (an order is held to it whatever the form says).
    unitPriceCents: terms.priceCents,
    description: text("description", 500) ?? "",
    manufacturerName: text("manufacturerName", 200) ?? "",
    manufacturerPartId: text("manufacturerPartId", 100) ?? "",
    unitOfMeasure: text("unitOfMeasure", 3) ?? "EA",
    leadTimeDays: Number.isInteger(lead) && lead >= 0 ? lead : null,
    purchaseType: text("purchaseType", 20) ?? "buy",
    requiredFields,
  };
}

/** The cart with a line added: the same quote again adds to its quantity. */
function withLine(cart: CartLine[], line: CartLine): CartLine[] | "full" {
  const same = cart.find((existing) => existing.priceOptionId === line.priceOptionId);
  if (same)
    return cart.map((existing) =>
      existing === same ? { ...existing, quantity: Math.min(9999, existing.quantity + line.quantity) } : existing,
    );
  return cart.length >= MAX_CART_LINES ? "full" : [...cart, line];
}

async function addToCart(c: Context<AppEnv>, session: PunchOutSession): Promise<Response> {
  if (session.operation === "inspect") return redirect("/punchout/shop/cart");
  const line = cartLineFromForm(await c.req.formData());
  if (!line) return redirect("/punchout/shop/cart?notice=invalid");
  const cart = withLine(session.cart, line);
  if (cart === "full") return redirect("/punchout/shop/cart?notice=full");
  await saveCart(c.env.DB, session.id, cart);
  return redirect("/punchout/shop/cart?notice=added");
}

/** The keyboard-wedge scan: the label through the resolve route's parser, its product's preferred price into the cart. */
async function scan(c: Context<AppEnv>, session: PunchOutSession): Promise<Response> {
  if (session.operation === "inspect") return redirect("/punchout/shop/cart");
  const code = String((await c.req.formData()).get("code") ?? "").slice(0, 512);
  if (!code.trim()) return redirect("/punchout/shop/cart?notice=unresolved");
  const answer = await api<{
    data: { results: { status: string; product: Product | null; priceOptions: Option[] | null; packaging: { quantity: number } | null }[] };
  }>(c, session, "POST", "/catalog/resolve", { codes: [code], facilityId: session.facilityId, requesterId: session.requesterId });
  if (answer.status === 400) return redirect("/punchout/shop/cart?notice=unresolved");
  const result = checked(answer).data.results[0];
  if (result?.status !== "resolved" || !result.product) return redirect("/punchout/shop/cart?notice=unresolved");
  const option = [...(result.priceOptions ?? [])].filter((o) => !o.customFields.some((field) => field.isRequired)).sort(byPreference)[0];
  if (!option) return redirect(`/punchout/shop/products/${encodeURIComponent(result.product.id)}?notice=no-price`);
  const cart = withLine(session.cart, {
    priceOptionId: option.priceOptionId,
    productId: result.product.id,
    quantity: 1,
    unitPriceCents: readUnverifiedPriceOption(option.priceOptionId)?.priceCents ?? amountCents(option.price) ?? 0,
    description: result.product.title,
    manufacturerName: result.product.manufacturer,
    manufacturerPartId: result.product.partNumber,
    unitOfMeasure: option.unitOfMeasure,
    leadTimeDays: option.leadTimeDays,
    purchaseType: option.purchaseType,
    requiredFields: [],
  });
  if (cart === "full") return redirect("/punchout/shop/cart?notice=full");
  await saveCart(c.env.DB, session.id, cart);
  return redirect("/punchout/shop/cart?notice=added");
}

async function cartPage(c: Context<AppEnv>, session: PunchOutSession): Promise<Response> {
  const readOnly = session.operation === "inspect";
  const total = session.cart.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const rows = session.cart.map(
    (line, i) =>
      html`<tr><td><a href="/punchout/shop/products/${encodeURIComponent(line.productId)}">${line.manufacturerPartId || line.productId}</a></td><td>${line.description}</td><td>${money(centsToText(line.unitPriceCents))}</td><td>${
        readOnly
          ? line.quantity
          : html`<label class="skip" for="line-${i}">Quantity of ${line.description || line.productId}</label><input id="line-${i}" form="update" name="quantity" type="number" min="0" max="9999" value="${line.quantity}">`
      }</td><td>${money(centsToText(line.unitPriceCents * line.quantity))}</td></tr>`,
  );
  const body = session.cart.length
    ? html`<table><caption>Cart</caption><thead><tr><th scope="col">Part</th><th scope="col">Description</th><th scope="col">Unit price</th><th scope="col">Quantity</th><th scope="col">Amount</th></tr></thead><tbody>${rows}</tbody><tfoot><tr><th scope="row" colspan="4">Total</th><td>${money(centsToText(total))}</td></tr></tfoot></table>${
        readOnly
          ? ""
          : html`<form id="update" action="/punchout/shop/cart/update" method="post"><p>Set a quantity to 0 to remove the line. <button type="submit">Update cart</button></p></form>`
      }`
    : html`<p>The cart is empty: search the catalog or scan a label.</p>`;
  return htmlPage(
    200,
    page(
      { title: "Cart", cartCount: lines(session.cart), readOnly, notice: noticeOf(c) },
      html`<h1>Cart</h1>${body}<form action="/punchout/shop/transfer" method="post"><button type="submit">${readOnly ? "Return to procurement" : "Transfer cart"}</button></form>`,
    ),
  );
}

async function updateCart(c: Context<AppEnv>, session: PunchOutSession): Promise<Response> {
  if (session.operation === "inspect") return redirect("/punchout/shop/cart");
  const quantities = (await c.req.formData()).getAll("quantity").map((value) => Number(value));
  if (quantities.length !== session.cart.length || quantities.some((q) => !Number.isInteger(q) || q < 0 || q > 9999)) {
    return redirect("/punchout/shop/cart?notice=invalid");
  }
  const cart = session.cart.map((line, i) => ({ ...line, quantity: quantities[i]! })).filter((line) => line.quantity > 0);
  await saveCart(c.env.DB, session.id, cart);
  return redirect("/punchout/shop/cart?notice=updated");
}

/** Transfer: the PunchOutOrderMessage in the cxml-urlencoded field, posted to the suite by the browser; the session ends. */
async function transfer(c: Context<AppEnv>, session: PunchOutSession): Promise<Response> {
  const connection = await readConnection(c.env.DB, session.connectionId);
  if (!connection) return ended();
  const message = punchOutOrderMessage({ connection, buyerCookie: session.buyerCookie, operation: session.operation, cart: session.cart });
  await endSession(c.env.DB, session.id, getCookie(c, SESSION_COOKIE) ?? "");
  const target = new URL(session.formPostUrl);
  const content = html`<h1>Returning your cart to your procurement system</h1><form id="transfer" action="${session.formPostUrl}" method="post"><input type="hidden" name="cxml-urlencoded" value="${message}"><p>${session.cart.length} ${session.cart.length === 1 ? "line" : "lines"}. If nothing happens, <button type="submit">Continue</button></p></form><script>${new Html(AUTO_SUBMIT)}</script>`;
  return htmlPage(
    200,
    page({ title: "Transfer", readOnly: true, cartCount: session.cart.length }, content),
    securityHeaders(target.origin, await autoSubmitSource()),
  );
}

export const shopRoutes = new Hono<AppEnv>()
  .get("/start/:code", async (c) => {
    const opened = await openSession(c.env.DB, c.req.param("code"));
    if (!opened) {
      return htmlPage(
        410,
        page(
          { title: "Link used", readOnly: true },
          html`<h1>This PunchOut link has expired or was already used</h1><p>Return to your procurement system and open Medparts again.</p>`,
        ),
      );
    }
    setCookie(c, SESSION_COOKIE, opened.cookie, {
      path: SHOP_BASE,
      httpOnly: true,
      secure: true,
      sameSite: "None",
      partitioned: true,
      maxAge: SESSION_SECONDS,
    });
    if (opened.operation === "edit") {
      const session = await sessionOf(c.env.DB, opened.cookie);
      if (session && session.cart.length > 0) await saveCart(c.env.DB, session.id, await requoted(c, session));
    }
    return c.redirect(opened.operation === "create" ? "/punchout/shop" : "/punchout/shop/cart", 303);
  })
  .get("/shop", withSession(searchPage, fetchSearch))
  .get("/shop/products/:productId", withSession(productPage, fetchDetail))
  .get("/shop/cart", withSession(cartPage))
  .post("/shop/cart", withSession(addToCart))
  .post("/shop/cart/update", withSession(updateCart))
  .post("/shop/scan", withSession(scan))
  .post("/shop/transfer", withSession(transfer))
  .onError((err, c) => {
    if (err instanceof SessionEnded) return ended();
    console.error(
      JSON.stringify({ message: "punchout.failed", path: c.req.path, error: err instanceof Error ? err.message : String(err) }),
    );
    return unavailable();
  });
