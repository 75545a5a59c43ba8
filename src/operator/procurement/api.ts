import { listedErrors } from "../../platform/errors";
import { Remembered } from "../../platform/remembered";
import { sha256Hex } from "../../platform/sha256";
import { LATEST_VERSION, VERSION_HEADER } from "../../platform/versions/calendar";

/**
 * The gateway and the PunchOut shop act for a connection exactly as an integrator does: with an access token of the
 * connection's client (got with the SharedSecret the suite sent), through the customer API (the API Worker, over the API
 * service binding). Tenant isolation, test mode, quotes, idempotency and rate limits are the API's own; none is redone here.
 * Requests are pinned to the version this gateway was built with, so a later API version never changes what it reads.
 */

export interface ApiBinding {
  API: Fetcher;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/**
 * Tokens per client and secret, kept for the caller's `verifySeconds` (and never past a minute before they expire): a
 * request within them spends no round trip on one.
 */
const tokens = new Remembered<IssuedToken>(Date.now, 1000, (issued) => issued.expiresAt);
const TOKEN_MARGIN_MS = 60_000;

/** The customer API's base path on the API Worker. */
const CUSTOMER_API_BASE = "/customer/api";

export class ApiUnavailable extends Error {}

/** The API binding of the operator plane's Worker (admin/wrangler.toml; the test Worker serves it itself). */
export const apiOf = (env: unknown) => env as ApiBinding;

/**
 * An access token for the client, or null when the API refuses the credentials (unknown or disabled client, wrong
 * secret). `sourceIp` is the suite's, so the token endpoint's per-address limit counts the suite, not the gateway.
 */
export async function accessToken(
  env: ApiBinding,
  clientId: string,
  secret: string,
  sourceIp: string | undefined,
  verifySeconds: number,
): Promise<IssuedToken | null> {
  const key = `${clientId} ${await sha256Hex(secret)}`;
  const load = async (): Promise<IssuedToken> => {
    const res = await env.API.fetch(
      new Request("https://api.internal/auth/oauth2/token", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(sourceIp ? { "CF-Connecting-IP": sourceIp } : {}) },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }),
      }),
    );
    if (res.status === 400 || res.status === 401) return { token: "", expiresAt: 0 };
    if (!res.ok) throw new ApiUnavailable(`the token endpoint answered ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    return { token: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 - TOKEN_MARGIN_MS };
  };
  // A token got more than `verifySeconds` ago is got again: the secret is checked anew, so a rotated (or a disabled
  // client's) secret stops working here within those seconds, as a disabled client does on the API.
  const remembered = tokens.peek(key, verifySeconds);
  let issued: IssuedToken;
  if (remembered) issued = remembered;
  else {
    issued = await load();
    if (issued.token !== "") tokens.set(key, issued);
  }
  return issued.token === "" ? null : issued;
}

/** Forgets every token (tests that rotate or disable a client). */
export const forgetTokens = () => tokens.clear();

export interface ApiAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export type ApiMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * A call of one of the API Worker's planes (`/customer/api`, `/vendor/api`) with the token, pinned to LATEST_VERSION: the
 * answer's status and JSON body, whatever the status. A body of bytes is sent as is (application/octet-stream, an
 * upload), any other as JSON. A network failure of the binding is thrown, as fetch throws it.
 */
export async function callPlane<T = unknown>(
  env: ApiBinding,
  base: string,
  token: string,
  method: ApiMethod,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const bytes = body instanceof Uint8Array;
  const res = await env.API.fetch(
    new Request(`https://api.internal${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        [VERSION_HEADER]: LATEST_VERSION,
        ...(body === undefined ? {} : { "Content-Type": bytes ? "application/octet-stream" : "application/json" }),
        // An upload's length, which the import's upload route requires (a binding's request may not carry one).
        ...(bytes ? { "Content-Length": String(body.byteLength) } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: bytes ? body : JSON.stringify(body) }),
    }),
  );
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A customer API call with the token: the answer's status and JSON body, whatever the status. */
export const callApi = <T = unknown>(
  env: ApiBinding,
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> => callPlane<T>(env, CUSTOMER_API_BASE, token, method, path, body, headers);

/** The messages of an API error answer, whichever of its forms (problem details, the 422 form, an idempotency conflict). */
export function apiErrors(body: unknown): string[] {
  const value = body as { detail?: string; errors?: unknown; error?: string } | null;
  if (!value) return [];
  const listed = listedErrors(value.errors).map(({ field, detail }) => (field === undefined ? detail : `${field}: ${detail}`));
  return listed.length > 0 ? listed : [value.detail ?? value.error ?? ""].filter(Boolean);
}
