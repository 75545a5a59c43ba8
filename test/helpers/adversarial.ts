import { env } from "cloudflare:test";
import { expect } from "vitest";
import { demoOrders } from "../../src/dev/seed/orders";
import { ADDRESSES, COMPANIES, FACILITIES, USERS } from "../../src/dev/seed/organizations";
import { DEFAULT_PRODUCT_COUNT } from "../../src/dev/seed/seed";
import { TENANT_A } from "./api";
import { expectMatchesContract } from "./contract";
import { countsInEveryStore } from "./stores";

/** Shared checks of the adversarial suite: the error forms of spec 7.2, row counts, tenant data markers. */

/** What an error answer must never contain: stack frames, source paths, SQL, storage errors. */
export const LEAK_MARKERS = /\bat \S+ \(|\.ts:\d+|SQLITE|D1_|\bselect\b.+\bfrom\b|stack|TypeError|RangeError|undefined is not/i;

export type ErrorForm = "problem" | "validation" | "controller" | "idempotency" | "oauth" | "scim";

/**
 * Asserts a 4xx (never a 5xx) whose body is one of the spec's error forms and matches the operation's
 * documented response in the served OpenAPI document. Returns the form and the parsed body.
 */
export async function expectSpecError(res: Response, method: string, path: string): Promise<{ form: ErrorForm; body: any }> {
  const text = await res.clone().text();
  expect(res.status, `${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  await expectMatchesContract(res, method, path);
  const body = JSON.parse(text);
  const mediaType = res.headers.get("Content-Type") ?? "";
  let form: ErrorForm | undefined;
  if (mediaType.startsWith("application/problem+json")) {
    expect(body.status).toBe(res.status);
    form = body.errors && !Array.isArray(body.errors) ? "validation" : "problem";
  } else if (body.success === false && Array.isArray(body.errors)) form = "controller";
  else if (res.status === 409 && Object.keys(body).join() === "error") form = "idempotency";
  else if (path.startsWith("/auth/oauth2/token") && typeof body.error === "string" && typeof body.error_description === "string")
    form = "oauth";
  else if (
    path.startsWith("/scim/v2/") &&
    mediaType.startsWith("application/scim+json") &&
    body.schemas?.[0] === "urn:ietf:params:scim:api:messages:2.0:Error" &&
    body.status === String(res.status)
  )
    form = "scim";
  expect(form, `not a spec error form: ${text.slice(0, 300)}`).toBeDefined();
  if (form === "validation") expect(res.status).toBe(400);
  if (form === "controller") expect(res.status).toBe(422);
  expectNothingInternal(text);
  return { form: form!, body };
}

/** Error bodies name no internals: no stack traces, SQL, binding names or storage errors. */
export function expectNothingInternal(text: string) {
  expect(text).not.toMatch(LEAK_MARKERS);
}

export interface TableCounts {
  orders: number;
  order_lines: number;
  quotes: number;
  used_quotes: number;
  shipping_documents: number;
  outbox_events: number;
  api_clients: number;
  /** Sum of the orders' versions: every change to an existing order (cancel, vendor move) raises it. */
  order_versions: number;
  webhook_endpoints: number;
  /** The operator plane's import jobs (catalog database). */
  catalog_imports: number;
  /** Offer revisions, price agreements and tiers (migrations/0016). */
  vendor_offers: number;
  price_agreements: number;
  price_tiers: number;
}

/** Tables of a tenant's own data, counted in every tenant's stores (docs/tenant-stores.md), added up. */
const STORE_COUNTS = {
  orders: "SELECT count(*) AS n FROM orders",
  order_lines: "SELECT count(*) AS n FROM order_lines",
  quotes: "SELECT count(*) AS n FROM quotes",
  used_quotes: "SELECT count(*) AS n FROM quotes WHERE used_by_order_id IS NOT NULL",
  shipping_documents: "SELECT count(*) AS n FROM shipping_documents",
  outbox_events: "SELECT count(*) AS n FROM outbox_events",
  order_versions: "SELECT coalesce(sum(version), 0) AS n FROM orders",
  webhook_endpoints: "SELECT count(*) AS n FROM webhook_endpoints",
} as const;

/** The control plane's tables, counted in DB. */
const CONTROL_COUNTS = {
  api_clients: "SELECT count(*) AS n FROM api_clients",
  vendor_offers: "SELECT count(*) AS n FROM vendor_offers",
  price_agreements: "SELECT count(*) AS n FROM price_agreements",
  price_tiers: "SELECT count(*) AS n FROM price_tiers",
} as const;

export async function tableCounts(): Promise<TableCounts> {
  const [inStores, control, imports] = await Promise.all([
    countsInEveryStore(STORE_COUNTS),
    env.DB.batch<{ n: number }>(Object.values(CONTROL_COUNTS).map((sql) => env.DB.prepare(sql))),
    env.CATALOG.prepare("SELECT count(*) AS n FROM catalog_imports").first<{ n: number }>(),
  ]);
  const inDb = Object.fromEntries(Object.keys(CONTROL_COUNTS).map((name, index) => [name, control[index]!.results[0]!.n]));
  return { ...inStores, ...inDb, catalog_imports: imports!.n } as TableCounts;
}

/** Runs `action` and asserts that no row of the order, quote, event or client tables was added, and no order changed. */
export async function expectNoWrites(action: () => Promise<unknown>): Promise<void> {
  const before = await tableCounts();
  await action();
  expect(await tableCounts()).toEqual(before);
}

// ---- Tenant 1 ("victim") data, from the deterministic seed ----

const victimCompanies = COMPANIES.filter((c) => c.tenantId === TENANT_A);
const victimCompanyIds = new Set(victimCompanies.map((c) => c.id));
const victimUsers = USERS.filter((u) => u.tenantId === TENANT_A);
const victimFacilities = FACILITIES.filter((f) => victimCompanyIds.has(f.companyId));
const victimAddresses = ADDRESSES.filter((a) => victimCompanyIds.has(a.companyId));
const allDemoOrders = demoOrders(DEFAULT_PRODUCT_COUNT);
const victimOrders = allDemoOrders.filter((o) => o.tenantId === TENANT_A);

/** The first seeded demo order of a tenant. */
export const demoOrderOf = (tenantId: number) => allDemoOrders.find((o) => o.tenantId === tenantId)!;

/** Strings that only tenant 1's records contain (names shared with other tenants, like "Smith", are left out). */
export const VICTIM_STRINGS: readonly string[] = [
  ...victimUsers.flatMap((u) => [u.email, u.loginUserId, `${u.firstName} ${u.lastName}`]),
  ...victimCompanies.map((c) => c.name),
  ...victimFacilities.map((f) => f.name),
  ...victimAddresses.map((a) => a.line1),
  ...victimOrders.map((o) => o.orderNumber),
];

/** Ids of tenant 1's records, by the JSON key they appear under in our responses. */
const VICTIM_IDS: Record<string, ReadonlySet<number>> = {
  contactId: new Set(victimUsers.map((u) => u.contactId)),
  requesterId: new Set(victimUsers.map((u) => u.contactId)),
  userId: new Set(victimUsers.map((u) => u.id)),
  companyId: new Set(victimCompanyIds),
  facilityId: new Set(victimFacilities.map((f) => f.id)),
  orderId: new Set(victimOrders.map((o) => o.id)),
};

/** Every (key, value) pair in a JSON document. */
function* entries(value: unknown): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield* entries(item);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      yield [k, v];
      yield* entries(v);
    }
  }
}

/** Asserts that the response text names no tenant-1 record: no distinctive string, no tenant-1 id under an id key. */
export function expectNoVictimData(text: string, context: string, extraStrings: readonly string[] = []) {
  for (const marker of [...VICTIM_STRINGS, ...extraStrings]) {
    expect(text.includes(marker), `${context}: response contains tenant-1 data "${marker}": ${text.slice(0, 300)}`).toBe(false);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  for (const [key, value] of entries(parsed)) {
    if (typeof value === "number" && VICTIM_IDS[key]?.has(value)) {
      throw new Error(`${context}: response carries tenant-1 ${key} ${value}: ${text.slice(0, 300)}`);
    }
  }
}
