import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { forgetTokens } from "../../src/operator/procurement/api";
import { call, expectProblem, json, operatorTokenFor, TENANT_A, TENANT_B, testModeTokenFor, tokenFor } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
import { issueQuote, JSMITH, KJOHNSON, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";
import { testVars } from "../helpers/platform";
import {
  connect,
  connectionMapping,
  find,
  orderRequest,
  postCxml,
  profileRequest,
  requestDocument,
  SUPPLIER,
  setupRequest,
} from "../helpers/procurement";
import { testQuote } from "../helpers/sandbox";

const admin = async (path: string, init: { method?: string; json?: unknown } = {}) => call(await operatorTokenFor(), path, init);

const ordersOfPo = async (poNumber: string, token: string) => {
  const res = await call(token, `/orders/search?q=${encodeURIComponent(`poNumber:"${poNumber}"`)}`);
  expect(res.status).toBe(200);
  return (await json(res)).data.orders as { orderNumber: string; status: string; poNumber: string }[];
};

describe("procurement connections (admin API)", () => {
  it("makes a connection on a client of the tenant whose secret is the SharedSecret, shown once", async () => {
    const connection = await connect();
    const res = await admin(`/admin/api/procurement-connections/${connection.id}`);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({
      tenantId: TENANT_A,
      mode: "live",
      clientId: connection.clientId,
      enabled: true,
      buyerIdentities: [connection.buyer],
      supplierIdentity: SUPPLIER,
      facilityId: JSMITH.facilityId,
    });
    expect(JSON.stringify(body)).not.toContain(connection.secret);
    const client = await env.DB.prepare("SELECT tenant_id, scopes, secret_hash FROM api_clients WHERE client_id = ?")
      .bind(connection.clientId)
      .first<{ tenant_id: number; scopes: string; secret_hash: string }>();
    expect(client).toMatchObject({ tenant_id: TENANT_A, scopes: "users:read catalog:read orders:read orders:write" });
    expect(client!.secret_hash).not.toContain(connection.secret);
    const listed = await json(await admin(`/admin/api/procurement-connections?tenantId=${TENANT_A}&limit=100`));
    expect(listed.data.items.map((item: { id: number }) => item.id)).toContain(connection.id);
  });

  it("refuses another tenant's facility, requester or addresses, and an identity another connection holds (422, nothing made)", async () => {
    const taken = await connect();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM procurement_connections").first<{ n: number }>();
    const res = await admin("/admin/api/procurement-connections", {
      method: "POST",
      json: {
        tenantId: TENANT_A,
        name: "Wrong",
        buyerIdentities: [taken.buyer],
        supplierIdentity: SUPPLIER,
        facilityId: KJOHNSON.facilityId,
        requesterId: KJOHNSON.requesterContactId,
        userId: KJOHNSON.userId,
        shipToAddressId: KJOHNSON.shippingAddressId,
        billToAddressId: JSMITH.shippingAddressId,
      },
    });
    const problem = await expectProblem(res, 422);
    const text = JSON.stringify(problem.errors);
    for (const field of ["facilityId", "requesterId", "userId", "shipToAddresses", "billToAddressId", "buyerIdentities"]) {
      expect(text).toContain(field);
    }
    const after = await env.DB.prepare("SELECT count(*) AS n FROM procurement_connections").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("refuses the same buyer credential twice in one connection (400 naming buyerIdentities)", async () => {
    const res = await admin("/admin/api/procurement-connections", {
      method: "POST",
      json: {
        tenantId: TENANT_A,
        ...connectionMapping({ domain: "NetworkID", identity: "AN-TWICE" }),
        buyerIdentities: [
          { domain: "NetworkID", identity: "AN-TWICE" },
          { domain: "networkid", identity: "an-twice" },
        ],
      },
    });
    expect((await expectProblem(res, 400)).errors).toHaveProperty("buyerIdentities");
  });

  it("refuses a document URL that is not https to a public host (400 naming documentUrl)", async () => {
    const res = await admin("/admin/api/procurement-connections", {
      method: "POST",
      json: {
        tenantId: TENANT_A,
        name: "Bad URL",
        buyerIdentities: [{ domain: "NetworkID", identity: "AN-BAD-URL" }],
        supplierIdentity: SUPPLIER,
        facilityId: JSMITH.facilityId,
        requesterId: JSMITH.requesterContactId,
        userId: JSMITH.userId,
        shipToAddressId: JSMITH.shippingAddressId,
        billToAddressId: JSMITH.billingAddressId,
        documentUrl: "http://10.0.0.1/cxml",
      },
    });
    expect((await expectProblem(res, 400)).errors).toHaveProperty("documentUrl");
  });

  it("replaces the mapping with PUT; a buyer tenant's token cannot reach these routes", async () => {
    const connection = await connect();
    const replaced = await admin(`/admin/api/procurement-connections/${connection.id}`, {
      method: "PUT",
      json: {
        name: "Renamed",
        buyerIdentities: [connection.buyer, { domain: "DUNS", identity: `DUNS-${connection.id}` }],
        supplierIdentity: SUPPLIER,
        facilityId: JSMITH.facilityId,
        requesterId: JSMITH.requesterContactId,
        userId: JSMITH.userId,
        shipToAddressId: JSMITH.shippingAddressId,
        shipToAddresses: [{ code: "DOCK-1", addressId: JSMITH.shippingAddressId }],
        billToAddressId: JSMITH.billingAddressId,
      },
    });
    expect(replaced.status).toBe(200);
    const view = (await json(replaced)).data;
    expect(view).toMatchObject({ name: "Renamed", shipToAddresses: [{ code: "DOCK-1", addressId: JSMITH.shippingAddressId }] });
    expect(view.buyerIdentities).toHaveLength(2);
    const buyer = await call(await tokenFor(TENANT_A), `/admin/api/procurement-connections/${connection.id}`);
    expect(buyer.status).toBe(401);
  });
});

describe("the cXML endpoint: authentication and ProfileRequest", () => {
  it("answers a ProfileRequest with the transactions it accepts, all at /cxml", async () => {
    const connection = await connect();
    const answer = await postCxml(requestDocument(connection, profileRequest()));
    expect([answer.http, answer.code]).toEqual([200, 200]);
    const transactions = find(answer.root, "Response", "ProfileResponse")!.children.filter((child) => child.name === "Transaction");
    expect(transactions.map((t) => t.attributes.requestName)).toEqual(["ProfileRequest", "PunchOutSetupRequest", "OrderRequest"]);
    expect(transactions.every((t) => t.children[0]!.text === "https://medparts.test/cxml")).toBe(true);
  });

  it("is 401 for a wrong secret, an unknown identity, another supplier in To, a disabled client, or test credentials in production", async () => {
    const connection = await connect();
    const test = await connect(JSMITH, { mode: "test" });
    const cases = [
      requestDocument(connection, profileRequest(), { secret: "wrong" }),
      requestDocument({ ...connection, buyer: { domain: "NetworkID", identity: "AN-NOBODY" } }, profileRequest()),
      requestDocument(connection, profileRequest(), { to: "AN-SOMEONE-ELSE" }),
      requestDocument({ ...test, mode: "live" }, profileRequest()),
    ];
    for (const document of cases) {
      const answer = await postCxml(document);
      expect([answer.http, answer.code]).toEqual([200, 401]);
    }
    expect((await postCxml(requestDocument(test, profileRequest()))).code).toBe(200);
    const disabled = await admin(`/admin/api/clients/${connection.clientId}/disable`, { method: "POST" });
    expect(disabled.status).toBe(200);
    forgetTokens();
    expect((await postCxml(requestDocument(connection, profileRequest()))).code).toBe(401);
  });

  it("is 406 for a document Medparts does not receive, 400 for one that is not cXML", async () => {
    const connection = await connect();
    const catalog = await postCxml(requestDocument(connection, "<CatalogUploadRequest/>"));
    expect(catalog.code).toBe(406);
    expect(catalog.text).toContain("/cXML/Request/CatalogUploadRequest");
    const notCxml = await postCxml("<?xml version='1.0'?><html/>");
    expect(notCxml.code).toBe(400);
    const broken = await postCxml("<cXML><Header></cXML>");
    expect(broken.code).toBe(400);
  });
});

describe("OrderRequest", () => {
  it("becomes an order held to its quotes, with the orderID as PO number, and a resent document answers the same order", async () => {
    const connection = await connect();
    const quote = await issueQuote(productId(3), JSMITH, withoutFields);
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const line = { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 2, price: quote.price.toFixed(2) };
    const document = requestDocument(connection, orderRequest(orderId, [line]));
    const first = await postCxml(document);
    expect([first.http, first.code], first.text).toEqual([200, 200]);
    const orderNumber = /order (\S+) for orderID/.exec(first.text)![1]!;
    const again = await postCxml(document);
    expect(again.text).toContain(orderNumber);
    const sameOrderNewPayload = await postCxml(requestDocument(connection, orderRequest(orderId, [line])));
    expect(sameOrderNewPayload.text).toContain(orderNumber);
    const orders = await ordersOfPo(orderId, await tokenFor(TENANT_A));
    expect(orders.map((order) => order.orderNumber)).toEqual([orderNumber]);
    const other = await postCxml(requestDocument(connection, orderRequest(orderId, [{ ...line, quantity: 3 }])));
    expect(other.code).toBe(409);
  });

  it("refuses the whole order naming each line without a Medparts quote, a price that is not the quote's, a currency, an unmapped ship-to", async () => {
    const connection = await connect();
    const quote = await issueQuote(productId(4), JSMITH, withoutFields);
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const unknown = await postCxml(
      requestDocument(
        connection,
        orderRequest(orderId, [
          { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2) },
          { productId: "SKU-FROM-ELSEWHERE", quantity: 1, price: "5.00" },
        ]),
      ),
    );
    expect(unknown.code).toBe(400);
    expect(unknown.text).toContain("ItemOut[2] (lineNumber 2)");
    expect(unknown.text).toContain("SupplierPartAuxiliaryID");
    const wrongPrice = await postCxml(
      requestDocument(
        connection,
        orderRequest(orderId, [{ productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: "0.01" }]),
      ),
    );
    expect(wrongPrice.code).toBe(400);
    expect(wrongPrice.text).toContain("ItemOut[1]");
    const euro = await postCxml(
      requestDocument(
        connection,
        orderRequest(orderId, [
          { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2), currency: "EUR" },
        ]),
      ),
    );
    expect(euro.code).toBe(400);
    expect(euro.text).toContain("EUR");
    const unmapped = await postCxml(
      requestDocument(
        connection,
        orderRequest(
          orderId,
          [{ productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2) }],
          {
            addressId: "NOWHERE",
          },
        ),
      ),
    );
    expect(unmapped.code).toBe(400);
    expect(unmapped.text).toContain("addressID");
    expect(await ordersOfPo(orderId, await tokenFor(TENANT_A))).toEqual([]);
  });

  it("delete cancels the orderID's orders this connection placed, no other; update places the new version, then cancels the old", async () => {
    const connection = await connect();
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const line = async (quantity: number) => {
      const quote = await issueQuote(productId(5), JSMITH, withoutFields);
      return { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity, price: quote.price.toFixed(2) };
    };
    // The same PO number on an order placed through the JSON API: never the suite's to cancel.
    const other = await placeOrder(
      orderBody([lineFor(await issueQuote(productId(5), JSMITH, withoutFields))], JSMITH, { poNumber: orderId }),
    );
    expect(other.status).toBe(201);
    const otherNumber = (await json(other)).data.orderNumber as string;
    expect((await postCxml(requestDocument(connection, orderRequest(orderId, [await line(1)])))).code).toBe(200);
    await backgroundSettled(); // what the connection placed is recorded off the answer's path
    const update = await postCxml(requestDocument(connection, orderRequest(orderId, [await line(4)], { type: "update" })));
    expect(update.code, update.text).toBe(200);
    await backgroundSettled();
    const token = await tokenFor(TENANT_A);
    const open = (await ordersOfPo(orderId, token)).filter((order) => order.status !== "Cancelled");
    const newVersion = /order (\S+) for orderID/.exec(update.text)![1]!;
    expect(open.map((order) => order.orderNumber).sort()).toEqual([otherNumber, newVersion].sort());
    const deleted = await postCxml(requestDocument(connection, orderRequest(orderId, [await line(4)], { type: "delete" })));
    expect(deleted.code, deleted.text).toBe(200);
    const after = await ordersOfPo(orderId, token);
    expect(after.filter((order) => order.status !== "Cancelled").map((order) => order.orderNumber)).toEqual([otherNumber]);
  });

  it("a rotated SharedSecret stops working once the gateway checks again (CLIENT_STATUS_CACHE_SECONDS), and the new one works", async () => {
    const connection = await connect();
    expect((await postCxml(requestDocument(connection, profileRequest()))).code).toBe(200);
    const rotated = await admin(`/admin/api/clients/${connection.clientId}/secrets`, {
      method: "POST",
      json: { previousExpiresInSeconds: 0 },
    });
    expect(rotated.status).toBe(201);
    const newSecret = (await json(rotated)).data.secret as string;
    const now = testVars({ CLIENT_STATUS_CACHE_SECONDS: 0 });
    expect((await postCxml(requestDocument(connection, profileRequest()), now)).code).toBe(401);
    expect((await postCxml(requestDocument({ ...connection, secret: newSecret }, profileRequest()), now)).code).toBe(200);
  });

  it("a test-mode connection's order belongs to the sandbox twin: live searches never see it", async () => {
    const connection = await connect(JSMITH, { mode: "test" });
    // Issued in test mode, as the connection's shop issues them: a price option belongs to its mode.
    const quote = await testQuote(productId(6));
    const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
    const answer = await postCxml(
      requestDocument(
        connection,
        orderRequest(orderId, [
          { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2) },
        ]),
      ),
    );
    expect(answer.code, answer.text).toBe(200);
    expect(await ordersOfPo(orderId, await tokenFor(TENANT_A))).toEqual([]);
    expect(await ordersOfPo(orderId, await testModeTokenFor(TENANT_A))).toHaveLength(1);
    expect(await ordersOfPo(orderId, await tokenFor(TENANT_B))).toEqual([]);
  });
});

