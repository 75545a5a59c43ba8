import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, describe, test } from "node:test";
import { parseRetryAfter } from "../src/errors.js";
import {
  API_VERSION,
  ApiServerError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  constructEvent,
  IdempotencyConflictError,
  InvalidRequestError,
  Medparts,
  MedpartsError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SignatureVerificationError,
  signPayload,
  verifySignature,
} from "../src/index.js";
import { isResendable } from "../src/transport.js";
import { fakeMedparts, json, ok, problem } from "./fake-server.js";

const servers: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function setup(api: Parameters<typeof fakeMedparts>[0], options: Parameters<typeof fakeMedparts>[1] & { maxRetries?: number } = {}) {
  const server = await fakeMedparts(api, options);
  servers.push(server);
  const medparts = new Medparts({
    clientId: "client-1",
    clientSecret: "secret-1",
    baseUrl: server.url,
    maxRetries: options.maxRetries ?? 3,
    initialRetryDelayMs: 1,
    maxRetryDelayMs: 5,
  });
  return { server, medparts };
}

const orderBody = {
  requesterId: 50001,
  userId: 1,
  facilityId: 1001,
  shippingAddressId: 11,
  billingAddressId: 13,
  shippingMethod: "GROUND" as const,
  quoteItems: [{ priceOptionId: "po_1", productId: "MP-0000003", quantity: 2, price: "123.45" }],
};

describe("auth and headers", () => {
  test("one token for many calls, concurrent calls share one token request, version header everywhere", async () => {
    const { server, medparts } = await setup((req, res) => ok(res, { orderNumber: req.path.split("/").pop() }));
    const results = await Promise.all(
      ["A", "B", "C", "D", "E"].map((orderNumber) =>
        medparts.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber } } }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.orderNumber),
      ["A", "B", "C", "D", "E"],
    );
    await medparts.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber: "F" } } });
    assert.equal(server.tokenRequests.length, 1);
    const form = new URLSearchParams(server.tokenRequests[0]!.body);
    assert.equal(form.get("grant_type"), "client_credentials");
    assert.equal(form.get("client_id"), "client-1");
    assert.equal(form.get("client_secret"), "secret-1");
    assert.match(String(server.tokenRequests[0]!.headers["content-type"]), /application\/x-www-form-urlencoded/);
    for (const r of [...server.requests, ...server.tokenRequests]) assert.equal(r.headers["medparts-version"], API_VERSION);
    for (const r of server.requests) {
      assert.equal(r.headers.authorization, "Bearer token-1");
      assert.equal(r.headers["idempotency-key"], undefined, "GET has no Idempotency-Key");
    }
    assert.equal(API_VERSION, "2026-12-07");
  });

  test("a 401 invalid_token renews the token once and resends", async () => {
    const { server, medparts } = await setup((req, res) => {
      if (req.headers.authorization === "Bearer token-1") {
        problem(res, 401, "unauthorized", "the access token is invalid", [], {
          "WWW-Authenticate": 'Bearer realm="medparts", error="invalid_token", error_description="the access token is invalid"',
        });
      } else ok(res, { orderNumber: "X" });
    });
    const order = await medparts.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber: "X" } } });
    assert.equal(order.orderNumber, "X");
    assert.equal(server.tokenRequests.length, 2);
    assert.deepEqual(
      server.requests.map((r) => r.headers.authorization),
      ["Bearer token-1", "Bearer token-2"],
    );
  });

  test("a 401 that persists after the renewal is an AuthenticationError (renewed only once)", async () => {
    const { server, medparts } = await setup((_req, res) =>
      problem(res, 401, "unauthorized", "the access token is invalid", [], {
        "WWW-Authenticate": 'Bearer realm="medparts", error="invalid_token"',
      }),
    );
    const error = await medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.status, 401);
    assert.equal(error.code, "unauthorized");
    assert.equal(server.tokenRequests.length, 2);
    assert.equal(server.requests.length, 2);
    // The renewed token was refused too (a token of another API, say): the next call does not renew it again.
    await assert.rejects(medparts.GET("/customer/api/events"), AuthenticationError);
    assert.equal(server.tokenRequests.length, 2);
    assert.equal(server.requests.length, 3);
  });

  test("the token is renewed before it expires", async () => {
    const { server, medparts } = await setup((_req, res) => ok(res, { events: [], hasMore: false, nextCursor: null }), { expiresIn: 1 });
    await medparts.GET("/customer/api/events");
    await medparts.GET("/customer/api/events");
    assert.equal(server.tokenRequests.length, 1, "still valid");
    await new Promise((r) => setTimeout(r, 600)); // expires_in 1 s: renewed half-way (the margin is min(60 s, lifetime / 2))
    await medparts.GET("/customer/api/events");
    assert.equal(server.tokenRequests.length, 2);
    assert.equal(server.requests[2]!.headers.authorization, "Bearer token-2");
  });

  test("token endpoint errors map to typed errors (RFC 6749 form)", async () => {
    const server = await fakeMedparts((_req, res) => ok(res, {}));
    servers.push(server);
    const medparts = new Medparts({
      clientId: "c",
      clientSecret: "s",
      baseUrl: server.url,
      initialRetryDelayMs: 1,
      fetch: async (input, init) => {
        const url = String(input);
        if (url.endsWith("/auth/oauth2/token")) {
          return new Response(JSON.stringify({ error: "invalid_client", error_description: "Client authentication failed." }), {
            status: 401,
            headers: { "Content-Type": "application/json", "X-Correlation-Id": "corr-token-1" },
          });
        }
        return fetch(input, init);
      },
    });
    const error = await medparts.getToken().catch((e: unknown) => e);
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.code, "invalid_client");
    assert.equal(error.detail, "Client authentication failed.");
    assert.equal(error.correlationId, "corr-token-1");
    assert.deepEqual(error.problem, { error: "invalid_client", error_description: "Client authentication failed." });
    // A failed token request is not cached: the next call asks again.
    const again = await medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(again instanceof AuthenticationError);
  });
});

