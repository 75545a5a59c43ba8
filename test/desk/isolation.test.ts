import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { deskRoutes } from "../../src/operator/desk/routes";
import { call, json, TENANT_A, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { csrfOf, desk, deskForm, deskSession } from "../helpers/desk";
import { invoiceBody } from "../helpers/invoices";
import { EXCHANGE, optionWith, orderOf, RETURNS_VENDOR, returnsOf, shipLine } from "../helpers/returns";
import { vendorCall } from "../helpers/vendors";

/**
 * THE desk's vendor isolation matrix: every route of the desk (deskRoutes) has a row, or the test fails. The victim is
 * RETURNS_VENDOR, with an order whose line shipped, a core on its way back, an invoice and a desk user; the attacker is
 * another vendor's signed-in admin, with a valid session and CSRF token. Each row sends the victim's id where the
 * attacker's own belongs: the answer is a 404 (the same as an unknown id) that shows nothing of the victim, and the
 * victim's data is unchanged afterwards. Rows with no vendor's id in them say why.
 */

interface Victim {
  orderNumber: string;
  lineId: number;
  returnId: number;
  invoiceId: number;
  userId: number;
  sku: string;
  jobId: string;
}

type Row =
  | { kind: "denied"; request: (v: Victim) => { path: string; form?: Record<string, string> } }
  | { kind: "own-only"; check: (v: Victim, session: string, csrf: string) => Promise<void> }
  | { kind: "no-vendor-id"; why: string };

const denied = (path: (v: Victim) => string, form?: Record<string, string>): Row => ({
  kind: "denied",
  request: (v) => ({ path: path(v), ...(form ? { form } : {}) }),
});

const MATRIX: Record<string, Row> = {
  "GET /": {
    kind: "own-only",
    check: async (v, session) => {
      const page = await desk("/desk?status=Shipped", { cookie: session });
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain(v.orderNumber);
    },
  },
  "GET /counts": { kind: "no-vendor-id", why: "the signed-in vendor's own counts; no id is taken" },
  "GET /lines/:lineId{[0-9]{1,12}}": denied((v) => `/desk/lines/${v.lineId}`),
  "POST /lines/:lineId{[0-9]{1,12}}/confirm": denied((v) => `/desk/lines/${v.lineId}/confirm`, { code: "IA" }),
  "POST /lines/:lineId{[0-9]{1,12}}/:action{acknowledge|backorder|reject|ship}": denied((v) => `/desk/lines/${v.lineId}/ship`, {
    trackingNumber: "1ZINTRUDER",
  }),
  "GET /orders/:orderNumber{[A-Za-z0-9-]{1,64}}": denied((v) => `/desk/orders/${v.orderNumber}`),
  "POST /orders/:orderNumber{[A-Za-z0-9-]{1,64}}/invoice": denied((v) => `/desk/orders/${v.orderNumber}/invoice`, {
    invoiceNumber: "INV-INTRUDER",
  }),
  "POST /orders/:orderNumber{[A-Za-z0-9-]{1,64}}/ship": denied((v) => `/desk/orders/${v.orderNumber}/ship`, {
    trackingNumber: "1ZINTRUDER",
  }),
  "GET /invoices/:invoiceId{[0-9]{1,12}}": denied((v) => `/desk/invoices/${v.invoiceId}`),
  "POST /invoices/:invoiceId{[0-9]{1,12}}/credit-memo": denied((v) => `/desk/invoices/${v.invoiceId}/credit-memo`, {
    creditMemoNumber: "CM-INTRUDER",
    whole: "on",
  }),
  "POST /returns/:returnId{[0-9]{1,12}}/:step{authorize|decline|receive|diagnose|send-back}": denied(
    (v) => `/desk/returns/${v.returnId}/receive`,
    { outcome: "refused", reason: "Intruder" },
  ),
  "GET /users": {
    kind: "own-only",
    check: async (v, session) =>
      expect(await (await desk("/desk/users", { cookie: session })).text()).not.toContain(`/desk/users/${v.userId}/`),
  },
  "POST /users": {
    kind: "own-only",
    check: async (_v, session, csrf) => {
      const invited = await deskForm("/desk/users", session, {
        _csrf: csrf,
        email: `new-${crypto.randomUUID().slice(0, 6)}@attacker.example`,
        displayName: "New",
        role: "desk",
      });
      expect(invited.status).toBe(201);
      // The invitation is the attacker's vendor's: its user shows on the attacker's own page.
      expect(await (await desk("/desk/users", { cookie: session })).text()).toContain("@attacker.example");
    },
  },
  "POST /users/:userId{[0-9]{1,12}}/:action{disable|enable}": denied((v) => `/desk/users/${v.userId}/disable`),
  "GET /offers": {
    kind: "own-only",
    check: async (v, session) => expect(await (await desk("/desk/offers", { cookie: session })).text()).not.toContain(v.sku),
  },
  "GET /offers/:sku{[A-Za-z0-9][A-Za-z0-9._-]{0,63}}": denied((v) => `/desk/offers/${v.sku}`),
  "POST /offers/:sku{[A-Za-z0-9][A-Za-z0-9._-]{0,63}}": denied((v) => `/desk/offers/${v.sku}`, {
    price: "1.00",
    leadTimeDays: "1",
    condition: "Intruder",
    warranty: "None",
  }),
  "POST /offers/:sku{[A-Za-z0-9][A-Za-z0-9._-]{0,63}}/withdraw": denied((v) => `/desk/offers/${v.sku}/withdraw`),
  "GET /price-files": {
    kind: "own-only",
    check: async (v, session) => expect(await (await desk("/desk/price-files", { cookie: session })).text()).not.toContain(v.jobId),
  },
  "POST /price-files": { kind: "no-vendor-id", why: "makes a price file job of the caller's own vendor (test/desk/offers.test.ts)" },
  "GET /price-files/:jobId{imp_[A-Za-z0-9]{20}}": denied((v) => `/desk/price-files/${v.jobId}`),
  "GET /price-files/:jobId{imp_[A-Za-z0-9]{20}}/progress": denied((v) => `/desk/price-files/${v.jobId}/progress`),
  "GET /assets/desk.css": { kind: "no-vendor-id", why: "a static asset" },
  "GET /assets/desk.js": { kind: "no-vendor-id", why: "a static asset" },
  "GET /sign-in": { kind: "no-vendor-id", why: "the sign-in page, the same for everyone" },
  "GET /invitations/:token": { kind: "no-vendor-id", why: "a 256-bit secret token, not an id (test/desk/sign-in.test.ts)" },
  "POST /passkeys/registration-options": { kind: "no-vendor-id", why: "takes an invitation's secret token" },
  "POST /passkeys/registration": { kind: "no-vendor-id", why: "takes an invitation's secret token" },
  "POST /passkeys/authentication-options": { kind: "no-vendor-id", why: "a challenge, for anyone" },
  "POST /passkeys/authentication": { kind: "no-vendor-id", why: "a signed assertion: the passkey names its user" },
  "POST /sign-out": { kind: "no-vendor-id", why: "ends the caller's own session" },
  "POST /sign-out-everywhere": { kind: "no-vendor-id", why: "ends the caller's own user's sessions" },
};

/** The desk's routes as "METHOD path" (middleware excluded). */
const deskRouteKeys = () =>
  [...new Set(deskRoutes.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`))].sort();

describe("the desk's vendor isolation matrix", () => {
  it("has a row for every desk route", () => {
    expect(deskRouteKeys()).toEqual(Object.keys(MATRIX).sort());
  });

  it("another vendor's signed-in admin gets a 404 for each of the victim's ids, sees nothing, changes nothing", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    const buyer = await tokenFor(TENANT_A);
    expect(
      (
        await contractCall(buyer, `/returns/${core.returnId}/ship`, {
          method: "POST",
          json: { carrierName: "UPS", trackingNumber: "1ZMATRIX01" },
        })
      ).status,
    ).toBe(200);
    const invoiced = await vendorCall(RETURNS_VENDOR, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 1, unitPriceCents: 80_000 }]),
    });
    expect(invoiced.status).toBe(201);
    const vendorToken = await vendorTokenFor(RETURNS_VENDOR);
    const sku = `MATRIX-${crypto.randomUUID().slice(0, 8)}`;
    const offer = await call(vendorToken, `/vendor/api/offers/${sku}`, {
      method: "PUT",
      json: { productId: productId(5), condition: "New OEM", purchaseChoice: "Buy", warranty: "1 year", price: 42, leadTimeDays: 1 },
    });
    expect(offer.status).toBe(201);
    const job = await call(vendorToken, "/vendor/api/offer-imports", { method: "POST", json: { format: "csv" } });
    expect(job.status).toBe(201);
    const victimUser = await deskSession(RETURNS_VENDOR, "desk");
    const victim: Victim = {
      orderNumber,
      lineId,
      returnId: core.returnId,
      invoiceId: (await json(invoiced)).data.invoiceId,
      userId: victimUser.userId,
      sku,
      jobId: (await json(job)).data.id,
    };
    // The victim's own user reaches what the attacker is refused: the 404s are the vendor's doing.
    expect((await desk(`/desk/lines/${lineId}`, { cookie: victimUser.session })).status).toBe(200);
    expect((await desk(`/desk/invoices/${victim.invoiceId}`, { cookie: victimUser.session })).status).toBe(200);

    const attacker = await deskSession(2, "admin");
    const csrf = (await csrfOf(await desk("/desk", { cookie: attacker.session })))!;
    for (const [route, row] of Object.entries(MATRIX)) {
      if (row.kind === "own-only") await row.check(victim, attacker.session, csrf);
      if (row.kind !== "denied") continue;
      const { path, form } = row.request(victim);
      const res =
        form || route.startsWith("POST")
          ? await deskForm(path, attacker.session, { _csrf: csrf, ...form })
          : await desk(path, { cookie: attacker.session });
      const body = await res.text();
      expect([route, res.status]).toEqual([route, 404]);
      expect(body, route).not.toContain(orderNumber);
      expect(body, route).not.toContain(core.rmaNumber);
      expect(body, route).not.toContain("42.00");
    }

    const [after] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    expect(after).toMatchObject({ status: "shipped", open: true });
    const invoice = (await json(await contractCall(buyer, `/invoices/${victim.invoiceId}`))).data;
    expect(invoice.credited).toBe("0.00");
    expect((await json(await call(vendorToken, `/vendor/api/offers/${sku}`))).data).toMatchObject({ status: "active", price: 42 });
    expect((await desk("/desk", { cookie: victimUser.session })).status).toBe(200);
  });
});
