import { createExecutionContext, createScheduledController, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/api/index";
import { REQUEST_LOG_RETENTION_DAYS, requestLog } from "../../src/shared/request-logs/owners";
import { MAX_LOGGED_REQUESTS } from "../../src/shared/request-logs/store";
import {
  AT_LATEST,
  type ClientCredentials,
  call,
  json,
  newClient,
  newTestModeClient,
  newVendorClient,
  requestToken,
  TENANT_A,
  TENANT_B,
} from "../helpers/api";
import { eventually, testVars } from "../helpers/platform";
import { RECEIVER } from "../helpers/webhooks";

/**
 * The request log (src/shared/request-logs): each authenticated request of the customer and vendor APIs, written after
 * its answer to its owner's log, searched with GET /request-logs. Every client here is new, and each search names it
 * (`clientId:`), since other files' requests land in the same demo tenants' logs.
 */

async function tokenOf(creds: ClientCredentials): Promise<string> {
  const res = await requestToken(creds);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

interface Logged {
  id: number;
  clientId: string;
  mode: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  latencyMs: number;
  correlationId: string;
  idempotencyKey: string | null;
  apiVersion: string | null;
  errorType: string | null;
  problem: Record<string, unknown> | null;
  requestBody: string | null;
  responseBody: string | null;
  truncated: boolean;
}

async function logOf(token: string, q: string, base = "/request-logs", extra = ""): Promise<Logged[]> {
  const res = await call(token, `${base}?q=${encodeURIComponent(q)}${extra}`, { headers: AT_LATEST });
  expect(res.status).toBe(200);
  return (await json(res)).data.requests as Logged[];
}

/** The entries of `clientId` once there are at least `count`: the log is written after the answer. */
const entriesOf = (token: string, clientId: string, count: number, base?: string) =>
  eventually(
    () => logOf(token, `clientId:${clientId}`, base),
    (rows) => rows.length >= count,
  );

describe("a live buyer's request log", () => {
  let creds: ClientCredentials;
  let token: string;
  beforeAll(async () => {
    creds = await newClient(TENANT_A);
    token = await tokenOf(creds);
  });

  it("keeps what Medparts received and answered, without bodies, newest first", async () => {
    const ok = await call(token, "/users/lookup?loginUserId=jsmith");
    expect(ok.status).toBe(200);
    const bad = await call(token, "/orders", {
      method: "POST",
      json: { requesterId: "not a number" },
      headers: { "Idempotency-Key": "0f8fad5b-d9cb-469f-a165-70867728950e", ...AT_LATEST },
    });
    expect(bad.status).toBe(400);
    const rows = await entriesOf(token, creds.clientId, 2);
    expect(rows).toHaveLength(2);
    const [post, get] = rows;
    expect(get).toMatchObject({
      clientId: creds.clientId,
      mode: "live",
      method: "GET",
      path: "/customer/api/users/lookup",
      query: "loginUserId=jsmith",
      status: 200,
      correlationId: ok.headers.get("X-Correlation-Id"),
      idempotencyKey: null,
      errorType: null,
      problem: null,
      requestBody: null,
      responseBody: null,
    });
    expect(get!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(get!.apiVersion).toBe(ok.headers.get("Medparts-Version"));
    expect(post).toMatchObject({
      method: "POST",
      path: "/customer/api/orders",
      status: 400,
      idempotencyKey: "0f8fad5b-d9cb-469f-a165-70867728950e",
      errorType: "validation",
      correlationId: bad.headers.get("X-Correlation-Id"),
      requestBody: null,
    });
    expect(post!.problem).toMatchObject({ status: 400, correlationId: bad.headers.get("X-Correlation-Id") });
    expect(post!.id).toBeGreaterThan(get!.id);
  });

  it("searches with q and sorts as asked", async () => {
    await entriesOf(token, creds.clientId, 2);
    const errors = await logOf(token, `clientId:${creds.clientId} AND status>=400`);
    expect(errors.map((row) => row.status)).toEqual([400]);
    const byPath = await logOf(token, `clientId:${creds.clientId} AND path~"/customer/api/users"`);
    expect(byPath.map((row) => row.path)).toEqual(["/customer/api/users/lookup"]);
    const oldestFirst = await logOf(token, `clientId:${creds.clientId}`, "/request-logs", "&sortBy=id&sortDir=Asc");
    expect(oldestFirst.map((row) => row.method)).toEqual(["GET", "POST"]);
    const bad = await call(token, `/request-logs?q=${encodeURIComponent("nosuchfield:1")}`, { headers: AT_LATEST });
    expect(bad.status).toBe(400);
  });

  it("does not log its own reads, nor a request without a valid token", async () => {
    const before = await entriesOf(token, creds.clientId, 2);
    for (let i = 0; i < 3; i++) await logOf(token, `clientId:${creds.clientId}`);
    expect((await call("not-a-token", "/users/lookup?loginUserId=jsmith")).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await logOf(token, `clientId:${creds.clientId}`)).length).toBe(before.length);
  });

  it("is the tenant's: another tenant's client sees none of it, and a vendor's own log is apart", async () => {
    await entriesOf(token, creds.clientId, 2);
    const other = await tokenOf(await newClient(TENANT_B));
    expect(await logOf(other, `clientId:${creds.clientId}`)).toEqual([]);
    const vendor = await tokenOf(await newVendorClient(1));
    expect(await logOf(vendor, `clientId:${creds.clientId}`, "/vendor/api/request-logs")).toEqual([]);
    // A customer token is refused on the vendor's log, a vendor token on the customer's.
    expect((await call(token, "/vendor/api/request-logs")).status).toBe(401);
    expect((await call(vendor, "/request-logs")).status).toBe(401);
  });
});

describe("what a request log keeps of answers given before the bearer check, and of query strings", () => {
  let creds: ClientCredentials;
  let token: string;
  beforeAll(async () => {
    creds = await newClient(TENANT_A);
    token = await tokenOf(creds);
  });

  it("logs a 415, an unknown version and a 429 of a valid token, with their problem types, and scrubs the query", async () => {
    const unsupported = await call(token, "/catalog/search", { method: "POST", body: "q=pump", headers: { "Content-Type": "text/plain" } });
    expect(unsupported.status).toBe(415);
    const unknownVersion = await call(token, "/users/lookup?loginUserId=jsmith", { headers: { "Medparts-Version": "1999-01-01" } });
    expect(unknownVersion.status).toBe(400);
    const tokenInQuery = await call(token, "/users/lookup?loginUserId=jsmith&access_token=eyJhbGciOi.secret.part");
    const tight = testVars({ RATE_LIMIT_BURST: 1, RATE_LIMIT_PER_MINUTE: 1 });
    let limited: Response | undefined;
    for (let i = 0; i < 3 && limited?.status !== 429; i++) limited = await call(token, "/users/lookup?userId=1", { headers: tight });
    expect(limited!.status).toBe(429);
    const rows = await eventually(
      () => logOf(token, `clientId:${creds.clientId}`, "/request-logs", "&sortBy=id&sortDir=Asc&limit=100"),
      (found) => found.some((row) => row.status === 429),
    );
    expect(rows[0]).toMatchObject({ status: 415, path: "/customer/api/catalog/search", errorType: "unsupported-media-type" });
    expect(rows[1]).toMatchObject({ status: 400, path: "/customer/api/users/lookup" });
    expect(rows[1]!.errorType).not.toBeNull();
    expect(rows[2]!.status).toBe(tokenInQuery.status);
    expect(rows[2]!.query).toBe("loginUserId=jsmith&access_token=[redacted]");
    expect(rows.find((row) => row.status === 429)).toMatchObject({ errorType: "rate-limited", path: "/customer/api/users/lookup" });
  });
});

describe("another client's bodies", () => {
  it("are not shown to a client of the same test log: its scopes may be narrower", async () => {
    const writer = await newTestModeClient(TENANT_A);
    const writerToken = await tokenOf(writer);
    const res = await call(writerToken, "/users/lookup?loginUserId=jsmith", { headers: AT_LATEST });
    expect(res.status).toBe(200);
    const own = await entriesOf(writerToken, writer.clientId, 1);
    expect(own[0]!.responseBody).toContain("jsmith");
    const reader = await tokenOf(await newTestModeClient(TENANT_A, ["catalog:read"]));
    const seen = await logOf(reader, `clientId:${writer.clientId}`);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: "/customer/api/users/lookup", status: 200, requestBody: null, responseBody: null });
  });
});

