import { database } from "../../src/db/client";
import type { Bindings } from "../../src/env";
import { createApiClient } from "../../src/shared/auth/clients";
import { randomToken } from "../../src/shared/auth/secrets";
import type { LoadRequest } from "./load";

/** Plain HTTP calls the harness makes itself while preparing scenarios (not measured). */
export interface BenchTarget {
  baseUrl: string;
  token: string;
}

export const API_PREFIX = "/customer/api";

/** The harness's own API client of tenant 1, with a fresh secret (an existing client of that id gets the new one). */
/** The tenant of the bench's own clients. */
export const BENCH_CLIENT_TENANT = 1;

export function createBenchClient(env: Pick<Bindings, "DB">, clientId: string, name: string) {
  return createApiClient(database(env.DB), { tenantId: BENCH_CLIENT_TENANT, name, clientId, clientSecret: randomToken(24) });
}

/** The vendor whose lines the invoice scenario bills: the demo vendor, which offers every demo product new (src/dev/seed/catalog.ts). */
export const BENCH_VENDOR = 4;

/** The harness's own vendor client (the demo vendor's), with a fresh secret. */
export function createBenchVendorClient(env: Pick<Bindings, "DB">) {
  return createApiClient(database(env.DB), {
    vendorId: BENCH_VENDOR,
    name: "Benchmark vendor",
    clientId: "bench-vendor",
    clientSecret: randomToken(24),
  });
}

export function jsonPost(path: string, token: string, body: unknown, headers: Record<string, string> = {}): LoadRequest {
  return {
    method: "POST",
    path,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

export function authedGet(path: string, token: string): LoadRequest {
  return { method: "GET", path, headers: { authorization: `Bearer ${token}` } };
}

export async function send<T>(baseUrl: string, request: LoadRequest, expectedStatus = 200): Promise<T> {
  const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status !== expectedStatus) {
    throw new Error(`${request.method} ${request.path} answered ${res.status} (expected ${expectedStatus}): ${text.slice(0, 400)}`);
  }
  return JSON.parse(text) as T;
}

export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const body = await send<{ access_token: string }>(baseUrl, tokenRequest(clientId, clientSecret));
  return body.access_token;
}

export function tokenRequest(clientId: string, clientSecret: string): LoadRequest {
  return {
    method: "POST",
    path: "/auth/oauth2/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }).toString(),
  };
}