describe("PunchOutSetupRequest", () => {
  it("answers a one-time StartPage; create, edit and inspect only", async () => {
    const connection = await connect();
    const answer = await postCxml(requestDocument(connection, setupRequest()));
    expect(answer.code, answer.text).toBe(200);
    const url = find(answer.root, "Response", "PunchOutSetupResponse", "StartPage", "URL")!.text;
    expect(url).toMatch(/^https:\/\/medparts\.test\/punchout\/start\/[A-Za-z0-9_-]{32}$/);
    const stored = await env.DB.prepare("SELECT start_hash, token_ciphertext FROM punchout_sessions ORDER BY id DESC LIMIT 1").first<{
      start_hash: string;
      token_ciphertext: string;
    }>();
    expect(stored!.start_hash).not.toContain(url.split("/").at(-1));
    expect(stored!.token_ciphertext).not.toMatch(/^ey/);
    const other = await postCxml(requestDocument(connection, setupRequest("source")));
    expect(other.code).toBe(406);
    const noForm = await postCxml(
      requestDocument(connection, '<PunchOutSetupRequest operation="create"><BuyerCookie>x</BuyerCookie></PunchOutSetupRequest>'),
    );
    expect(noForm.code).toBe(400);
    expect(noForm.text).toContain("BrowserFormPost");
  });
});