describe("a test-mode buyer's request log", () => {
  let creds: ClientCredentials;
  let token: string;
  beforeAll(async () => {
    creds = await newTestModeClient(TENANT_A);
    token = await tokenOf(creds);
  });

  it("keeps both bodies, with secrets and card-like numbers redacted", async () => {
    const search = await call(token, "/catalog/search", {
      method: "POST",
      json: { requesterId: 50001, facilityId: 1001, filters: { query: "4111 1111 1111 1111 pump" }, clientSecret: "hunter2-secret" },
      headers: AT_LATEST,
    });
    expect(search.status).toBe(400); // the unknown field: a body refused is logged as any other
    const endpoint = await call(token, "/webhook-endpoints", {
      method: "POST",
      json: { url: `${RECEIVER}/ok/request-log`, eventTypes: ["order.created"] },
      headers: AT_LATEST,
    });
    expect(endpoint.status).toBe(201);
    const secret = (await json(endpoint)).data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const rows = await entriesOf(token, creds.clientId, 2);
    const [created, searched] = rows;
    expect(searched).toMatchObject({ mode: "test", path: "/customer/api/catalog/search", status: search.status });
    expect(searched!.requestBody).toContain("pump");
    expect(searched!.requestBody).not.toContain("4111");
    expect(searched!.requestBody).not.toContain("hunter2");
    expect(searched!.requestBody).toContain("[redacted]");
    expect(JSON.parse(searched!.responseBody!)).toMatchObject({ status: 400, errors: [{ field: "clientSecret" }] });
    expect(created!.path).toBe("/customer/api/webhook-endpoints");
    expect(created!.responseBody).toContain("[redacted]");
    expect(created!.responseBody).not.toContain(secret);
    expect(created!.responseBody).not.toContain("whsec_");
  });

  it("is apart from the live log of the same tenant", async () => {
    await entriesOf(token, creds.clientId, 2);
    const live = await tokenOf(await newClient(TENANT_A));
    expect(await logOf(live, `clientId:${creds.clientId}`)).toEqual([]);
  });
});

