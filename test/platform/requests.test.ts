import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { customerApi } from "../../src/api/app";
import { API, BASE_URL, call, expectOAuthError, expectProblem, json, TENANT_A, tokenFor } from "../helpers/api";
import { testVars } from "../helpers/platform";
import { TEST_ECHO_PATH } from "../helpers/test-routes";

const MiB = 1024 * 1024;
const encoder = new TextEncoder();

/** A JSON body of exactly `bytes` bytes: {"text":"aaa..."}. */
const jsonOfSize = (bytes: number) => `{"text":"${"a".repeat(bytes - 11)}"}`;

/** A body without Content-Length (sent chunked), `chunks` pieces of `chunkSize` bytes forming one JSON document. */
function chunkedJson(chunkSize: number, chunks: number): ReadableStream<Uint8Array> {
  const text = jsonOfSize(chunkSize * chunks);
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index === chunks) return controller.close();
      controller.enqueue(encoder.encode(text.slice(index * chunkSize, (index + 1) * chunkSize)));
      index++;
    },
  });
}

let token: string;
beforeAll(async () => {
  token = await tokenFor(TENANT_A, ["users:read"]);
});

const echo = (body: BodyInit, headers: Record<string, string> = {}) =>
  SELF.fetch(API + TEST_ECHO_PATH, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
    body,
  });

