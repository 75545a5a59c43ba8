import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { API_VERSIONS, FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import type { VersionChange } from "../../src/platform/versions/change";
import { renderEvent } from "../../src/platform/versions/middleware";
import { clientStatus } from "../../src/shared/auth/client-status";
import { createApiClient } from "../../src/shared/auth/clients";
import { VERSION_CHANGES } from "../../src/versions";
import { BASE_URL, call, expectProblem, issueToken, json, operatorTokenFor, requestToken, TENANT_A } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { testVars } from "../helpers/platform";
import { RECEIVER } from "../helpers/webhooks";

const VERSION = "Medparts-Version";
const LOOKUP = "/users/lookup?userId=1";

/** The version api_clients holds for a client. */
const storedPin = async (clientId: string) =>
  (await env.DB.prepare("SELECT api_version FROM api_clients WHERE client_id = ?").bind(clientId).first<{ api_version: string }>())
    ?.api_version;

/** A client created as the operator creates one (no version named: the latest), and a token issued to it. */
async function freshClient(): Promise<{ clientId: string; token: string }> {
  const creds = await createApiClient(database(env.DB), { tenantId: TENANT_A, name: "a new client" });
  const issued = await json(await requestToken(creds));
  return { clientId: creds.clientId, token: issued.access_token };
}

/** Moves a client's pin as the operator does; its requests see it once the client status cache forgets the old one. */
async function pin(clientId: string, apiVersion: string): Promise<Response> {
  const res = await call(await operatorTokenFor(), `/admin/api/clients/${clientId}`, { method: "PATCH", json: { apiVersion } });
  clientStatus.clear(); // as CLIENT_STATUS_CACHE_SECONDS passing would
  return res;
}

describe("Medparts-Version on every answer", () => {
  it("a new client is pinned to the latest version, and its answers say so", async () => {
    const { clientId, token } = await freshClient();
    expect(await storedPin(clientId)).toBe(LATEST_VERSION);
    const res = await call(token, LOOKUP);
    expect(res.status).toBe(200);
    expect(res.headers.get(VERSION)).toBe(LATEST_VERSION);
  });

  it("401, 404, 429 and a health check carry it too: the request's version, else the latest", async () => {
    const unauthenticated = await call(null, LOOKUP, { headers: { [VERSION]: FIRST_VERSION } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get(VERSION)).toBe(FIRST_VERSION);
    expect((await call(null, LOOKUP)).headers.get(VERSION)).toBe(LATEST_VERSION);
    expect((await call(null, "/health/live")).headers.get(VERSION)).toBe(LATEST_VERSION);
    const { token } = await freshClient();
    expect((await call(token, "/nowhere")).headers.get(VERSION)).toBe(LATEST_VERSION);
    const tight = testVars({ RATE_LIMIT_PER_MINUTE: 1, RATE_LIMIT_BURST: 1 });
    expect((await call(token, LOOKUP, { headers: tight })).status).toBe(200);
    const limited = await call(token, LOOKUP, { headers: { ...tight, [VERSION]: FIRST_VERSION } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get(VERSION)).toBe(FIRST_VERSION);
  });

  it("an unknown or malformed version is a 400 listing the versions, before anything else (no token needed)", async () => {
    for (const given of ["2020-01-01", "latest", "2026-11-25x", ""]) {
      const res = await call(null, LOOKUP, { headers: { [VERSION]: given } });
      const problem = await expectProblem(res, 400);
      expect(problem.errors, given).toEqual([{ field: VERSION, detail: expect.stringContaining(API_VERSIONS.join(", ")) }]);
      expect(res.headers.get(VERSION)).toBe(LATEST_VERSION);
      await expectMatchesContract(res, "GET", LOOKUP);
    }
    // An operation that declares no 400 of its own documents this one.
    const health = await call(null, "/health/live", { headers: { [VERSION]: "1999-01-01" } });
    expect(health.status).toBe(400);
    await expectMatchesContract(health, "GET", "/health/live");
  });

  it("the header overrides the client's pin for one request; the pin holds for the next", async () => {
    const { clientId, token } = await issueToken(TENANT_A);
    expect((await pin(clientId, FIRST_VERSION)).status).toBe(200);
    expect((await call(token, LOOKUP)).headers.get(VERSION)).toBe(FIRST_VERSION);
    expect((await call(token, LOOKUP, { headers: { [VERSION]: LATEST_VERSION } })).headers.get(VERSION)).toBe(LATEST_VERSION);
    expect((await call(token, LOOKUP)).headers.get(VERSION)).toBe(FIRST_VERSION);
  });
});

describe("the operator moves a client's pin: PATCH /admin/api/clients/{clientId}", () => {
  it("answers the client with its version, writes one audit entry, and the same version again changes nothing", async () => {
    const { clientId } = await freshClient();
    const operator = await operatorTokenFor();
    const moved = await pin(clientId, FIRST_VERSION);
    await expectMatchesContract(moved, "PATCH", `/admin/api/clients/${clientId}`);
    expect((await json(moved)).data).toMatchObject({ clientId, apiVersion: FIRST_VERSION });
    expect((await pin(clientId, FIRST_VERSION)).status).toBe(200);
    const audit = await json(await call(operator, `/admin/api/audit?targetId=${clientId}`));
    const pins = audit.data.entries.filter((e: { action: string }) => e.action === "client.version.pinned");
    expect(pins).toHaveLength(1);
    expect(pins[0].before.apiVersion).toBe(LATEST_VERSION);
    expect(pins[0].after.apiVersion).toBe(FIRST_VERSION);
    const shown = await json(await call(operator, `/admin/api/clients/${clientId}`));
    expect(shown.data.apiVersion).toBe(FIRST_VERSION);
  });

  it("an unknown version is a 400 naming apiVersion, an unknown client a 404; nothing changes", async () => {
    const { clientId } = await freshClient();
    const refused = await expectProblem(await pin(clientId, "2020-01-01"), 400);
    expect(Object.keys(refused.errors)).toEqual(["apiVersion"]);
    await expectProblem(await pin("mpc_nobody_here", FIRST_VERSION), 404);
    expect(await storedPin(clientId)).toBe(LATEST_VERSION);
  });
});

describe("version changes", () => {
  it("each names a released version after the first, operations of the document, and a description", async () => {
    const { servedDocument, operationsOf } = await import("../helpers/contract");
    const documented = new Set(operationsOf(await servedDocument()).map((o) => `${o.method} ${o.path}`));
    for (const change of VERSION_CHANGES) {
      expect(API_VERSIONS.indexOf(change.version), change.description).toBeGreaterThan(0);
      expect(change.description.length).toBeGreaterThan(20);
      for (const operation of change.operations) expect(documented.has(operation), operation).toBe(true);
    }
  });

  it("2026-11-25: a client pinned before it deletes a webhook endpoint with 200 { id, deleted: true }; at the latest, 204", async () => {
    const { clientId, token } = await issueToken(TENANT_A, ["webhooks:manage"]);
    const create = async () =>
      (await json(await call(token, "/webhook-endpoints", { method: "POST", json: { url: `${RECEIVER}/ok/versions`, eventTypes: ["*"] } })))
        .data.id as string;
    const latest = await call(token, `/webhook-endpoints/${await create()}`, { method: "DELETE" });
    expect(latest.status).toBe(204);
    expect(await latest.text()).toBe("");

    await pin(clientId, FIRST_VERSION);
    const id = await create();
    const old = await call(token, `/webhook-endpoints/${id}`, { method: "DELETE" });
    expect(old.status).toBe(200);
    expect(old.headers.get(VERSION)).toBe(FIRST_VERSION);
    expect(old.headers.get("Content-Type")).toMatch(/^application\/json/);
    await expectMatchesContract(old, "DELETE", `/webhook-endpoints/${id}`); // against the 2026-11-23 document
    const body = await json(old);
    expect(body).toMatchObject({ success: true, data: { id, deleted: true }, correlationId: old.headers.get("X-Correlation-Id") });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    // A 404 is the same at every version.
    const gone = await call(token, `/webhook-endpoints/${id}`, { method: "DELETE" });
    expect(gone.status).toBe(404);
  });
});

describe("2026-11-29: a problem's type is its error page", () => {
  it("at the latest, every problem names its page on this deployment; pinned before, the former identifier", async () => {
    const { clientId, token } = await issueToken(TENANT_A);
    const page = await expectProblem(await call(token, "/nowhere"), 404);
    expect(page.type).toBe(`${BASE_URL}/docs/errors/not-found`);
    // Answers that run no operation too: a 401 at a version named in the header.
    const before = await expectProblem(await call(null, LOOKUP, { headers: { [VERSION]: "2026-11-25" } }), 401);
    expect(before.type).toBe("https://medparts.example/problems/unauthorized");
    await pin(clientId, "2026-11-25");
    const pinned = await call(token, "/nowhere");
    const old = await expectProblem(pinned, 404);
    expect(old).toMatchObject({
      ...page,
      type: "https://medparts.example/problems/not-found",
      correlationId: old.correlationId,
      timestamp: old.timestamp,
    });
    expect(pinned.headers.get("Content-Type")).toBe("application/problem+json");
    // Validation problems keep their errors object.
    const invalid = await expectProblem(await call(token, "/users/lookup?userId=abc"), 400);
    expect(invalid.type).toBe("https://medparts.example/problems/validation");
    expect(Object.keys(invalid.errors).length).toBeGreaterThan(0);
  });
});

describe("the OpenAPI document of each version", () => {
  it("?version= or the header gives that version's document: info.version, and the changes after it undone", async () => {
    const latest = await json(await call(null, "/openapi.json"));
    expect(latest.info.version).toBe(LATEST_VERSION);
    expect(Object.keys(latest.paths["/customer/api/webhook-endpoints/{id}"].delete.responses)).toContain("204");
    for (const request of [
      () => call(null, `/openapi.json?version=${FIRST_VERSION}`),
      () => call(null, "/openapi.json", { headers: { [VERSION]: FIRST_VERSION } }),
    ]) {
      const res = await request();
      expect(res.headers.get(VERSION)).toBe(FIRST_VERSION);
      expect(res.headers.get("Vary")).toContain(VERSION);
      const first = await json(res);
      expect(first.info.version).toBe(FIRST_VERSION);
      const responses = first.paths["/customer/api/webhook-endpoints/{id}"].delete.responses;
      expect(Object.keys(responses)).not.toContain("204");
      expect(responses["200"].content["application/json"].schema.properties.data.required).toEqual(["id", "deleted"]);
      // Everything the change does not touch is the latest document's.
      expect(first.paths["/customer/api/users/lookup"]).toEqual(latest.paths["/customer/api/users/lookup"]);
    }
    const refused = await expectProblem(await call(null, "/openapi.json?version=2020-01-01"), 400);
    expect(refused.errors.map((entry: { field: string }) => entry.field)).toEqual(["version"]);
  });
});

describe("webhook endpoints and events at a version", () => {
  it("an endpoint takes the request's version unless it names one; its deliveries say and use it", async () => {
    const { clientId, token } = await issueToken(TENANT_A, ["webhooks:manage"]);
    await pin(clientId, FIRST_VERSION);
    const create = async (extra: Record<string, unknown>, path: string) => {
      const res = await call(token, "/webhook-endpoints", {
        method: "POST",
        json: { url: `${RECEIVER}/ok/${path}`, eventTypes: ["*"], ...extra },
      });
      expect(res.status).toBe(201);
      await expectMatchesContract(res, "POST", "/webhook-endpoints");
      return (await json(res)).data;
    };
    const pinned = await create({}, "v-pinned");
    expect(pinned.apiVersion).toBe(FIRST_VERSION);
    const named = await create({ apiVersion: LATEST_VERSION }, "v-named");
    expect(named.apiVersion).toBe(LATEST_VERSION);
    const overridden = await create({}, "v-header").then(async () => {
      const res = await call(token, "/webhook-endpoints", {
        method: "POST",
        json: { url: `${RECEIVER}/ok/v-header-2`, eventTypes: ["*"] },
        headers: { [VERSION]: LATEST_VERSION },
      });
      return (await json(res)).data;
    });
    expect(overridden.apiVersion).toBe(LATEST_VERSION);
    const refused = await call(token, "/webhook-endpoints", {
      method: "POST",
      json: { url: `${RECEIVER}/ok/v-bad`, eventTypes: ["*"], apiVersion: "2020-01-01" },
    });
    expect(Object.keys((await expectProblem(refused, 400)).errors)).toEqual(["apiVersion"]);

    for (const endpoint of [pinned, named]) {
      expect((await call(token, `/webhook-endpoints/${endpoint.id}/test`, { method: "POST" })).status).toBe(200);
      const path = new URL(endpoint.url).pathname;
      const [delivery] = await (await fetch(`${RECEIVER}/__received?path=${encodeURIComponent(path)}`)).json<
        { headers: Record<string, string> }[]
      >();
      expect(delivery!.headers[VERSION.toLowerCase()]).toBe(endpoint.apiVersion);
    }
  });

  it("renderEvent walks back through the event changes after the version, newest first, and never changes the stored event", () => {
    const changes: VersionChange[] = [
      {
        version: "2026-11-25",
        description: "renamed total to totalCents",
        operations: [],
        event: ({ totalCents, ...rest }) => ({ ...rest, total: totalCents }),
      },
    ];
    const stored = { id: "evt_1", type: "order.created", totalCents: 1200 };
    expect(renderEvent(changes, FIRST_VERSION, stored)).toEqual({ id: "evt_1", type: "order.created", total: 1200 });
    expect(renderEvent(changes, LATEST_VERSION, stored)).toEqual(stored);
    expect(stored).toEqual({ id: "evt_1", type: "order.created", totalCents: 1200 });
  });
});

describe("clients from before versions", () => {
  it("are pinned to 2026-11-25, the behaviour they saw (migrations/0026)", async () => {
    await env.DB.prepare(
      "INSERT INTO api_clients (client_id, secret_hash, tenant_id, name, scopes, enabled, created_at) VALUES ('mpc_before_versions', 'x', 1, 'Old', 'users:read', 1, '2026-11-24T00:00:00.000Z')",
    ).run();
    expect(await storedPin("mpc_before_versions")).toBe("2026-11-25");
  });
});