describe("idempotency and retries", () => {
  test("429 then 201: same Idempotency-Key, same body, Retry-After honoured", async () => {
    let calls = 0;
    const { server, medparts } = await setup((_req, res) => {
      calls++;
      if (calls === 1) problem(res, 429, "rate-limited", "Too many requests", [], { "Retry-After": "1" });
      else ok(res, { orderNumber: "ORD-1", createdAt: "2026-12-07T00:00:00Z", eventId: "e1" }, 201);
    });
    const started = Date.now();
    const created = await medparts.POST("/customer/api/orders", { body: orderBody });
    const elapsed = Date.now() - started;
    assert.equal(created.orderNumber, "ORD-1");
    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests;
    assert.match(String(first!.headers["idempotency-key"]), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(second!.headers["idempotency-key"], first!.headers["idempotency-key"]);
    assert.equal(second!.body, first!.body);
    assert.deepEqual(JSON.parse(second!.body), orderBody);
    assert.match(String(second!.headers["content-type"]), /application\/json/);
    assert.ok(elapsed >= 990, `waited ${elapsed} ms for Retry-After: 1`);
  });

  test("a caller's Idempotency-Key is kept", async () => {
    const { server, medparts } = await setup((_req, res) => ok(res, { orderNumber: "ORD-2", createdAt: "", eventId: "" }, 201));
    const key = "6f1c1a52-3b0e-4d6b-9a50-6c8d7b0e2f11";
    await medparts.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body: orderBody });
    await medparts.POST("/customer/api/orders", { headers: { "Idempotency-Key": key.toUpperCase() }, body: orderBody });
    assert.equal(server.requests[0]!.headers["idempotency-key"], key);
    assert.equal(server.requests[1]!.headers["idempotency-key"], key.toUpperCase());
  });

  test("every write method gets its own key; reads get none", async () => {
    const { server, medparts } = await setup((req, res) => {
      if (req.method === "DELETE") res.writeHead(204).end();
      else ok(res, {});
    });
    const deleted = await medparts.DELETE("/customer/api/webhook-endpoints/{id}", { params: { path: { id: "we_1" } } });
    assert.equal(deleted, undefined);
    await medparts.PUT("/customer/api/purchasing-settings", { body: {} as never });
    await medparts.POST("/customer/api/orders", { body: orderBody });
    await medparts.GET("/customer/api/webhook-endpoints");
    const keys = server.requests.map((r) => r.headers["idempotency-key"]);
    assert.equal(new Set(keys.slice(0, 3)).size, 3);
    assert.equal(keys[3], undefined);
  });

  test("503 and a network error are retried with the same key and body", async () => {
    let calls = 0;
    const { server, medparts } = await setup((_req, res) => {
      calls++;
      if (calls === 1) problem(res, 503, "unavailable", "storage unavailable", [], { "Retry-After": "0" });
      else if (calls === 2)
        res.socket?.destroy(); // the connection drops: fetch rejects with a TypeError
      else ok(res, { orderNumber: "ORD-3", createdAt: "", eventId: "" }, 201);
    });
    const created = await medparts.POST("/customer/api/orders", { body: orderBody });
    assert.equal(created.orderNumber, "ORD-3");
    assert.equal(server.requests.length, 3);
    assert.equal(new Set(server.requests.map((r) => r.headers["idempotency-key"])).size, 1);
    assert.equal(new Set(server.requests.map((r) => r.body)).size, 1);
  });

  test("a write the API does not deduplicate is not sent again after a failure that may have applied it; a 429 is", async () => {
    let calls = 0;
    const { server, medparts } = await setup((_req, res) => {
      calls++;
      if (calls === 1)
        res.socket?.destroy(); // the connection drops: the endpoint may have been registered
      else if (calls === 2) problem(res, 503, "unavailable", "storage unavailable", [], { "Retry-After": "0" });
      else if (calls === 3) problem(res, 429, "rate-limited", "slow down", [], { "Retry-After": "0" });
      else ok(res, { id: "we_1" }, 201);
    });
    const body = { url: "https://erp.example.org/hooks", eventTypes: ["*"] } as never;
    await assert.rejects(medparts.POST("/customer/api/webhook-endpoints", { body }), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.match((error as Error).message, /not sent again/);
      return true;
    });
    await assert.rejects(medparts.POST("/customer/api/webhook-endpoints", { body }), (error: unknown) => {
      assert.ok(error instanceof MedpartsError && error.status === 503);
      return true;
    });
    const created = await medparts.POST("/customer/api/webhook-endpoints", { body });
    assert.equal((created as { id: string }).id, "we_1");
    assert.equal(server.requests.filter((r) => r.path === "/customer/api/webhook-endpoints").length, 4);
    assert.equal(isResendable("POST", "/customer/api/orders/ORD-1/cancel"), true);
    assert.equal(isResendable("POST", "/vendor/api/shipments"), false);
    assert.equal(isResendable("PUT", "/vendor/api/offers/SKU-1"), true);
    assert.equal(isResendable("PATCH", "/vendor/api/agreements/1"), false);
  });

  test("an attempt that times out is retried with the same key", async () => {
    let calls = 0;
    const server = await fakeMedparts((_req, res) => {
      calls++;
      if (calls === 1) return; // never answers
      ok(res, { orderNumber: "ORD-T", createdAt: "", eventId: "" }, 201);
    });
    servers.push(server);
    const medparts = new Medparts({ clientId: "c", clientSecret: "s", baseUrl: server.url, timeoutMs: 200, initialRetryDelayMs: 1 });
    const created = await medparts.POST("/customer/api/orders", { body: orderBody });
    assert.equal(created.orderNumber, "ORD-T");
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0]!.headers["idempotency-key"], server.requests[1]!.headers["idempotency-key"]);
    // A caller's abort is not retried.
    const controller = new AbortController();
    controller.abort(new Error("cancelled by the caller"));
    await assert.rejects(medparts.GET("/customer/api/events", { signal: controller.signal }), /cancelled by the caller/);
  });

  test("a 409 'currently being processed' is retried; 'different request body' is not", async () => {
    let calls = 0;
    const { server, medparts } = await setup((_req, res) => {
      calls++;
      if (calls === 1) problem(res, 409, "idempotency-conflict", "the request is currently being processed");
      else if (calls === 2) ok(res, { orderNumber: "ORD-4", createdAt: "", eventId: "" }, 201);
      else problem(res, 409, "idempotency-conflict", "the Idempotency-Key was already used with a different request body");
    });
    assert.equal((await medparts.POST("/customer/api/orders", { body: orderBody })).orderNumber, "ORD-4");
    const error = await medparts.POST("/customer/api/orders", { body: orderBody }).catch((e: unknown) => e);
    assert.ok(error instanceof IdempotencyConflictError && error instanceof ConflictError);
    assert.equal(error.inProgress, false);
    assert.equal(server.requests.length, 3);
  });

  test("gives up after maxRetries: 503 -> ApiServerError, 429 -> RateLimitError, network -> ConnectionError", async () => {
    const a = await setup((_req, res) => problem(res, 503, "unavailable", "down", [], { "Retry-After": "0" }), { maxRetries: 2 });
    const e1 = await a.medparts.POST("/customer/api/orders", { body: orderBody }).catch((e: unknown) => e);
    assert.ok(e1 instanceof ApiServerError);
    assert.equal(e1.status, 503);
    assert.equal(a.server.requests.length, 3);
    assert.equal(e1.idempotencyKey, a.server.requests[0]!.headers["idempotency-key"]);

    const b = await setup((_req, res) => problem(res, 429, "rate-limited", "slow down", [], { "Retry-After": "0" }), { maxRetries: 1 });
    const e2 = await b.medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(e2 instanceof RateLimitError);
    assert.equal(e2.retryAfter, 0);
    assert.equal(b.server.requests.length, 2);

    const c = await setup((_req, res) => res.socket?.destroy(), { maxRetries: 2 });
    const e3 = await c.medparts.POST("/customer/api/orders", { body: orderBody }).catch((e: unknown) => e);
    assert.ok(e3 instanceof ConnectionError && e3 instanceof MedpartsError);
    assert.equal(e3.status, undefined);
    assert.equal(c.server.requests.length, 3);
    assert.equal(e3.idempotencyKey, c.server.requests[0]!.headers["idempotency-key"]);
    assert.ok(e3.cause instanceof TypeError);

    const d = await setup((_req, res) => problem(res, 500, "internal", "boom"));
    const e4 = await d.medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(e4 instanceof ApiServerError);
    assert.equal(d.server.requests.length, 1, "a 500 is not retried");
  });

  test("a Retry-After beyond maxRetryAfterMs is not waited for; a replayed 5xx is not retried", async () => {
    const a = await setup((_req, res) => problem(res, 429, "rate-limited", "later", [], { "Retry-After": "3600" }));
    const e1 = await a.medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(e1 instanceof RateLimitError);
    assert.equal(e1.retryAfter, 3600);
    assert.equal(a.server.requests.length, 1);

    const b = await setup((_req, res) => problem(res, 503, "unavailable", "stored", [], { "X-Idempotency-Cached": "true" }));
    const e2 = await b.medparts.POST("/customer/api/orders", { body: orderBody }).catch((e: unknown) => e);
    assert.ok(e2 instanceof ApiServerError);
    assert.equal(b.server.requests.length, 1);
  });

  test("Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-12-07T10:00:00Z");
    assert.equal(parseRetryAfter("7", now), 7);
    assert.equal(parseRetryAfter("Mon, 07 Dec 2026 10:00:03 GMT", now), 3);
    assert.equal(parseRetryAfter("Mon, 07 Dec 2026 09:00:00 GMT", now), 0);
    assert.equal(parseRetryAfter("soon", now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});

