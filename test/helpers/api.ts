import { env } from "cloudflare:test";
import { expect } from "vitest";
import { database } from "../../src/db/client";
import { type ApiVersion, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { createApiClient } from "../../src/shared/auth/clients";
import { dispatch } from "./dispatch";

export const BASE_URL = "https://medparts.test";
export const API = `${BASE_URL}/customer/api`;

/** Demo tenants (src/dev/seed/organizations.ts). */
export const TENANT_A = 1;
export const TENANT_B = 2;
export const TENANT_C = 3;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The version the helpers' clients are pinned to: the one most of the suite was written against. Its files test that
 * version (and through it, every version change back from the latest); a test of a later version's shapes sends
 * `Medparts-Version` (`AT_LATEST`).
 */
export const TESTS_VERSION: ApiVersion = "2026-11-29";

/** Headers asking for the latest version's answer, whatever the client's pin. */
export const AT_LATEST = { "Medparts-Version": LATEST_VERSION };

export function newClient(tenantId: number, scopes?: string[], apiVersion: ApiVersion = TESTS_VERSION): Promise<ClientCredentials> {
  return createApiClient(database(env.DB), { tenantId, name: `test client ${tenantId}`, scopes, apiVersion });
}

export async function requestToken(creds: ClientCredentials, extra: Record<string, string> = {}): Promise<Response> {
  return dispatch(`${BASE_URL}/auth/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, ...extra }),
  });
}

/** A fresh client of the tenant and an access token really issued to it by POST /auth/oauth2/token. */
export async function issueToken(tenantId: number, scopes?: string[]): Promise<{ clientId: string; token: string }> {
  const creds = await newClient(tenantId, scopes);
  const res = await requestToken(creds);
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return { clientId: creds.clientId, token: ((await res.json()) as { access_token: string }).access_token };
}

const tokens = new Map<string, Promise<string>>();

/** Test files share modules (`isolate: false`) but not data: the setup file forgets the previous file's tokens. */
export function forgetCachedTokens(): void {
  tokens.clear();
}

/** One token per key and test file: issuing means hashing a new client secret, which is deliberately slow. */
function cachedToken(key: string, issue: () => Promise<string>): Promise<string> {
  let token = tokens.get(key);
  if (!token) {
    token = issue();
    tokens.set(key, token);
  }
  return token;
}

/** An access token for a fresh client of the tenant, cached per test file (hashing is deliberately slow). */
export function tokenFor(tenantId: number, scopes?: string[]): Promise<string> {
  return cachedToken(`${tenantId}:${scopes?.join(" ") ?? "*"}`, () => issueToken(tenantId, scopes).then((issued) => issued.token));
}

/**
 * Paths served outside /customer/api: the authorization server, health, RFC 8414 metadata, the vendor and operator APIs,
 * SCIM, the cXML endpoint and the PunchOut shop.
 */
export const OUTSIDE_API = /^\/(auth|health|\.well-known|vendor|admin|scim|cxml|punchout|as2|desk)(\/|\?|$)/;

/** Calls the public HTTP surface the way an integrator does. */
export async function call(token: string | null, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  const url = path.startsWith("http") ? path : OUTSIDE_API.test(path) ? BASE_URL + path : API + path;
  return dispatch(url, { ...init, headers, body });
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Asserts the RFC 7807 problem form of spec 7.2 and returns the body. */
export async function expectProblem(res: Response, status: number): Promise<any> {
  const body = await res.clone().json<any>();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(body)}`);
  if (!res.headers.get("Content-Type")?.startsWith("application/problem+json")) throw new Error("not application/problem+json");
  for (const field of ["type", "title", "status", "detail", "correlationId", "timestamp", "service"]) {
    if (body[field] === undefined) throw new Error(`problem body lacks ${field}: ${JSON.stringify(body)}`);
  }
  if (body.status !== status) throw new Error(`problem status ${body.status} != ${status}`);
  return body;
}

/**
 * Asserts an RFC 6749 5.2 error as openid-client (oauth4webapi) reads one: `application/json` exactly (it compares the
 * media type as is, and threw "unexpected response content-type" for problem details) with a non-empty `error`.
 */
export async function expectOAuthError(
  res: Response,
  status: number,
  error: string,
): Promise<{ error: string; error_description: string }> {
  const text = await res.clone().text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  const mediaType = res.headers.get("Content-Type")?.split(";")[0];
  if (mediaType !== "application/json") throw new Error(`not application/json but ${mediaType}: ${text}`);
  const body = JSON.parse(text);
  if (body.error !== error || typeof body.error_description !== "string" || !body.error_description) {
    throw new Error(`expected error ${error} with a description: ${text}`);
  }
  return body;
}

/** A fresh client of a vendor (vendor API), created as `npm run create-client -- --vendor` does. */
export function newVendorClient(vendorId: number, scopes?: string[]): Promise<ClientCredentials> {
  return createApiClient(database(env.DB), { vendorId, name: `test vendor client ${vendorId}`, scopes, apiVersion: TESTS_VERSION });
}

/** A fresh operator client (the marketplace's own, /admin/api). */
export function newOperatorClient(scopes?: string[]): Promise<ClientCredentials> {
  return createApiClient(database(env.DB), { operator: true, name: "test operator client", scopes, apiVersion: TESTS_VERSION });
}

/** An access token really issued to a fresh operator client, cached per test file. */
export function operatorTokenFor(scopes?: string[]): Promise<string> {
  return cachedToken(`operator:${scopes?.join(" ") ?? "*"}`, async () => {
    const res = await requestToken(await newOperatorClient(scopes));
    if (res.status !== 200) throw new Error(`operator token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  });
}

/** An access token really issued to a fresh client of the vendor, cached per test file. */
export function vendorTokenFor(vendorId: number, scopes?: string[]): Promise<string> {
  return cachedToken(`vendor ${vendorId}:${scopes?.join(" ") ?? "*"}`, async () => {
    const res = await requestToken(await newVendorClient(vendorId, scopes));
    if (res.status !== 200) throw new Error(`vendor token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  });
}

/** A SCIM token of the tenant, really issued through the operator's admin API; cached per test file. */
export function scimTokenFor(tenantId: number): Promise<string> {
  return cachedToken(`scim ${tenantId}`, async () => {
    const res = await call(await operatorTokenFor(), `/admin/api/tenants/${tenantId}/scim-tokens`, {
      method: "POST",
      json: { name: "test IdP" },
    });
    if (res.status !== 201) throw new Error(`SCIM token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { token: string } }).data.token;
  });
}

/** Calls /scim/v2 as an identity provider does: application/scim+json bodies. */
export function scim(token: string | null, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const headers = new Headers();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (init.body !== undefined) headers.set("Content-Type", "application/scim+json");
  return dispatch(`${BASE_URL}/scim/v2${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Asserts a SCIM error answer (RFC 7644 3.12) of the status (and scimType, when given); returns its body. */
export async function expectScimError(res: Response, status: number, scimType?: string): Promise<Record<string, unknown>> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get("Content-Type")).toBe("application/scim+json");
  const body = await res.json<Record<string, unknown>>();
  expect(body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
  expect(body.status).toBe(String(status));
  if (scimType) expect(body.scimType).toBe(scimType);
  return body;
}

/** A fresh test-mode client of the tenant (docs/api.md, "Sandbox"): its id starts with mpc_test_. */
export function newTestModeClient(tenantId: number, scopes?: string[]): Promise<ClientCredentials> {
  return createApiClient(database(env.DB), {
    tenantId,
    testMode: true,
    name: `test-mode client ${tenantId}`,
    scopes,
    apiVersion: TESTS_VERSION,
  });
}

/** An access token really issued to a fresh test-mode client of the tenant, cached per test file. */
export function testModeTokenFor(tenantId: number): Promise<string> {
  return cachedToken(`test-mode ${tenantId}`, async () => {
    const res = await requestToken(await newTestModeClient(tenantId));
    if (res.status !== 200) throw new Error(`test-mode token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  });
}