describe("a vendor's request log", () => {
  it("keeps the vendor's requests, without bodies, and only its own", async () => {
    const creds = await newVendorClient(1);
    const token = await tokenOf(creds);
    const res = await call(token, "/vendor/api/order-lines?limit=1");
    expect(res.status).toBe(200);
    const rows = await entriesOf(token, creds.clientId, 1, "/vendor/api/request-logs");
    expect(rows[0]).toMatchObject({ method: "GET", path: "/vendor/api/order-lines", status: 200, mode: "live", responseBody: null });
    const otherVendor = await tokenOf(await newVendorClient(2));
    expect(await logOf(otherVendor, `clientId:${creds.clientId}`, "/vendor/api/request-logs")).toEqual([]);
  });
});

describe("retention (the housekeeping cron)", () => {
  const DAY = 86_400_000;

  async function seed(owner: { tenantId: number } | { vendorId: number }, ages: number[]): Promise<void> {
    await runInDurableObject(requestLog(env, owner) as DurableObjectStub, (_, state) => {
      for (const age of ages) {
        state.storage.sql.exec(
          `INSERT INTO request_logs (at, client_id, mode, method, path, status, latency_ms, correlation_id, truncated)
           VALUES (?, 'retention-test', 'live', 'GET', '/customer/api/orders', 200, 1, 'c', 0)`,
          new Date(Date.now() - age).toISOString(),
        );
      }
    });
  }

  const agesLeft = (owner: { tenantId: number } | { vendorId: number }) =>
    runInDurableObject(
      requestLog(env, owner) as DurableObjectStub,
      (_, state) =>
        state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_logs WHERE client_id = 'retention-test'").one().n,
    );

  it("drops live requests after 7 days and test-mode ones after 30, and keeps at most the cap", async () => {
    const live = { tenantId: 90_001 };
    const test = { tenantId: -90_001 };
    await seed(live, [DAY, 6 * DAY, 8 * DAY]);
    await seed(test, [DAY, 8 * DAY, 29 * DAY, 31 * DAY]);
    expect(REQUEST_LOG_RETENTION_DAYS).toEqual({ live: 7, test: 30 });
    expect(await requestLog(env, live).purge(Date.now(), REQUEST_LOG_RETENTION_DAYS.live)).toBe(1);
    expect(await requestLog(env, test).purge(Date.now(), REQUEST_LOG_RETENTION_DAYS.test)).toBe(1);
    expect(await agesLeft(live)).toBe(2);
    expect(await agesLeft(test)).toBe(3);

    const capped = { vendorId: 90_002 };
    await runInDurableObject(requestLog(env, capped) as DurableObjectStub, (_, state) => {
      state.storage.sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         INSERT INTO request_logs (at, client_id, mode, method, path, status, latency_ms, correlation_id, truncated)
         SELECT ?, 'retention-test', 'live', 'GET', '/vendor/api/order-lines', 200, 1, 'c' || i, 0 FROM n`,
        MAX_LOGGED_REQUESTS + 5,
        new Date().toISOString(),
      );
    });
    expect(await requestLog(env, capped).purge(Date.now(), 7)).toBe(5);
    expect(await agesLeft(capped)).toBe(MAX_LOGGED_REQUESTS);
  });

  it("runs in the cron over every tenant's logs, live and test", async () => {
    await seed({ tenantId: TENANT_B }, [10 * DAY]);
    await seed({ tenantId: -TENANT_B }, [10 * DAY]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await agesLeft({ tenantId: TENANT_B })).toBe(0);
    expect(await agesLeft({ tenantId: -TENANT_B })).toBe(1);
  });
});

describe("the size of a log's row", () => {
  it("is about 265 bytes live (measured in the object's SQLite, index included: 10,000 rows)", async () => {
    const owner = { vendorId: 90_003 };
    const size = await runInDurableObject(requestLog(env, owner) as DurableObjectStub, (_, state) => {
      const before = state.storage.sql.databaseSize;
      state.storage.sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 10000)
         INSERT INTO request_logs (at, client_id, mode, method, path, query, status, latency_ms, correlation_id, idempotency_key,
           api_version, truncated)
         SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || i || ' seconds'), 'mpc_live_lakeside_erp_01', 'live', 'POST',
           '/customer/api/orders/ORD-20261208-' || printf('%08d', i) || '/cancel', 'include=lineItems', 200, 42,
           lower(hex(randomblob(16))), lower(hex(randomblob(16))), '2026-12-07', 0 FROM n`,
      );
      return (state.storage.sql.databaseSize - before) / 10_000;
    });
    // docs/architecture.md, "Request logs": the cap of 100,000 rows a log is sized with this figure.
    expect(size).toBeGreaterThan(100);
    expect(size).toBeLessThan(400);
  });
});