describe("errors", () => {
  test("problem documents become typed errors with their fields", async () => {
    const { medparts } = await setup((req, res) => {
      const status = Number(req.query.get("status") ?? req.path.split("/").pop());
      const cases: Record<number, () => void> = {
        400: () =>
          problem(res, 400, "validation", "The request has invalid fields.", [
            { field: "quoteItems[0].quantity", detail: "Too small" },
            { field: "poNumbr", detail: "Unknown field; did you mean poNumber?" },
          ]),
        403: () => problem(res, 403, "insufficient-scope", "needs orders:write"),
        404: () => problem(res, 404, "not-found", "No such order"),
        409: () => problem(res, 409, "price-option-used", "already ordered", [{ field: "quoteItems[0].priceOptionId", detail: "used" }]),
        422: () =>
          problem(res, 422, "business-rule", "Business rule violated", [
            { detail: "quoteItems[0]: price 1.00 does not equal the unit price 2.00" },
          ]),
      };
      cases[status]!();
    });
    const get = (status: number) =>
      medparts
        .GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber: String(status) } } })
        .catch((e: unknown) => e as MedpartsError);

    const e400 = await get(400);
    assert.ok(e400 instanceof InvalidRequestError);
    assert.equal(e400.status, 400);
    assert.equal(e400.code, "validation");
    assert.equal(e400.type, "http://127.0.0.1/docs/errors/validation");
    assert.equal(e400.title, "validation");
    assert.equal(e400.detail, "The request has invalid fields.");
    assert.equal(e400.correlationId, "corr-400-abc");
    assert.deepEqual(e400.errors, [
      { field: "quoteItems[0].quantity", detail: "Too small" },
      { field: "poNumbr", detail: "Unknown field; did you mean poNumber?" },
    ]);
    assert.equal((e400.problem as { service: string }).service, "medparts-customer-api");
    assert.equal(e400.headers?.get("content-type"), "application/problem+json");
    assert.equal(e400.method, "GET");
    assert.match(
      e400.message,
      /400 validation: The request has invalid fields\. \[quoteItems\[0\]\.quantity: Too small; poNumbr: .*\] \(correlation id corr-400-abc\)/,
    );

    assert.ok((await get(403)) instanceof PermissionError);
    assert.ok((await get(404)) instanceof NotFoundError);
    const e409 = await get(409);
    assert.ok(e409 instanceof ConflictError && !(e409 instanceof IdempotencyConflictError));
    assert.equal(e409.code, "price-option-used");
    const e422 = await get(422);
    assert.ok(e422 instanceof InvalidRequestError);
    assert.equal(e422.code, "business-rule");
    assert.equal(e422.errors[0]!.field, undefined);
  });

  test("a non-JSON error body is kept as text", async () => {
    const { medparts } = await setup((_req, res) => {
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    const error = await medparts.GET("/customer/api/events").catch((e: unknown) => e);
    assert.ok(error instanceof ApiServerError);
    assert.equal(error.status, 502);
    assert.equal(error.problem, "<html>Bad gateway</html>");
    assert.deepEqual(error.errors, []);
  });

  test("raw answers { data, response } on 2xx and throws on errors too", async () => {
    const { medparts } = await setup((req, res) =>
      req.path.endsWith("/missing")
        ? problem(res, 404, "not-found", "nope")
        : ok(res, { orderNumber: "R" }, 200, { "X-Idempotency-Cached": "true" }),
    );
    const { data, response } = await medparts.raw.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber: "R" } } });
    assert.equal(data?.success, true);
    assert.equal(data?.data.orderNumber, "R");
    assert.equal(response.headers.get("X-Idempotency-Cached"), "true");
    await assert.rejects(
      medparts.raw.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber: "missing" } } }),
      NotFoundError,
    );
  });
});