describe("request body limit (1 MiB by default)", () => {
  it("accepts a body of exactly the limit", async () => {
    const res = await echo(jsonOfSize(MiB));
    expect(res.status).toBe(200);
    expect((await json(res)).data.length).toBe(MiB - 11);
  });

  it("rejects a larger body by its Content-Length with 413 problem details", async () => {
    const res = await echo(jsonOfSize(MiB + 1));
    const problem = await expectProblem(res, 413);
    expect(problem.type).toMatch(/\/payload-too-large$/);
    expect(problem.detail).toContain(String(MiB));
  });

  it("counts a chunked body without Content-Length while reading it", async () => {
    const request = new Request(API + TEST_ECHO_PATH, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: chunkedJson(64 * 1024, 32),
    });
    expect(request.headers.has("Content-Length")).toBe(false);
    await expectProblem(await SELF.fetch(request), 413);
  });

  it("passes a chunked body under the limit on to the route intact", async () => {
    const res = await echo(chunkedJson(1000, 5));
    expect(res.status).toBe(200);
    expect((await json(res)).data.length).toBe(5000 - 11);
  });

  it("does not trust a Content-Length that understates the body", async () => {
    const request = new Request(API + TEST_ECHO_PATH, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "20" },
      body: chunkedJson(64 * 1024, 32),
    });
    await expectProblem(await SELF.fetch(request), 413);
  });

  it("is configurable (MAX_BODY_BYTES) and applies before authentication and on the token endpoint", async () => {
    const small = testVars({ MAX_BODY_BYTES: 100 });
    const problem = await expectProblem(await echo(jsonOfSize(101), { ...small, Authorization: "" }), 413);
    expect(problem.detail).toContain("100 bytes");
    expect((await echo(jsonOfSize(100), small)).status).toBe(200);
    const tokenRes = await SELF.fetch(`${BASE_URL}/auth/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...small },
      body: `grant_type=client_credentials&client_id=x&client_secret=${"y".repeat(200)}`,
    });
    // The token endpoint answers its errors in the RFC 6749 form (test/auth/token.test.ts).
    expect((await expectOAuthError(tokenRes, 413, "invalid_request")).error_description).toContain("100 bytes");
  });
});

describe("415 on JSON endpoints", () => {
  // Every POST route of the customer API, plus the test echo route: a new endpoint is covered automatically.
  const postPaths = [
    ...new Set(customerApi.routes.filter((r) => r.method === "POST").map((r) => r.path.replace(/:\w+/g, "1"))),
    TEST_ECHO_PATH,
  ];

  it.each(postPaths)("POST %s rejects a non-JSON or missing Content-Type", async (path) => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", null]) {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (contentType) headers["Content-Type"] = contentType;
      const res = await SELF.fetch(API + path, {
        method: "POST",
        headers,
        body: contentType ? '{"text":"x"}' : new Blob(['{"text":"x"}']),
      });
      const problem = await expectProblem(res, 415);
      expect(problem.type).toMatch(/\/unsupported-media-type$/);
      expect(res.headers.get("Accept-Post")).toBe("application/json");
    }
  });

  it("accepts application/json with parameters and +json media types", async () => {
    expect((await echo('{"text":"x"}', { "Content-Type": "application/json; charset=utf-8" })).status).toBe(200);
    expect((await echo('{"text":"x"}', { "Content-Type": "application/merge-patch+json" })).status).toBe(200);
  });
});

describe("empty and non-UTF-8 bodies", () => {
  it("an empty body (Content-Length: 0) is no body, whatever its Content-Type: the route reads {}", async () => {
    for (const contentType of [null, "text/plain", "application/json"]) {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Length": "0" };
      if (contentType) headers["Content-Type"] = contentType;
      // Not body "", for which fetch adds a text/plain Content-Type of its own.
      const res = await SELF.fetch(`${API}/users/search`, { method: "POST", headers, body: new Uint8Array(0) });
      expect(res.status, `${contentType} ${await res.clone().text()}`).toBe(200);
      expect((await json(res)).data.pagination).toMatchObject({ limit: 50, offset: 0 });
    }
    // A route whose body is required says what is missing, as for {}.
    const orderToken = await tokenFor(TENANT_A);
    const problem = await expectProblem(
      await SELF.fetch(`${API}/orders`, {
        method: "POST",
        headers: { Authorization: `Bearer ${orderToken}`, "Idempotency-Key": crypto.randomUUID(), "Content-Length": "0" },
        body: new Uint8Array(0),
      }),
      400,
    );
    expect(Object.keys(problem.errors)).toEqual(expect.arrayContaining(["requesterId", "quoteItems"]));
  });

  it("a JSON body that is not UTF-8 is a 400 naming the body, never stored with U+FFFD", async () => {
    for (const bytes of [
      [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d],
      [0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d],
    ]) {
      const problem = await expectProblem(await echo(new Uint8Array(bytes)), 400);
      expect(problem.errors.body[0]).toContain("UTF-8");
    }
    expect((await echo(new TextEncoder().encode('{"text":"Müller ✓"}'))).status).toBe(200);
  });
});

describe("field names that Object.prototype has", () => {
  it("toString, constructor, __proto__ and hasOwnProperty are unknown fields like any other: a 400 naming them, never a 500", async () => {
    const everyScope = await tokenFor(TENANT_A);
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
      for (const path of ["/catalog/search", "/users/search", "/catalog/detail"]) {
        const res = await SELF.fetch(API + path, {
          method: "POST",
          headers: { Authorization: `Bearer ${everyScope}`, "Content-Type": "application/json" },
          body: `{"${name}":0}`,
        });
        const problem = await expectProblem(res, 400);
        expect(Object.keys(problem.errors), `${path} ${name}`).toContain(name);
      }
    }
  });
});

describe("405 with Allow", () => {
  it.each([
    ["POST", "/customer/api/users/lookup?userId=1", "GET, HEAD"],
    ["DELETE", "/customer/api/users/lookup", "GET, HEAD"],
    ["GET", "/auth/oauth2/token", "POST"],
    ["PUT", "/health/live", "GET, HEAD"],
    ["GET", `/customer/api${TEST_ECHO_PATH}`, "POST"],
  ])("%s %s", async (method, path, allow) => {
    const res = await SELF.fetch(BASE_URL + path, { method, headers: { Authorization: `Bearer ${token}` } });
    const problem = await expectProblem(res, 405);
    expect(res.headers.get("Allow")).toBe(allow);
    expect(problem.detail).toContain(allow);
  });

  it("keeps 404 for unknown paths", async () => {
    const res = await SELF.fetch(`${API}/no/such/thing`, { method: "POST" });
    expect(res.headers.has("Allow")).toBe(false);
    await expectProblem(res, 404);
  });
});

describe("response headers", () => {
  it("sends Cache-Control: no-store and nosniff on API responses, errors included", async () => {
    for (const res of [
      await call(token, "/users/lookup?userId=1"),
      await call(null, "/users/lookup?userId=1"),
      await call(token, "/nowhere"),
    ]) {
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("ignores x-api-key: neither required, nor a credential on its own (docs/decisions.md)", async () => {
    const withKey = await call(token, "/users/lookup?userId=1", { headers: { "x-api-key": "anything-at-all" } });
    expect(withKey.status).toBe(200);
    const keyOnly = await call(null, "/users/lookup?userId=1", { headers: { "x-api-key": "anything-at-all" } });
    await expectProblem(keyOnly, 401);
  });
});
