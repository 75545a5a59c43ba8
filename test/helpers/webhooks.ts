import { json, TENANT_A, tokenFor } from "./api";
import { contractCall } from "./contract";

/**
 * The test receiver (vitest.config.mts): https://receiver.example.com/{ok,fail,flaky}/<anything>. Its name is public,
 * as the production URL rule requires, and no one else's: example.com is reserved for documentation (RFC 2606).
 */
export const RECEIVER = "https://receiver.example.com";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  /** The simulated AS2 partner's asynchronous MDN (vitest.config.mts): its headers and its body in base64. */
  mdn?: { headers: Record<string, string>; body: string };
}

/** What reached the receiver at `path` so far. */
export async function receivedAt(path: string): Promise<Received[]> {
  return (await (await fetch(`${RECEIVER}/__received?path=${encodeURIComponent(path)}`)).json()) as Received[];
}

/** Registers an endpoint through the API; returns its id and signing secret. */
export async function registerEndpoint(url: string, eventTypes: string[] = ["*"], tenantId = TENANT_A) {
  const res = await contractCall(await tokenFor(tenantId), "/webhook-endpoints", { method: "POST", json: { url, eventTypes } });
  if (res.status !== 201) throw new Error(`endpoint registration failed: ${res.status} ${await res.text()}`);
  return (await json(res)).data as { id: string; secret: string; url: string };
}

/** A fresh receiver path of the kind: each test sees only its own deliveries. */
export const receiverPath = (kind: "ok" | "fail" | "flaky" | "hang") => `/${kind}/${crypto.randomUUID()}`;

/** Lets the hanging requests at a /hang/... path answer. */
export const releaseHanging = async (path: string) => {
  await (await fetch(`${RECEIVER}/__release?path=${encodeURIComponent(path)}`)).text();
};