describe("pagination", () => {
  const all = Array.from({ length: 5 }, (_, i) => ({ orderNumber: `ORD-${i + 1}` }));

  test("offset list (GET): 3 pages, limit kept, offset advanced", async () => {
    const { server, medparts } = await setup((req, res) => {
      const offset = Number(req.query.get("offset") ?? 0);
      const limit = Number(req.query.get("limit") ?? 50);
      ok(res, {
        orders: all.slice(offset, offset + limit),
        pagination: { total: all.length, limit, offset, hasMore: offset + limit < all.length },
      });
    });
    const seen: string[] = [];
    for await (const order of medparts.paginate("GET", "/customer/api/orders/search", {
      params: { query: { q: "status:Ordered", limit: 2 } },
    })) {
      seen.push(order.orderNumber);
    }
    assert.deepEqual(seen, ["ORD-1", "ORD-2", "ORD-3", "ORD-4", "ORD-5"]);
    assert.deepEqual(
      server.requests.map((r) => [r.query.get("offset"), r.query.get("limit"), r.query.get("q")]),
      [
        [null, "2", "status:Ordered"],
        ["2", "2", "status:Ordered"],
        ["4", "2", "status:Ordered"],
      ],
    );
  });

  test("offset list in the body (POST /catalog/search): 3 pages", async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ id: `MP-${i}` }));
    const { server, medparts } = await setup((req, res) => {
      const body = JSON.parse(req.body) as { pagination?: { offset?: number; limit?: number } };
      const offset = body.pagination?.offset ?? 0;
      const limit = body.pagination?.limit ?? 50;
      ok(res, {
        items: items.slice(offset, offset + limit),
        facets: [{ field: "x" }],
        pagination: { total: 7, limit, offset, hasMore: offset + limit < 7 },
      });
    });
    const ids: string[] = [];
    for await (const item of medparts.paginate("POST", "/customer/api/catalog/search", {
      body: { requesterId: 50001, facilityId: 1001, filters: { query: "pump" }, pagination: { limit: 3 } },
    })) {
      ids.push(item.id);
    }
    assert.deepEqual(
      ids,
      items.map((i) => i.id),
    );
    assert.equal(server.requests.length, 3);
    assert.deepEqual(JSON.parse(server.requests[2]!.body), {
      requesterId: 50001,
      facilityId: 1001,
      filters: { query: "pump" },
      pagination: { limit: 3, offset: 6 },
    });
    // Pages are separate requests: each POST gets its own Idempotency-Key.
    assert.equal(new Set(server.requests.map((r) => r.headers["idempotency-key"])).size, 3);
  });

  test("events feed: after = nextCursor while hasMore", async () => {
    const events = Array.from({ length: 5 }, (_, i) => ({
      id: `evt-${i + 1}`,
      type: "order.created",
      orderNumber: "ORD-1",
      sequence: 1,
      createdAt: "",
      data: {},
    }));
    const { server, medparts } = await setup((req, res) => {
      const afterId = req.query.get("after");
      const start = afterId ? events.findIndex((e) => e.id === afterId) + 1 : 0;
      const page = events.slice(start, start + 2);
      ok(res, { events: page, hasMore: start + 2 < events.length, nextCursor: page.at(-1)?.id ?? afterId });
    });
    const ids: string[] = [];
    for await (const event of medparts.events({ types: ["order.created", "order.shipped"], limit: 2 })) ids.push(event.id);
    assert.deepEqual(
      ids,
      events.map((e) => e.id),
    );
    assert.deepEqual(
      server.requests.map((r) => r.query.get("after")),
      [null, "evt-2", "evt-4"],
    );
    assert.equal(server.requests[0]!.query.get("types"), "order.created,order.shipped");
  });

  test("cursor list: nextCursor until null", async () => {
    const { server, medparts } = await setup((req, res) => {
      const cursor = req.query.get("cursor");
      const pages: Record<string, { items: { line: number }[]; nextCursor: string | null }> = {
        "": { items: [{ line: 1 }, { line: 2 }], nextCursor: "c2" },
        c2: { items: [{ line: 3 }], nextCursor: "c3" },
        c3: { items: [{ line: 4 }], nextCursor: null },
      };
      ok(res, pages[cursor ?? ""]);
    });
    const lines: number[] = [];
    for await (const row of medparts.paginate("GET", "/vendor/api/offer-imports/{id}/errors", {
      params: { path: { id: "imp_4f9QJ2mX8pL1vN7rT3kA" } },
    })) {
      lines.push(row.line);
    }
    assert.deepEqual(lines, [1, 2, 3, 4]);
    assert.deepEqual(
      server.requests.map((r) => r.query.get("cursor")),
      [null, "c2", "c3"],
    );
  });

  test("pages() yields whole pages; breaking out stops fetching", async () => {
    const { server, medparts } = await setup((req, res) => {
      const offset = Number(req.query.get("offset") ?? 0);
      ok(res, { lines: [{ lineId: offset }], pagination: { total: 100, limit: 1, offset, hasMore: true } });
    });
    let pages = 0;
    for await (const page of medparts.pages("GET", "/vendor/api/order-lines", { params: { query: { limit: 1 } } })) {
      assert.equal(page.pagination.total, 100);
      if (++pages === 2) break;
    }
    assert.equal(server.requests.length, 2);
  });
});

describe("webhooks", () => {
  const secret = "whsec_test_secret";
  const body = '{"id":"evt_1","type":"order.created"}';
  const t = 1700000000;
  const now = 1700000100;
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  const header = `t=${t},v1=${v1}`;

  test("the fixed vector verifies", async () => {
    assert.equal(await verifySignature(secret, header, body, { now }), true);
    assert.equal(await verifySignature(secret, header, new TextEncoder().encode(body), { now }), true);
    assert.equal(await verifySignature(secret, header, Buffer.from(body), { now: new Date(now * 1000) }), true);
    assert.equal(await signPayload(secret, body, t), header);
    const event = await constructEvent(body, header, secret, { now });
    assert.equal(event.id, "evt_1");
    assert.equal(event.type, "order.created");
  });

  test("tampered body, wrong secret, too old, malformed header are refused", async () => {
    assert.equal(await verifySignature(secret, header, body.replace("evt_1", "evt_2"), { now }), false, "tampered body");
    assert.equal(await verifySignature("whsec_other_secret", header, body, { now }), false, "wrong secret");
    assert.equal(await verifySignature(secret, header, body, { now: t + 301 }), false, "too old");
    assert.equal(await verifySignature(secret, header, body, { now: t - 301 }), false, "too far in the future");
    assert.equal(await verifySignature(secret, header, body, { now: t + 300 }), true, "at the tolerance");
    assert.equal(await verifySignature(secret, header, body, { now: t + 1000, toleranceSeconds: 1000 }), true, "custom tolerance");
    for (const bad of [
      "",
      "garbage",
      `t=${t}`,
      `v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=${t},v1=zz${v1.slice(2)}`,
      `t=${t},v1=${v1.slice(1)}`,
      `t=${t};v1=${v1}`,
    ]) {
      assert.equal(await verifySignature(secret, bad, body, { now }), false, `malformed: ${bad}`);
    }
    assert.equal(await verifySignature(secret, null, body, { now }), false);
    // A second v1 (as during a secret rotation) is accepted when one of them matches.
    assert.equal(await verifySignature(secret, `t=${t},v1=${"0".repeat(64)},v1=${v1}`, body, { now }), true);
  });

  test("constructEvent throws SignatureVerificationError with the reason", async () => {
    await assert.rejects(
      constructEvent(body, header, secret, { now: t + 301 }),
      (e: unknown) => e instanceof SignatureVerificationError && /tolerance/.test(e.message),
    );
    await assert.rejects(
      constructEvent(body, "nope", secret, { now }),
      (e: unknown) => e instanceof SignatureVerificationError && /malformed/.test(e.message),
    );
    await assert.rejects(
      constructEvent(`${body} `, header, secret, { now }),
      (e: unknown) => e instanceof SignatureVerificationError && /no signature matches/.test(e.message),
    );
    await assert.rejects(constructEvent(body, undefined, secret, { now }), SignatureVerificationError);
  });
});

test("options are checked", () => {
  assert.throws(() => new Medparts({ clientId: "", clientSecret: "x" }), TypeError);
  const medparts = new Medparts({ clientId: "a", clientSecret: "b" });
  assert.equal(medparts.baseUrl, "http://localhost:8787");
  assert.equal(medparts.version, API_VERSION);
  // Unused server helper (kept for symmetry): json() writes plain JSON.
  assert.equal(typeof json, "function");
});
