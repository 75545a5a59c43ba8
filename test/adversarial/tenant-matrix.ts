import { LINE_STATUSES } from "../../src/api/orders/lifecycle";
import { DEMO_ORDER_NUMBER } from "../../src/api/orders/retrieve-routes";
import type { VendorAction } from "../../src/api/vendors/fulfilment";
import { DEMO_LINE_ID } from "../../src/api/vendors/routes";
import { productId } from "../../src/dev/seed/catalog";
import { USERS } from "../../src/dev/seed/organizations";
import { demoOrderOf } from "../helpers/adversarial";
import type { ClientCredentials } from "../helpers/api";
import { issueQuote, JSMITH, KJOHNSON, lineFor, type Orderer, orderBody, withoutFields } from "../helpers/orders";
import { orderRequest, requestDocument, type TestConnection } from "../helpers/procurement";
import { RECEIVER } from "../helpers/webhooks";

/**
 * THE tenant isolation matrix: every operation of the served OpenAPI document has a row (the test fails
 * otherwise), and every id-bearing input of an operation has a case. The attacker is tenant 2 (Lakeside,
 * kjohnson); the victim is tenant 1 (St. Mary's). Each case sends the victim's value where the attacker's
 * own belongs and states what must come back:
 * - `denied`: one of `statuses`, an error body with no tenant-1 data;
 * - `empty`: a search answers 200 with the list at `list` empty (filters are tenant-scoped, not access checks).
 * `own` is the attacker's own value: the same request must then succeed, so the denial is the tenant's doing.
 * `unknown` is a value that exists nowhere: the answer must be identical, so no tenant-1 id can be probed.
 */

export interface AttackContext {
  victimClient: ClientCredentials;
  attackerClient: ClientCredentials;
  /** A price option issued to the victim (jsmith at facility 1001). */
  victimPriceOptionId: string;
  /** The attacking vendor's own lines, one per vendor move, each in a status the move starts from. */
  attackerVendorLines: Record<VendorAction | "read", number>;
  /**
   * The money side: the attacking vendor's Ordered line to confirm, a line of tenant 2's with a change waiting for its
   * answer, an invoice of the demo vendor to tenant 1 (the victim's), and the attacking vendor's invoices to tenant 2.
   */
  attackerConfirmLine: number;
  attackerPendingLine: { orderNumber: string; lineId: number };
  victimInvoice: { id: number; number: string };
  attackerInvoices: { orderNumber: string; lineId: number; number: string; read: number; accept: number; dispute: number };
  /**
   * Returns (docs/api.md, "Returns, cores, loaners and repairs"): tenant 1's (the demo vendor's core on the demo line),
   * tenant 2's own of the attacking vendor, one per operation that moves it on, and a delivered line of tenant 2 to request one on.
   */
  victimReturnId: number;
  attackerReturns: {
    read: number;
    ship: number;
    decide: number;
    authorize: number;
    decline: number;
    receive: number;
    diagnose: number;
    sendBack: number;
    deliveredLine: { orderNumber: string; lineId: number };
    vendorLine: number;
  };
  /** An event of each tenant (an order each placed). */
  victimEventId: string;
  attackerEventId: string;
  /** A webhook endpoint of tenant 1, and tenant 2's own: one per operation that may use it up (delete). */
  victimEndpointId: string;
  attackerEndpointIds: { read: string; delete: string };
  /** Procurement connections (cXML): tenant 1's, and tenant 2's own with a price option issued to tenant 2. */
  procurement: {
    victim: TestConnection;
    attacker: TestConnection;
    attackerQuote: { productId: string; priceOptionId: string; price: string };
  };
  /** An import job of the operator (the operator plane, /admin/api). */
  victimImportId: string;
  /** The demo vendor's offer (its SKU) and price agreement; the attacking vendor's own, one per operation that may use it up. */
  victimOfferSku: string;
  attackerOfferSkus: { read: string; delete: string };
  victimAgreementId: number;
  attackerAgreementIds: { read: number; patch: number; delete: number };
  /** A price file (offer import job, file price.ndjson) of the demo vendor, and the attacking vendor's own. */
  victimOfferImportId: string;
  /** A mailbox EDI partner of each vendor; the victim's has document 777 waiting in its outbox. */
  victimEdiPartnerId: number;
  attackerEdiPartnerId: number;
  attackerOfferImportId: string;
  /** Test mode: a test order of each tenant (off the sandbox's schedule), and tenant 2's test-mode event and endpoint. */
  victimTestOrderNumber: string;
  attackerTestOrderNumber: string;
  attackerTestEventId: string;
  /** An invoice of tenant 2's test mode (the simulated vendor's, of a test order). */
  attackerTestInvoiceId: number;
  attackerTestEndpointId: string;
  /**
   * Recalls (docs/recalls.md): one touching only tenant 1's units, one touching only tenant 2's (with a unit of it), each
   * loaded by a recall import.
   */
  victimRecallId: number;
  attackerRecall: { id: number; unitId: number };
  /** SCIM: a user and a group of tenant 1, and tenant 2's own (one of each per operation that may use it up). */
  victimScimUser: { id: string; userName: string };
  attackerScimUsers: { read: { id: string; userName: string }; delete: { id: string; userName: string } };
  victimScimGroup: { id: string; displayName: string };
  attackerScimGroups: { read: { id: string; displayName: string }; delete: { id: string; displayName: string } };
}

export interface AttackRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** As for `call()`: relative to /customer/api unless it starts with /auth or /health. */
  path: string;
  json?: unknown;
  /**
   * Send the attacker's bearer token: true for tenant 2's (all scopes), "vendor" for the attacking vendor's (vendor API),
   * "scim" for tenant 2's SCIM token (/scim/v2), "test" for a test-mode token of tenant 2 (the sandbox).
   * The token endpoint authenticates by itself.
   */
  bearer: boolean | "vendor" | "scim" | "test";
  idempotent?: boolean;
  /** A cXML document for POST /cxml (sent as text/xml; it authenticates itself). */
  xml?: string;
  /** An X12 file for the EDI mailbox (sent as application/edi-x12, with the bearer). */
  x12?: string;
}

type Value = string | number;

export interface AttackCase {
  input: string;
  victim: (ctx: AttackContext) => Value;
  own?: Value | ((ctx: AttackContext) => Value);
  unknown?: Value;
  request: (value: Value, ctx: AttackContext) => AttackRequest | Promise<AttackRequest>;
  /** cxml: HTTP 200 with a cXML Response whose Status is this code. */
  expect: { denied: number[] } | { empty: string } | { cxml: number };
}

/**
 * `noTenantData`: the operation takes no id of anything a tenant owns. It is called as tenant 2 (a GET of the path,
 * or `request`) and must succeed without any tenant-1 data in the answer.
 */
export type MatrixRow = { cases: AttackCase[] } | { noTenantData: string; request?: AttackRequest };

const DENIED = { denied: [403] };
const get = (path: string): AttackRequest => ({ method: "GET", path, bearer: true });
const post = (path: string, json: unknown): AttackRequest => ({ method: "POST", path, json, bearer: true });
const q = (path: string, query: string, extra = "") => get(`${path}?q=${encodeURIComponent(query)}${extra}`);
const asVendor = (request: AttackRequest): AttackRequest => ({ ...request, bearer: "vendor" });
const UNKNOWN_EVENT = "00000000-0000-4000-8000-000000000000";
const UNKNOWN_ENDPOINT = "we_unknownunknownunknown";

/** A webhook endpoint operation: tenant 1's endpoint id is a 404 exactly like an unknown one. */
const endpointRow = (request: (id: Value) => AttackRequest, own: (ctx: AttackContext) => string): { cases: AttackCase[] } => ({
  cases: [
    {
      input: "path id (tenant 1's endpoint)",
      victim: (ctx) => ctx.victimEndpointId,
      own,
      unknown: UNKNOWN_ENDPOINT,
      request,
      expect: { denied: [404] },
    },
  ],
});

/**
 * Vendor isolation: the attacker is another vendor (VENDOR_ATTACKER) aimed at the demo vendor's line of tenant 1's
 * demo order (DEMO_LINE_ID, vendor DEMO_VENDOR_ID). Another vendor's line is indistinguishable from an unknown one.
 */
export const VENDOR_ATTACKER = 5;
export const VENDOR_ATTACKER_NAME = "Evergreen Refurbishing";
const VENDOR_BODIES: Record<VendorAction, unknown> = {
  acknowledge: { promisedShipDate: "2099-01-31" },
  backorder: { expectedShipDate: "2099-01-31", reason: "isolation probe" },
  ship: { trackingNumber: "1ZISOLATION1" },
  deliver: {},
  reject: { reason: "isolation probe" },
};
const vendorMoveRow = (action: VendorAction): MatrixRow => ({
  cases: [
    {
      input: "path lineId (another vendor's line)",
      victim: () => DEMO_LINE_ID,
      own: (ctx) => ctx.attackerVendorLines[action],
      unknown: 999_999_999,
      request: (v) => asVendor(post(`/vendor/api/order-lines/${v}/${action}`, VENDOR_BODIES[action])),
      expect: { denied: [404] },
    },
  ],
});

/** An invoice of one line at 10.00, numbered afresh (each request its own document). */
const invoiceOf = (orderNumber: string, lineId: number) => ({
  invoiceNumber: `ISO-${crypto.randomUUID().slice(0, 8)}`,
  orderNumber,
  invoiceDate: new Date().toISOString().slice(0, 10),
  currency: "USD",
  lines: [{ lineId, quantity: 1, unitPrice: "10.00", amount: "10.00" }],
  summary: { subtotal: "10.00", tax: "0.00", freight: "0.00", total: "10.00" },
});

const creditOf = (invoiceId: Value) => ({
  creditMemoNumber: `ISO-CM-${crypto.randomUUID().slice(0, 8)}`,
  invoiceId,
  creditDate: new Date().toISOString().slice(0, 10),
  currency: "USD",
  lines: [{ invoiceLineNumber: 1, quantity: 0, unitPrice: "0.01", amount: "0.01" }],
  summary: { subtotal: "0.01", tax: "0.00", freight: "0.00", total: "0.01" },
});

/** A buyer's read or answer of an invoice: tenant 1's is a 404 exactly like an unknown id. */
const invoiceRow = (request: (id: Value) => AttackRequest, own: (ctx: AttackContext) => number): MatrixRow => ({
  cases: [
    {
      input: "path invoiceId (tenant 1's invoice)",
      victim: (ctx) => ctx.victimInvoice.id,
      own,
      unknown: 999_999_999,
      request,
      expect: { denied: [404] },
    },
  ],
});

/** A return (buyer's or vendor's route): tenant 1's (the demo vendor's) is a 404 exactly like an unknown id. */
const returnRow = (request: (id: Value) => AttackRequest, own: (ctx: AttackContext) => number): MatrixRow => ({
  cases: [
    {
      input: "path returnId (tenant 1's return, the demo vendor's)",
      victim: (ctx) => ctx.victimReturnId,
      own,
      unknown: 999_999_999,
      request,
      expect: { denied: [404] },
    },
  ],
});

/** A buyer's read or step of a recall: tenant 1's is a 404 exactly like an unknown id. */
const recallRow = (request: (id: Value, ctx: AttackContext) => AttackRequest): MatrixRow => ({
  cases: [
    {
      input: "path recallId (a recall touching only tenant 1's units)",
      victim: (ctx) => ctx.victimRecallId,
      own: (ctx) => ctx.attackerRecall.id,
      unknown: 999_999_999,
      request,
      expect: { denied: [404] },
    },
  ],
});

const victimUsers = USERS.filter((u) => u.tenantId === 1);
const attacker = KJOHNSON;
const victim = JSMITH;
const victimOrder = demoOrderOf(victim.tenantId);
const attackerOwnOrder = demoOrderOf(attacker.tenantId);

/** Catalog calls: the requester (contactId) and the facility are both checked against the caller's tenant. */
function catalogCases(path: string, extra: Record<string, unknown>): AttackCase[] {
  return [
    {
      input: "requesterId",
      victim: () => victim.requesterContactId,
      own: attacker.requesterContactId,
      unknown: 99_999_999,
      request: (requesterId) => post(path, { ...extra, requesterId, facilityId: attacker.facilityId }),
      expect: DENIED,
    },
    {
      input: "facilityId",
      victim: () => victim.facilityId,
      own: attacker.facilityId,
      unknown: 99_999_999,
      request: (facilityId) => post(path, { ...extra, requesterId: attacker.requesterContactId, facilityId }),
      expect: DENIED,
    },
  ];
}

let nextProduct = 300;

/** An order body of the attacker with a fresh quote of its own, one field swapped. */
async function attackerOrder(field: keyof Orderer, value: Value): Promise<AttackRequest> {
  const quote = await issueQuote(productId(nextProduct++), attacker, withoutFields);
  return { ...post("/orders", orderBody([lineFor(quote)], { ...attacker, [field]: value })), idempotent: true };
}

function orderFieldCase(input: string, field: keyof Orderer, ownValue: number, statuses: number[]): AttackCase {
  return {
    input,
    victim: () => victim[field],
    own: ownValue,
    unknown: 99_999_999,
    request: (value) => attackerOrder(field, value),
    expect: { denied: statuses },
  };
}

/**
 * The operator plane (/admin/api) takes operator tokens only: a buyer's (tenant 2) and a vendor's are refused with the
 * same 401 whether the import exists or not (`path` builds the request from an import id).
 */
const UNKNOWN_IMPORT = "imp_unknownunknownunknow";
const operatorRow = (method: AttackRequest["method"], path: (importId: Value) => string, json?: unknown): MatrixRow => {
  const request = (v: Value): AttackRequest => ({ method, path: path(v), json, bearer: true });
  return {
    cases: [
      {
        input: "a buyer's token (tenant 2) on the operator API",
        victim: (ctx) => ctx.victimImportId,
        unknown: UNKNOWN_IMPORT,
        request,
        expect: { denied: [401] },
      },
      {
        input: "a vendor's token on the operator API",
        victim: (ctx) => ctx.victimImportId,
        unknown: UNKNOWN_IMPORT,
        request: (v) => asVendor(request(v)),
        expect: { denied: [401] },
      },
    ],
  };
};
const IMPORTS = "/admin/api/catalog/imports";
const RECALL_IMPORTS = "/admin/api/recalls/imports";

/**
 * Test mode against live, both ways, within tenant 2 itself: its test-mode token on its own live data, and its live
 * token on its own test data, each a 404 like an unknown id; the same request in its own mode succeeds.
 */
const asTest = (request: AttackRequest): AttackRequest => ({ ...request, bearer: "test" });
const acrossModes = (
  input: string,
  request: (value: Value) => AttackRequest,
  live: (ctx: AttackContext) => Value,
  test: (ctx: AttackContext) => Value,
  unknown: Value,
): AttackCase[] => [
  {
    input: `${input}: a test-mode token on the tenant's live one`,
    victim: live,
    own: test,
    unknown,
    request: (v) => asTest(request(v)),
    expect: { denied: [404] },
  },
  { input: `${input}: a live token on the tenant's test one`, victim: test, own: live, unknown, request, expect: { denied: [404] } },
];

/** SCIM (/scim/v2) with tenant 2's SCIM token: tenant 1's users and groups are 404s exactly like unknown ids. */
const UNKNOWN_SCIM_ID = "999999999";
const scimRequest = (method: AttackRequest["method"], path: string, json?: unknown): AttackRequest => ({
  method,
  path,
  json,
  bearer: "scim",
});
const scimResourceRow = (
  kind: "Users" | "Groups",
  method: AttackRequest["method"],
  own: "read" | "delete",
  json?: (ctx: AttackContext) => unknown,
): MatrixRow => ({
  cases: [
    {
      input: kind === "Users" ? "SCIM user id" : "SCIM group id",
      victim: (ctx) => (kind === "Users" ? ctx.victimScimUser.id : ctx.victimScimGroup.id),
      own: (ctx) => (kind === "Users" ? ctx.attackerScimUsers[own].id : ctx.attackerScimGroups[own].id),
      unknown: UNKNOWN_SCIM_ID,
      request: (id, ctx) => scimRequest(method, `/scim/v2/${kind}/${id}`, json?.(ctx)),
      expect: { denied: [404] },
    },
  ],
});
const scimListRow = (kind: "Users" | "Groups"): MatrixRow => {
  const attribute = kind === "Users" ? "userName" : "displayName";
  const name = (ctx: AttackContext, who: "victim" | "attacker") =>
    kind === "Users"
      ? who === "victim"
        ? ctx.victimScimUser.userName
        : ctx.attackerScimUsers.read.userName
      : who === "victim"
        ? ctx.victimScimGroup.displayName
        : ctx.attackerScimGroups.read.displayName;
  return {
    cases: [
      {
        input: `SCIM ${attribute} in a filter`,
        victim: (ctx) => name(ctx, "victim"),
        own: (ctx) => name(ctx, "attacker"),
        request: (value) => scimRequest("GET", `/scim/v2/${kind}?filter=${encodeURIComponent(`${attribute} eq "${value}"`)}`),
        expect: { empty: "Resources" },
      },
      {
        input: "SCIM id in a filter",
        victim: (ctx) => (kind === "Users" ? ctx.victimScimUser.id : ctx.victimScimGroup.id),
        own: (ctx) => (kind === "Users" ? ctx.attackerScimUsers.read.id : ctx.attackerScimGroups.read.id),
        request: (value) => scimRequest("GET", `/scim/v2/${kind}?filter=${encodeURIComponent(`id eq "${value}"`)}`),
        expect: { empty: "Resources" },
      },
    ],
  };
};

/** The vendor API's offers and agreements: another vendor's SKU or agreement is a 404 exactly like an unknown one. */
const OFFERS = "/vendor/api/offers";
const AGREEMENTS = "/vendor/api/agreements";
const UNKNOWN_SKU = "NO-SUCH-SKU-000";
const UNKNOWN_AGREEMENT = 2_000_000_000;
const OFFER_BODY = {
  productId: "MP-0000001",
  condition: "New OEM",
  purchaseChoice: "Buy",
  warranty: "12 months",
  price: 10,
  leadTimeDays: 2,
};
const buyerOnVendorApi = (victim: (ctx: AttackContext) => Value, unknown: Value, request: (v: Value) => AttackRequest): AttackCase => ({
  input: "a buyer's token (tenant 2) on the vendor API",
  victim,
  unknown,
  request,
  expect: { denied: [401] },
});
const foreignSkuRow = (request: (sku: Value) => AttackRequest, own: (ctx: AttackContext) => string): MatrixRow => ({
  cases: [
    {
      input: "path sku (another vendor's offer)",
      victim: (ctx) => ctx.victimOfferSku,
      own,
      unknown: UNKNOWN_SKU,
      request: (v) => asVendor(request(v)),
      expect: { denied: [404] },
    },
    buyerOnVendorApi((ctx) => ctx.victimOfferSku, UNKNOWN_SKU, request),
  ],
});
const foreignAgreementRow = (request: (id: Value) => AttackRequest, own: (ctx: AttackContext) => number): MatrixRow => ({
  cases: [
    {
      input: "path agreementId (another vendor's agreement)",
      victim: (ctx) => ctx.victimAgreementId,
      own,
      unknown: UNKNOWN_AGREEMENT,
      request: (v) => asVendor(request(v)),
      expect: { denied: [404] },
    },
    buyerOnVendorApi((ctx) => ctx.victimAgreementId, UNKNOWN_AGREEMENT, request),
  ],
});
/** A write whose body carries no other vendor's id: only the token is under test (a buyer's is refused). */
const vendorWriteRow = (request: AttackRequest): MatrixRow => ({
  cases: [
    buyerOnVendorApi(
      (ctx) => ctx.victimOfferSku,
      UNKNOWN_SKU,
      () => request,
    ),
  ],
});
const TIERS = "/admin/api/tiers";

/** A vendor's price files: another vendor's job is a 404 exactly like an unknown one; `own` for the reads. */
const OFFER_IMPORTS = "/vendor/api/offer-imports";
const foreignOfferImportRow = (path: (id: Value) => string, method: AttackRequest["method"] = "GET", json?: unknown): MatrixRow => {
  const request = (v: Value): AttackRequest => ({ method, path: path(v), json, bearer: true });
  return {
    cases: [
      {
        input: "path id (another vendor's price file)",
        victim: (ctx) => ctx.victimOfferImportId,
        ...(method === "GET" ? { own: (ctx: AttackContext) => ctx.attackerOfferImportId } : {}),
        unknown: UNKNOWN_IMPORT,
        request: (v) => asVendor(request(v)),
        expect: { denied: [404] },
      },
      buyerOnVendorApi((ctx) => ctx.victimOfferImportId, UNKNOWN_IMPORT, request),
    ],
  };
};

/** An EDI mailbox operation: another vendor's partner is a 404 exactly like an unknown one. */
const UNKNOWN_PARTNER = 999_999;
const foreignEdiPartnerRow = (path: (partnerId: Value) => string, method: AttackRequest["method"] = "GET", body?: string): MatrixRow => {
  const request = (v: Value): AttackRequest => ({ method, path: path(v), bearer: true, ...(body === undefined ? {} : { x12: body }) });
  return {
    cases: [
      {
        input: "path partnerId (another vendor's EDI partner)",
        victim: (ctx) => ctx.victimEdiPartnerId,
        ...(method === "GET" ? { own: (ctx: AttackContext) => ctx.attackerEdiPartnerId } : {}),
        unknown: UNKNOWN_PARTNER,
        request: (v) => asVendor(request(v)),
        expect: { denied: [404] },
      },
      buyerOnVendorApi((ctx) => ctx.victimEdiPartnerId, UNKNOWN_PARTNER, request),
    ],
  };
};

export const TENANT_MATRIX: Record<string, MatrixRow> = {
  "get /health/live": { noTenantData: "liveness probe, no parameters" },
  "get /health/ready": { noTenantData: "readiness probe, no parameters" },
  "get /auth/.well-known/jwks.json": { noTenantData: "public signing keys" },
  "get /auth/.well-known/openid-configuration": { noTenantData: "public discovery document" },
  "get /auth/.well-known/oauth-authorization-server": { noTenantData: "public authorization server metadata (RFC 8414)" },
  "get /.well-known/oauth-authorization-server/auth": { noTenantData: "public authorization server metadata (RFC 8414)" },
  "get /customer/api/openapi.json": { noTenantData: "public API description" },
  "get /customer/api/manufacturers/search": { noTenantData: "manufacturers are the shared catalog, not tenant data" },

  "post /auth/oauth2/token": {
    cases: [
      {
        input: "client_id (with the attacker's own secret)",
        victim: (ctx) => ctx.victimClient.clientId,
        unknown: "mpc_doesnotexist00",
        request: (clientId, ctx) => ({
          method: "POST",
          path: "/auth/oauth2/token",
          bearer: false,
          json: { grant_type: "client_credentials", client_id: clientId, client_secret: ctx.attackerClient.clientSecret },
        }),
        expect: { denied: [401] },
      },
    ],
  },

  "get /customer/api/users/lookup": {
    cases: [
      // 403 for another tenant's user id is the spec's rule (5.6, cross-tenant access); nothing of the user is shown. An id
      // of no user is 404 (7.1): the answer tells that a number is a user id somewhere, and nothing else (docs/decisions.md).
      ...victimUsers.map((u) => ({
        input: `userId (${u.loginUserId})`,
        victim: () => u.id,
        own: attacker.userId,
        request: (v: Value) => get(`/users/lookup?userId=${v}`),
        expect: DENIED,
      })),
      // A user name is looked up in the caller's directory: another tenant's is as unknown as a name of no one.
      ...victimUsers.map((u) => ({
        input: `loginUserId (${u.loginUserId})`,
        victim: () => u.loginUserId,
        own: "kjohnson",
        unknown: "nobody-at-all",
        request: (v: Value) => get(`/users/lookup?loginUserId=${v}`),
        expect: { denied: [404] },
      })),
    ],
  },

  "get /customer/api/users/search": {
    cases: [
      {
        input: "q id",
        victim: () => victim.userId,
        own: attacker.userId,
        request: (v) => q("/users/search", `id:${v}`),
        expect: { empty: "data.items" },
      },
      {
        input: "q contactId",
        victim: () => victim.requesterContactId,
        own: attacker.requesterContactId,
        request: (v) => q("/users/search", `contactId:${v}`),
        expect: { empty: "data.items" },
      },
      {
        input: "q customerId (company)",
        victim: () => 101,
        own: 201,
        request: (v) => q("/users/search", `customerId:${v}`),
        expect: { empty: "data.items" },
      },
      {
        input: "q email",
        victim: () => "john.smith@stmarys.example",
        own: "karen.johnson@lakeside.example",
        request: (v) => q("/users/search", `email:"${v}"`),
        expect: { empty: "data.items" },
      },
      {
        input: "q companyName contains",
        victim: () => "Mary",
        own: "Lakeside",
        request: (v) => q("/users/search", `companyName~"${v}"`),
        expect: { empty: "data.items" },
      },
    ],
  },

  "post /customer/api/users/search": {
    cases: [
      {
        input: "filters.id",
        victim: () => victim.userId,
        own: attacker.userId,
        request: (v) => post("/users/search", { filters: { id: v } }),
        expect: { empty: "data.users" },
      },
      {
        input: "filters.contactId",
        victim: () => victim.requesterContactId,
        own: attacker.requesterContactId,
        request: (v) => post("/users/search", { filters: { contactId: v } }),
        expect: { empty: "data.users" },
      },
      {
        input: "filters.customerId",
        victim: () => 101,
        own: 201,
        request: (v) => post("/users/search", { filters: { customerId: v } }),
        expect: { empty: "data.users" },
      },
      {
        input: "filters.userName",
        victim: () => "jsmith",
        own: "kjohnson",
        request: (v) => post("/users/search", { filters: { userName: v } }),
        expect: { empty: "data.users" },
      },
      {
        input: "filters.companyNameContains",
        victim: () => "Mary",
        own: "Lakeside",
        request: (v) => post("/users/search", { filters: { companyNameContains: v } }),
        expect: { empty: "data.users" },
      },
    ],
  },

  "post /customer/api/catalog/search": { cases: catalogCases("/catalog/search", { filters: { query: "pump" } }) },
  "post /customer/api/catalog/detail": { cases: catalogCases("/catalog/detail", { productId: "MP-0000001" }) },
  "post /customer/api/catalog/resolve": { cases: catalogCases("/catalog/resolve", { codes: ["(01)00614100000015"] }) },

  "post /customer/api/orders": {
    cases: [
      orderFieldCase("requesterId", "requesterContactId", attacker.requesterContactId, [403]),
      orderFieldCase("userId", "userId", attacker.userId, [403]),
      orderFieldCase("facilityId", "facilityId", attacker.facilityId, [403]),
      // A wrong address is a 422 business-rule violation (documented), worded the same for any id.
      orderFieldCase("shippingAddressId", "shippingAddressId", attacker.shippingAddressId, [422]),
      orderFieldCase("billingAddressId", "billingAddressId", attacker.billingAddressId, [422]),
      {
        input: "quoteItems[].priceOptionId",
        victim: (ctx) => ctx.victimPriceOptionId,
        unknown: "00000000-0000-4000-8000-000000000000",
        request: async (priceOptionId) => {
          const line = lineFor(await issueQuote("MP-0000001", attacker, withoutFields));
          return { ...post("/orders", orderBody([{ ...line, priceOptionId: String(priceOptionId) }], attacker)), idempotent: true };
        },
        expect: { denied: [404] },
      },
    ],
  },

  "get /customer/api/orders/search": {
    cases: [
      {
        input: "q orderId",
        victim: () => victimOrder.id,
        own: attackerOwnOrder.id,
        request: (v) => q("/orders/search", `orderId:${v}`, "&include=lineItems,shippingInfo"),
        expect: { empty: "data.orders" },
      },
      {
        input: "q orderNumber",
        victim: () => victimOrder.orderNumber,
        own: attackerOwnOrder.orderNumber,
        request: (v) => q("/orders/search", `orderNumber:"${v}"`),
        expect: { empty: "data.orders" },
      },
      {
        input: "q companyId",
        victim: () => 101,
        own: 201,
        request: (v) => q("/orders/search", `companyId:${v}`),
        expect: { empty: "data.orders" },
      },
      {
        input: "q facilityId",
        victim: () => victim.facilityId,
        own: attacker.facilityId,
        request: (v) => q("/orders/search", `facilityId:${v}`),
        expect: { empty: "data.orders" },
      },
      {
        input: "q requesterId",
        victim: () => victim.requesterContactId,
        own: attacker.requesterContactId,
        request: (v) => q("/orders/search", `requesterId:${v}`, "&include=lineItems"),
        expect: { empty: "data.orders" },
      },
      {
        input: "q requesterName contains",
        victim: () => "John Smith",
        own: "Karen Johnson",
        request: (v) => q("/orders/search", `requesterName~"${v}"`),
        expect: { empty: "data.orders" },
      },
    ],
  },

  "get /customer/api/orders/{orderNumber}": {
    cases: [
      {
        input: "path orderNumber",
        victim: () => victimOrder.orderNumber,
        own: attackerOwnOrder.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v) => get(`/orders/${v}?include=lineItems,shippingInfo`),
        expect: { denied: [404] },
      },
      ...acrossModes(
        "path orderNumber",
        (v) => get(`/orders/${v}?include=lineItems,shippingInfo`),
        () => attackerOwnOrder.orderNumber,
        (ctx) => ctx.attackerTestOrderNumber,
        "ORD-20990101-ZZZZZZZZ",
      ),
    ],
  },

  "post /customer/api/orders/{orderNumber}/cancel": {
    cases: [
      {
        input: "path orderNumber",
        victim: () => victimOrder.orderNumber,
        own: attackerOwnOrder.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v) => ({ ...post(`/orders/${v}/cancel`, { partial: true }), idempotent: true }),
        expect: { denied: [404] },
      },
    ],
  },

  "post /customer/api/orders/{orderNumber}/lines/{lineId}/change-decision": {
    cases: [
      {
        input: "path orderNumber and lineId (tenant 1's order and line)",
        victim: () => victimOrder.orderNumber,
        own: (ctx) => ctx.attackerPendingLine.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v, ctx) =>
          post(
            `/orders/${v}/lines/${v === ctx.attackerPendingLine.orderNumber ? ctx.attackerPendingLine.lineId : DEMO_LINE_ID}/change-decision`,
            {
              decision: "accept",
            },
          ),
        expect: { denied: [404] },
      },
    ],
  },
  "get /customer/api/invoices": {
    cases: [
      {
        input: "q invoiceNumber (tenant 1's invoice)",
        victim: (ctx) => ctx.victimInvoice.number,
        own: (ctx) => ctx.attackerInvoices.number,
        request: (v) => q("/invoices", `invoiceNumber:"${v}"`),
        expect: { empty: "data.invoices" },
      },
      {
        input: "q orderNumber (tenant 1's order)",
        victim: () => victimOrder.orderNumber,
        own: (ctx) => ctx.attackerInvoices.orderNumber,
        request: (v) => q("/invoices", `orderNumber:"${v}"`),
        expect: { empty: "data.invoices" },
      },
    ],
  },
  "get /customer/api/invoices/{invoiceId}": {
    cases: [
      ...(
        invoiceRow(
          (v) => get(`/invoices/${v}`),
          (ctx) => ctx.attackerInvoices.read,
        ) as { cases: AttackCase[] }
      ).cases,
      ...acrossModes(
        "path invoiceId",
        (v) => get(`/invoices/${v}`),
        (ctx) => ctx.attackerInvoices.read,
        (ctx) => ctx.attackerTestInvoiceId,
        999_999_999,
      ),
    ],
  },
  "post /customer/api/invoices/{invoiceId}/accept": invoiceRow(
    (v) => post(`/invoices/${v}/accept`, {}),
    (ctx) => ctx.attackerInvoices.accept,
  ),
  "post /customer/api/invoices/{invoiceId}/dispute": invoiceRow(
    (v) => post(`/invoices/${v}/dispute`, { reason: "isolation probe" }),
    (ctx) => ctx.attackerInvoices.dispute,
  ),
  "post /customer/api/orders/{orderNumber}/lines/{lineId}/returns": {
    cases: [
      {
        input: "path orderNumber and lineId (tenant 1's delivered order and line)",
        victim: () => victimOrder.orderNumber,
        own: (ctx) => ctx.attackerReturns.deliveredLine.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v, ctx) => ({
          ...post(
            `/orders/${v}/lines/${v === ctx.attackerReturns.deliveredLine.orderNumber ? ctx.attackerReturns.deliveredLine.lineId : DEMO_LINE_ID}/returns`,
            { quantity: 1, reason: "not_needed" },
          ),
          idempotent: true,
        }),
        expect: { denied: [404] },
      },
    ],
  },
  "get /customer/api/returns": {
    cases: [
      {
        input: "q returnId (tenant 1's return)",
        victim: (ctx) => ctx.victimReturnId,
        own: (ctx) => ctx.attackerReturns.read,
        request: (v) => q("/returns", `returnId:${v}`),
        expect: { empty: "data.returns" },
      },
      {
        input: "q orderNumber (tenant 1's order)",
        victim: () => victimOrder.orderNumber,
        own: (ctx) => ctx.attackerReturns.deliveredLine.orderNumber,
        request: (v) => q("/returns", `orderNumber:"${v}"`),
        expect: { empty: "data.returns" },
      },
    ],
  },
  "get /customer/api/returns/{returnId}": returnRow(
    (v) => get(`/returns/${v}`),
    (ctx) => ctx.attackerReturns.read,
  ),
  "post /customer/api/returns/{returnId}/ship": returnRow(
    (v) => post(`/returns/${v}/ship`, { carrierName: "UPS", trackingNumber: "1ZISOLATION1" }),
    (ctx) => ctx.attackerReturns.ship,
  ),
  "post /customer/api/returns/{returnId}/repair-decision": returnRow(
    (v) => post(`/returns/${v}/repair-decision`, { decision: "approve" }),
    (ctx) => ctx.attackerReturns.decide,
  ),
  "get /customer/api/request-logs": {
    cases: [
      {
        // The log is the owner's alone: no filter reaches another tenant's (test/request-logs has the attacker's own).
        input: "q clientId (tenant 1's client)",
        victim: (ctx) => ctx.victimClient.clientId,
        request: (v) => q("/request-logs", `clientId:"${v}"`),
        expect: { empty: "data.requests" },
      },
    ],
  },
  "get /customer/api/recalls": {
    cases: [
      {
        input: "q recallId (a recall touching only tenant 1's units)",
        victim: (ctx) => ctx.victimRecallId,
        own: (ctx) => ctx.attackerRecall.id,
        request: (v) => q("/recalls", `recallId:${v}`),
        expect: { empty: "data.recalls" },
      },
      {
        input: "q orderNumber (tenant 1's order)",
        victim: () => victimOrder.orderNumber,
        request: (v) => q("/recalls", `orderNumber:"${v}"`),
        expect: { empty: "data.recalls" },
      },
    ],
  },
  "get /customer/api/recalls/{recallId}": recallRow((v) => get(`/recalls/${v}`)),
  "post /customer/api/recalls/{recallId}/acknowledge": recallRow((v) => post(`/recalls/${v}/acknowledge`, undefined)),
  "post /customer/api/recalls/{recallId}/units": recallRow((v, ctx) =>
    post(`/recalls/${v}/units`, { units: [{ unitId: ctx.attackerRecall.unitId, disposition: "found" }] }),
  ),
  "post /customer/api/recalls/{recallId}/returns": recallRow((v) => ({ ...post(`/recalls/${v}/returns`, {}), idempotent: true })),
  "get /customer/api/purchasing-settings": { noTenantData: "the caller's own settings; no id input" },
  "put /customer/api/purchasing-settings": {
    noTenantData: "replaces the caller's own settings; no id input",
    request: {
      method: "PUT",
      path: "/purchasing-settings",
      json: { autoAcceptPriceIncrease: null, priceTolerance: { percent: null, amount: null }, quantityTolerance: 0 },
      bearer: true,
    },
  },

  "get /customer/api/events": {
    cases: [
      {
        input: "after (a cursor: tenant 1's event id)",
        victim: (ctx) => ctx.victimEventId,
        own: (ctx) => ctx.attackerEventId,
        unknown: UNKNOWN_EVENT,
        request: (v) => get(`/events?after=${v}`),
        expect: { denied: [400] },
      },
    ],
  },
  "get /customer/api/events/{eventId}": {
    cases: [
      {
        input: "path eventId",
        victim: (ctx) => ctx.victimEventId,
        own: (ctx) => ctx.attackerEventId,
        unknown: UNKNOWN_EVENT,
        request: (v) => get(`/events/${v}`),
        expect: { denied: [404] },
      },
      ...acrossModes(
        "path eventId",
        (v) => get(`/events/${v}`),
        (ctx) => ctx.attackerEventId,
        (ctx) => ctx.attackerTestEventId,
        UNKNOWN_EVENT,
      ),
    ],
  },
  "post /customer/api/webhook-endpoints": {
    noTenantData: "registers the caller's own endpoint; no id input",
    request: post("/webhook-endpoints", { url: `${RECEIVER}/ok/attacker`, eventTypes: ["*"] }),
  },
  "get /customer/api/webhook-endpoints": { noTenantData: "lists the caller's own endpoints; no id input" },
  "get /customer/api/webhook-endpoints/{id}": {
    cases: [
      ...(
        endpointRow(
          (v) => get(`/webhook-endpoints/${v}`),
          (ctx) => ctx.attackerEndpointIds.read,
        ) as { cases: AttackCase[] }
      ).cases,
      ...acrossModes(
        "path id",
        (v) => get(`/webhook-endpoints/${v}`),
        (ctx) => ctx.attackerEndpointIds.read,
        (ctx) => ctx.attackerTestEndpointId,
        UNKNOWN_ENDPOINT,
      ),
    ],
  },
  "post /customer/api/test-helpers/orders/{orderNumber}/simulate": {
    cases: [
      {
        input: "path orderNumber (tenant 1's test order, tenant 2's test-mode token)",
        victim: (ctx) => ctx.victimTestOrderNumber,
        own: (ctx) => ctx.attackerTestOrderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v) => asTest(post(`/test-helpers/orders/${v}/simulate`, { scenario: "backorder" })),
        expect: { denied: [404] },
      },
      {
        input: "path orderNumber (tenant 2's own test order, its live token: no such route)",
        victim: (ctx) => ctx.attackerTestOrderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v) => post(`/test-helpers/orders/${v}/simulate`, { scenario: "backorder" }),
        expect: { denied: [404] },
      },
    ],
  },
  "delete /customer/api/webhook-endpoints/{id}": endpointRow(
    (v) => ({ method: "DELETE", path: `/webhook-endpoints/${v}`, bearer: true }),
    (ctx) => ctx.attackerEndpointIds.delete,
  ),
  "post /customer/api/webhook-endpoints/{id}/test": {
    cases: [
      ...endpointRow(
        (v) => post(`/webhook-endpoints/${v}/test`, {}),
        (ctx) => ctx.attackerEndpointIds.read,
      ).cases,
      {
        // The body is validated once the endpoint is found: a body its owner would see refused (400) is still a 404.
        input: "path id (tenant 1's endpoint) with an unknown event type in the body",
        victim: (ctx) => ctx.victimEndpointId,
        unknown: UNKNOWN_ENDPOINT,
        request: (v) => post(`/webhook-endpoints/${v}/test`, { type: "order.exploded" }),
        expect: { denied: [404] },
      },
    ],
  },
  "get /customer/api/webhook-endpoints/{id}/deliveries": endpointRow(
    (v) => get(`/webhook-endpoints/${v}/deliveries`),
    (ctx) => ctx.attackerEndpointIds.read,
  ),

  "get /vendor/api/order-lines": {
    cases: [
      {
        input: "orderNumber filter (an order the attacking vendor has no line on)",
        victim: () => victimOrder.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v) => asVendor(get(`/vendor/api/order-lines?orderNumber=${v}&status=${LINE_STATUSES.join(",")}`)),
        expect: { empty: "data.lines" },
      },
    ],
  },
  "get /vendor/api/order-lines/{lineId}": {
    cases: [
      {
        input: "path lineId (another vendor's line)",
        victim: () => DEMO_LINE_ID,
        own: (ctx) => ctx.attackerVendorLines.read,
        unknown: 999_999_999,
        request: (v) => asVendor(get(`/vendor/api/order-lines/${v}`)),
        expect: { denied: [404] },
      },
      {
        input: "a buyer's token (tenant 2) on the vendor API",
        victim: () => DEMO_LINE_ID,
        unknown: 999_999_999,
        request: (v) => get(`/vendor/api/order-lines/${v}`),
        expect: { denied: [401] },
      },
    ],
  },
  "post /vendor/api/order-confirmations": {
    cases: [
      {
        input: "lines[0].lineId (another vendor's line)",
        victim: () => DEMO_LINE_ID,
        own: (ctx) => ctx.attackerConfirmLine,
        unknown: 999_999_999,
        request: (v) =>
          asVendor(post("/vendor/api/order-confirmations", { type: "accept", lines: [{ lineId: v }], promisedShipDate: "2099-01-31" })),
        expect: { denied: [404] },
      },
    ],
  },
  "post /vendor/api/invoices": {
    cases: [
      {
        input: "orderNumber and lines[0].lineId (another vendor's order and line)",
        victim: () => victimOrder.orderNumber,
        own: (ctx) => ctx.attackerInvoices.orderNumber,
        unknown: "ORD-20990101-ZZZZZZZZ",
        request: (v, ctx) =>
          asVendor(
            post(
              "/vendor/api/invoices",
              invoiceOf(String(v), v === ctx.attackerInvoices.orderNumber ? ctx.attackerInvoices.lineId : DEMO_LINE_ID),
            ),
          ),
        expect: { denied: [404] },
      },
    ],
  },
  "post /vendor/api/credit-memos": {
    cases: [
      {
        input: "invoiceId (another vendor's invoice)",
        victim: (ctx) => ctx.victimInvoice.id,
        own: (ctx) => ctx.attackerInvoices.read,
        unknown: 999_999_999,
        request: (v) => asVendor(post("/vendor/api/credit-memos", creditOf(v))),
        expect: { denied: [404] },
      },
      {
        input: "orderNumber + invoiceNumber (another vendor's invoice, by the vendor's numbers; its order line by lineId)",
        victim: (ctx) => ctx.victimInvoice.number,
        own: (ctx) => ctx.attackerInvoices.number,
        unknown: "NO-SUCH-INVOICE",
        request: (v, ctx) => {
          const victims = v === ctx.victimInvoice.number;
          const { invoiceId: _, lines, ...head } = creditOf(0);
          return asVendor(
            post("/vendor/api/credit-memos", {
              ...head,
              orderNumber: victims ? DEMO_ORDER_NUMBER : ctx.attackerInvoices.orderNumber,
              invoiceNumber: v,
              lines: lines.map(({ invoiceLineNumber: __, ...line }) => ({
                ...line,
                lineId: victims ? DEMO_LINE_ID : ctx.attackerInvoices.lineId,
              })),
            }),
          );
        },
        expect: { denied: [404] },
      },
    ],
  },
  "get /vendor/api/invoices/{invoiceId}": {
    cases: [
      {
        input: "path invoiceId (another vendor's invoice)",
        victim: (ctx) => ctx.victimInvoice.id,
        own: (ctx) => ctx.attackerInvoices.read,
        unknown: 999_999_999,
        request: (v) => asVendor(get(`/vendor/api/invoices/${v}`)),
        expect: { denied: [404] },
      },
      {
        // No unknown id: the token is refused before any id is read (and a short id would mask the status's digits).
        input: "a buyer's token (tenant 2) on the vendor API",
        victim: (ctx) => ctx.victimInvoice.id,
        request: (v) => get(`/vendor/api/invoices/${v}`),
        expect: { denied: [401] },
      },
    ],
  },
  "get /vendor/api/request-logs": {
    cases: [
      {
        input: "q clientId (tenant 1's client) on the vendor's log",
        victim: (ctx) => ctx.victimClient.clientId,
        request: (v) => asVendor(q("/vendor/api/request-logs", `clientId:"${v}"`)),
        expect: { empty: "data.requests" },
      },
    ],
  },
  "get /vendor/api/recalls": {
    noTenantData: "the vendor's own notices and the counts of its own units; no id input, never a hospital's name",
    request: asVendor(get("/vendor/api/recalls")),
  },
  "post /vendor/api/recalls": {
    noTenantData: "publishes the vendor's own notice; no id of anything a tenant owns",
    request: asVendor(
      post("/vendor/api/recalls", {
        noticeNumber: "FSN-ISOLATION",
        productDescription: "Isolation probe",
        reason: "isolation probe",
        partNumbers: ["ISO-NO-SUCH-PART"],
      }),
    ),
  },
  "get /vendor/api/returns/{returnId}": returnRow(
    (v) => asVendor(get(`/vendor/api/returns/${v}`)),
    (ctx) => ctx.attackerReturns.read,
  ),
  "get /vendor/api/order-lines/{lineId}/returns": {
    cases: [
      {
        input: "path lineId (another vendor's line)",
        victim: () => DEMO_LINE_ID,
        own: (ctx) => ctx.attackerReturns.vendorLine,
        request: (v) => asVendor(get(`/vendor/api/order-lines/${v}/returns`)),
        expect: { empty: "data.returns" },
      },
    ],
  },
  "post /vendor/api/returns/{returnId}/authorize": returnRow(
    (v) => asVendor(post(`/vendor/api/returns/${v}/authorize`, { rmaNumber: "RMA-ISO", returnBy: "2099-01-31" })),
    (ctx) => ctx.attackerReturns.authorize,
  ),
  "post /vendor/api/returns/{returnId}/decline": returnRow(
    (v) => asVendor(post(`/vendor/api/returns/${v}/decline`, { reason: "isolation probe" })),
    (ctx) => ctx.attackerReturns.decline,
  ),
  "post /vendor/api/returns/{returnId}/receive": returnRow(
    (v) => asVendor(post(`/vendor/api/returns/${v}/receive`, { outcome: "accepted" })),
    (ctx) => ctx.attackerReturns.receive,
  ),
  "post /vendor/api/returns/{returnId}/diagnose": returnRow(
    (v) => asVendor(post(`/vendor/api/returns/${v}/diagnose`, { withinFlatRate: true })),
    (ctx) => ctx.attackerReturns.diagnose,
  ),
  "post /vendor/api/returns/{returnId}/send-back": returnRow(
    (v) => asVendor(post(`/vendor/api/returns/${v}/send-back`, { carrierName: "UPS", trackingNumber: "1ZISOLATION2" })),
    (ctx) => ctx.attackerReturns.sendBack,
  ),
  "post /vendor/api/order-lines/{lineId}/acknowledge": vendorMoveRow("acknowledge"),
  "post /vendor/api/order-lines/{lineId}/backorder": vendorMoveRow("backorder"),
  "post /vendor/api/order-lines/{lineId}/ship": vendorMoveRow("ship"),
  "post /vendor/api/order-lines/{lineId}/deliver": vendorMoveRow("deliver"),
  "post /vendor/api/order-lines/{lineId}/reject": vendorMoveRow("reject"),
  "post /vendor/api/shipments": {
    cases: [
      {
        // The attacker's own: the line its ship row ships, in the same parcel (whichever runs first ships it, the other repeats it).
        input: "lines[0].lineId (another vendor's line)",
        victim: () => DEMO_LINE_ID,
        own: (ctx) => ctx.attackerVendorLines.ship,
        unknown: 999_999_999,
        request: (v) => asVendor(post("/vendor/api/shipments", { ...(VENDOR_BODIES.ship as object), lines: [{ lineId: v }] })),
        expect: { denied: [404] },
      },
    ],
  },
  // API clients and the audit log: the operator's only (a buyer's or a vendor's token is the same 401 on any id).
  "post /admin/api/clients": operatorRow("POST", () => "/admin/api/clients", { kind: "tenant", tenantId: 2, name: "matrix" }),
  "get /admin/api/clients": operatorRow("GET", () => "/admin/api/clients"),
  "get /admin/api/clients/{clientId}": operatorRow("GET", (id) => `/admin/api/clients/${id}`),
  "patch /admin/api/clients/{clientId}": operatorRow("PATCH", (id) => `/admin/api/clients/${id}`, { apiVersion: "2026-11-23" }),
  "post /admin/api/clients/{clientId}/disable": operatorRow("POST", (id) => `/admin/api/clients/${id}/disable`),
  "post /admin/api/clients/{clientId}/secrets": operatorRow("POST", (id) => `/admin/api/clients/${id}/secrets`, {}),
  "post /admin/api/procurement-connections": operatorRow("POST", () => "/admin/api/procurement-connections", {
    tenantId: 2,
    name: "matrix",
  }),
  "get /admin/api/procurement-connections": operatorRow("GET", () => "/admin/api/procurement-connections"),
  "get /admin/api/procurement-connections/{connectionId}": operatorRow("GET", () => "/admin/api/procurement-connections/1"),
  "put /admin/api/procurement-connections/{connectionId}": operatorRow("PUT", () => "/admin/api/procurement-connections/1", {
    name: "matrix",
  }),
  "post /admin/api/edi-partners": operatorRow("POST", () => "/admin/api/edi-partners", { vendorId: 2, name: "matrix" }),
  "get /admin/api/edi-partners": operatorRow("GET", () => "/admin/api/edi-partners"),
  "get /admin/api/edi-partners/{partnerId}": operatorRow("GET", () => "/admin/api/edi-partners/1"),
  "put /admin/api/edi-partners/{partnerId}": operatorRow("PUT", () => "/admin/api/edi-partners/1", { name: "matrix" }),
  "post /vendor/api/edi/partners/{partnerId}/inbound": foreignEdiPartnerRow(
    (id) => `/vendor/api/edi/partners/${id}/inbound`,
    "POST",
    "ISA*00*          *00*          *ZZ*MATRIX         *ZZ*MEDPARTS       *260101*1200*U*00401*000000001*0*P*>~",
  ),
  "get /vendor/api/edi/partners/{partnerId}/outbound": foreignEdiPartnerRow((id) => `/vendor/api/edi/partners/${id}/outbound`),
  "get /vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}": foreignEdiPartnerRow(
    (id) => `/vendor/api/edi/partners/${id}/outbound/777`,
  ),
  "delete /vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}": foreignEdiPartnerRow(
    (id) => `/vendor/api/edi/partners/${id}/outbound/777`,
    "DELETE",
  ),
  "post /cxml": {
    cases: [
      {
        // Tenant 1's connection named by its identity, with tenant 2's SharedSecret: as unknown as an identity of nobody.
        input: "From/Sender identity (with the attacker's own SharedSecret)",
        victim: (ctx) => ctx.procurement.victim.buyer.identity,
        unknown: "AN-NOBODY-AT-ALL",
        own: (ctx) => ctx.procurement.attacker.buyer.identity,
        request: (identity, ctx) => ({
          method: "POST",
          path: "/cxml",
          bearer: false,
          xml: requestDocument(
            { ...ctx.procurement.attacker, buyer: { domain: "NetworkID", identity: String(identity) } },
            "<ProfileRequest/>",
          ),
        }),
        expect: { cxml: 401 },
      },
      {
        // A quote issued to tenant 1 (SupplierPartAuxiliaryID) in tenant 2's OrderRequest: refused like a made-up one.
        input: "SupplierPartAuxiliaryID (a price option issued to tenant 1)",
        victim: (ctx) => ctx.victimPriceOptionId,
        own: (ctx) => ctx.procurement.attackerQuote.priceOptionId,
        request: (priceOptionId, ctx) => {
          const quote = ctx.procurement.attackerQuote;
          const line = { productId: quote.productId, priceOptionId: String(priceOptionId), quantity: 1, price: quote.price };
          return {
            method: "POST",
            path: "/cxml",
            bearer: false,
            xml: requestDocument(ctx.procurement.attacker, orderRequest(`PO-MATRIX-${crypto.randomUUID().slice(0, 8)}`, [line])),
          };
        },
        expect: { cxml: 400 },
      },
    ],
  },
  "get /admin/api/audit": operatorRow("GET", () => "/admin/api/audit"),
  "post /admin/api/tenants": operatorRow("POST", () => "/admin/api/tenants", { externalId: "MATRIX-T", name: "matrix" }),
  "get /admin/api/tenants": operatorRow("GET", () => "/admin/api/tenants"),
  "get /admin/api/tenants/{tenantId}": operatorRow("GET", () => "/admin/api/tenants/1"),
  "patch /admin/api/tenants/{tenantId}": operatorRow("PATCH", () => "/admin/api/tenants/1", { name: "matrix" }),
  "post /admin/api/companies": operatorRow("POST", () => "/admin/api/companies", { externalId: "MATRIX-C", tenantId: 2, name: "matrix" }),
  "get /admin/api/companies": operatorRow("GET", () => "/admin/api/companies"),
  "get /admin/api/companies/{companyId}": operatorRow("GET", () => "/admin/api/companies/1"),
  "patch /admin/api/companies/{companyId}": operatorRow("PATCH", () => "/admin/api/companies/1", { name: "matrix" }),
  "post /admin/api/facilities": operatorRow("POST", () => "/admin/api/facilities", {
    externalId: "MATRIX-F",
    companyId: 201,
    name: "matrix",
  }),
  "get /admin/api/facilities": operatorRow("GET", () => "/admin/api/facilities"),
  "get /admin/api/facilities/{facilityId}": operatorRow("GET", () => "/admin/api/facilities/1"),
  "patch /admin/api/facilities/{facilityId}": operatorRow("PATCH", () => "/admin/api/facilities/1", { name: "matrix" }),
  "post /admin/api/addresses": operatorRow("POST", () => "/admin/api/addresses", {
    externalId: "MATRIX-A",
    companyId: 201,
    kind: "billing",
    line1: "x",
    city: "x",
    state: "x",
    zip: "x",
    country: "US",
  }),
  "get /admin/api/addresses": operatorRow("GET", () => "/admin/api/addresses"),
  "get /admin/api/addresses/{addressId}": operatorRow("GET", () => "/admin/api/addresses/1"),
  "patch /admin/api/addresses/{addressId}": operatorRow("PATCH", () => "/admin/api/addresses/1", { name: "matrix" }),
  "post /admin/api/vendors": operatorRow("POST", () => "/admin/api/vendors", {
    externalId: "MATRIX-V",
    name: "matrix",
    returnPolicy: "none",
  }),
  "get /admin/api/vendors": operatorRow("GET", () => "/admin/api/vendors"),
  "get /admin/api/vendors/{vendorId}": operatorRow("GET", () => "/admin/api/vendors/1"),
  "patch /admin/api/vendors/{vendorId}": operatorRow("PATCH", () => "/admin/api/vendors/1", { name: "matrix" }),
  "post /admin/api/tenants/{tenantId}/disable": operatorRow("POST", () => "/admin/api/tenants/1/disable"),
  "post /admin/api/vendors/{vendorId}/disable": operatorRow("POST", () => "/admin/api/vendors/1/disable"),
  "post /admin/api/vendors/{vendorId}/desk-users": operatorRow("POST", () => "/admin/api/vendors/1/desk-users", {
    email: "matrix@vendor.example",
    displayName: "Matrix",
    role: "desk",
  }),
  "post /admin/api/facilities/{facilityId}/disable": operatorRow("POST", () => "/admin/api/facilities/1001/disable"),
  "post /admin/api/companies/{companyId}/disable": operatorRow("POST", () => "/admin/api/companies/101/disable"),
  "post /admin/api/addresses/{addressId}/disable": operatorRow("POST", () => "/admin/api/addresses/11/disable"),
  "post /admin/api/tenants/{tenantId}/scim-tokens": operatorRow("POST", () => "/admin/api/tenants/1/scim-tokens", { name: "matrix" }),
  "get /admin/api/tenants/{tenantId}/scim-tokens": operatorRow("GET", () => "/admin/api/tenants/1/scim-tokens"),
  "post /admin/api/tenants/{tenantId}/scim-tokens/{tokenId}/revoke": operatorRow("POST", () => "/admin/api/tenants/1/scim-tokens/1/revoke"),
  "get /scim/v2/ServiceProviderConfig": {
    noTenantData: "the service provider's configuration",
    request: scimRequest("GET", "/scim/v2/ServiceProviderConfig"),
  },
  "get /scim/v2/ResourceTypes": { noTenantData: "the resource types", request: scimRequest("GET", "/scim/v2/ResourceTypes") },
  "get /scim/v2/Schemas": { noTenantData: "the schemas", request: scimRequest("GET", "/scim/v2/Schemas") },
  "get /scim/v2/ResourceTypes/{id}": { noTenantData: "a resource type", request: scimRequest("GET", "/scim/v2/ResourceTypes/User") },
  "get /scim/v2/Schemas/{id}": {
    noTenantData: "a schema",
    request: scimRequest("GET", "/scim/v2/Schemas/urn:ietf:params:scim:schemas:core:2.0:User"),
  },
  "get /scim/v2/Users": scimListRow("Users"),
  "post /scim/v2/Users": {
    noTenantData: "creates a user of the caller's tenant; user names are unique per tenant",
    request: scimRequest("POST", "/scim/v2/Users", { userName: "matrix-created@lakeside.example" }),
  },
  "get /scim/v2/Users/{id}": scimResourceRow("Users", "GET", "read"),
  "put /scim/v2/Users/{id}": scimResourceRow("Users", "PUT", "read", (ctx) => ({ userName: ctx.attackerScimUsers.read.userName })),
  "patch /scim/v2/Users/{id}": scimResourceRow("Users", "PATCH", "read", () => ({
    Operations: [{ op: "replace", path: "displayName", value: "matrix" }],
  })),
  "delete /scim/v2/Users/{id}": scimResourceRow("Users", "DELETE", "delete"),
  "get /scim/v2/Groups": scimListRow("Groups"),
  "post /scim/v2/Groups": {
    noTenantData: "creates a group of the caller's tenant; group names are unique per tenant",
    request: scimRequest("POST", "/scim/v2/Groups", { displayName: "matrix-created" }),
  },
  "get /scim/v2/Groups/{id}": scimResourceRow("Groups", "GET", "read"),
  "put /scim/v2/Groups/{id}": scimResourceRow("Groups", "PUT", "read", (ctx) => ({ displayName: ctx.attackerScimGroups.read.displayName })),
  "patch /scim/v2/Groups/{id}": scimResourceRow("Groups", "PATCH", "read", () => ({
    Operations: [{ op: "add", path: "members", value: [] }],
  })),
  "delete /scim/v2/Groups/{id}": scimResourceRow("Groups", "DELETE", "delete"),
  "post /admin/api/recalls/imports": operatorRow("POST", () => RECALL_IMPORTS, { format: "openfda" }),
  "get /admin/api/recalls/imports": operatorRow("GET", () => RECALL_IMPORTS),
  "get /admin/api/recalls/imports/{id}": operatorRow("GET", (id) => `${RECALL_IMPORTS}/${id}`),
  "put /admin/api/recalls/imports/{id}/files/{name}": operatorRow("PUT", (id) => `${RECALL_IMPORTS}/${id}/files/victim.json`, {}),
  "post /admin/api/recalls/imports/{id}/files/{name}/uploads": operatorRow(
    "POST",
    (id) => `${RECALL_IMPORTS}/${id}/files/victim.json/uploads`,
  ),
  "put /admin/api/recalls/imports/{id}/files/{name}/parts/{partNumber}": operatorRow(
    "PUT",
    (id) => `${RECALL_IMPORTS}/${id}/files/victim.json/parts/1`,
    {},
  ),
  "get /admin/api/recalls/imports/{id}/files/{name}": operatorRow("GET", (id) => `${RECALL_IMPORTS}/${id}/files/victim.json`),
  "post /admin/api/recalls/imports/{id}/files/{name}/complete": operatorRow(
    "POST",
    (id) => `${RECALL_IMPORTS}/${id}/files/victim.json/complete`,
  ),
  "post /admin/api/recalls/imports/{id}/start": operatorRow("POST", (id) => `${RECALL_IMPORTS}/${id}/start`),
  "post /admin/api/recalls/imports/{id}/cancel": operatorRow("POST", (id) => `${RECALL_IMPORTS}/${id}/cancel`),
  "get /admin/api/recalls/imports/{id}/errors": operatorRow("GET", (id) => `${RECALL_IMPORTS}/${id}/errors`),
  "get /admin/api/recalls/imports/{id}/errors.ndjson": operatorRow("GET", (id) => `${RECALL_IMPORTS}/${id}/errors.ndjson`),
  "post /admin/api/catalog/imports": operatorRow("POST", () => IMPORTS, { format: "ndjson" }),
  "get /admin/api/catalog/imports": operatorRow("GET", () => IMPORTS),
  "get /admin/api/catalog/imports/{id}": operatorRow("GET", (id) => `${IMPORTS}/${id}`),
  "put /admin/api/catalog/imports/{id}/files/{name}": operatorRow("PUT", (id) => `${IMPORTS}/${id}/files/victim.ndjson`, {}),
  "post /admin/api/catalog/imports/{id}/files/{name}/uploads": operatorRow("POST", (id) => `${IMPORTS}/${id}/files/victim.ndjson/uploads`),
  "put /admin/api/catalog/imports/{id}/files/{name}/parts/{partNumber}": operatorRow(
    "PUT",
    (id) => `${IMPORTS}/${id}/files/victim.ndjson/parts/1`,
    {},
  ),
  "get /admin/api/catalog/imports/{id}/files/{name}": operatorRow("GET", (id) => `${IMPORTS}/${id}/files/victim.ndjson`),
  "post /admin/api/catalog/imports/{id}/files/{name}/complete": operatorRow(
    "POST",
    (id) => `${IMPORTS}/${id}/files/victim.ndjson/complete`,
  ),
  "post /admin/api/catalog/imports/{id}/start": operatorRow("POST", (id) => `${IMPORTS}/${id}/start`),
  "post /admin/api/catalog/imports/{id}/cancel": operatorRow("POST", (id) => `${IMPORTS}/${id}/cancel`),
  "get /admin/api/catalog/imports/{id}/errors": operatorRow("GET", (id) => `${IMPORTS}/${id}/errors`),
  "get /admin/api/catalog/imports/{id}/errors.ndjson": operatorRow("GET", (id) => `${IMPORTS}/${id}/errors.ndjson`),
  "get /admin/api/events": operatorRow("GET", () => "/admin/api/events"),

  "get /vendor/api/offers": {
    cases: [
      {
        input: "q sku (another vendor's offer)",
        victim: (ctx) => ctx.victimOfferSku,
        own: (ctx) => ctx.attackerOfferSkus.read,
        request: (v) => asVendor(q(OFFERS, `sku:"${v}"`)),
        expect: { empty: "data.offers" },
      },
      buyerOnVendorApi(
        (ctx) => ctx.victimOfferSku,
        UNKNOWN_SKU,
        (v) => q(OFFERS, `sku:"${v}"`),
      ),
    ],
  },
  "get /vendor/api/offers/{sku}": foreignSkuRow(
    (v) => get(`${OFFERS}/${v}`),
    (ctx) => ctx.attackerOfferSkus.read,
  ),
  "delete /vendor/api/offers/{sku}": foreignSkuRow(
    (v) => ({ method: "DELETE", path: `${OFFERS}/${v}`, bearer: true }),
    (ctx) => ctx.attackerOfferSkus.delete,
  ),
  // A SKU names an offer within the vendor's own offers: a PUT under another vendor's SKU makes the caller's own offer
  // (test/offers/offers.test.ts shows the other vendor's is untouched), so only the token is under test here.
  "put /vendor/api/offers/{sku}": {
    cases: [
      buyerOnVendorApi(
        (ctx) => ctx.victimOfferSku,
        UNKNOWN_SKU,
        (v) => ({ method: "PUT", path: `${OFFERS}/${v}`, json: OFFER_BODY, bearer: true }),
      ),
    ],
  },
  "post /vendor/api/offers/batch": vendorWriteRow(post(`${OFFERS}/batch`, { offers: [{ sku: "MATRIX-1", ...OFFER_BODY }] })),
  "post /vendor/api/offer-imports": vendorWriteRow(post(OFFER_IMPORTS, { format: "ndjson" })),
  "get /vendor/api/offer-imports": {
    noTenantData: "the attacking vendor's own price files only (another vendor's are 404 by id, below)",
    request: asVendor(get(OFFER_IMPORTS)),
  },
  "get /vendor/api/offer-imports/{id}": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}`),
  "get /vendor/api/offer-imports/{id}/files/{name}": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/files/price.ndjson`),
  "get /vendor/api/offer-imports/{id}/errors": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/errors`),
  "get /vendor/api/offer-imports/{id}/errors.ndjson": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/errors.ndjson`),
  "put /vendor/api/offer-imports/{id}/files/{name}": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/files/price.ndjson`, "PUT", {}),
  "post /vendor/api/offer-imports/{id}/files/{name}/uploads": foreignOfferImportRow(
    (id) => `${OFFER_IMPORTS}/${id}/files/price.ndjson/uploads`,
    "POST",
  ),
  "put /vendor/api/offer-imports/{id}/files/{name}/parts/{partNumber}": foreignOfferImportRow(
    (id) => `${OFFER_IMPORTS}/${id}/files/price.ndjson/parts/1`,
    "PUT",
    {},
  ),
  "post /vendor/api/offer-imports/{id}/files/{name}/complete": foreignOfferImportRow(
    (id) => `${OFFER_IMPORTS}/${id}/files/price.ndjson/complete`,
    "POST",
  ),
  "post /vendor/api/offer-imports/{id}/start": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/start`, "POST"),
  "post /vendor/api/offer-imports/{id}/cancel": foreignOfferImportRow((id) => `${OFFER_IMPORTS}/${id}/cancel`, "POST"),
  "post /vendor/api/agreements": vendorWriteRow(
    post(AGREEMENTS, {
      reference: "MATRIX",
      scope: { kind: "tenant", tenantId: 2 },
      effectiveFrom: "2099-01-01T00:00:00Z",
      prices: [{ productId: "MP-0000001", price: 5 }],
    }),
  ),
  "get /vendor/api/agreements": {
    noTenantData: "the attacking vendor's own agreements only (another vendor's are 404 by id, below)",
    request: asVendor(get(AGREEMENTS)),
  },
  "get /vendor/api/agreements/{agreementId}": foreignAgreementRow(
    (v) => get(`${AGREEMENTS}/${v}`),
    (ctx) => ctx.attackerAgreementIds.read,
  ),
  "patch /vendor/api/agreements/{agreementId}": foreignAgreementRow(
    (v) => ({ method: "PATCH", path: `${AGREEMENTS}/${v}`, json: { effectiveTo: "2093-06-01T00:00:00Z" }, bearer: true }),
    (ctx) => ctx.attackerAgreementIds.patch,
  ),
  "delete /vendor/api/agreements/{agreementId}": foreignAgreementRow(
    (v) => ({ method: "DELETE", path: `${AGREEMENTS}/${v}`, bearer: true }),
    (ctx) => ctx.attackerAgreementIds.delete,
  ),
  "post /admin/api/tiers": operatorRow("POST", () => TIERS, { name: "Matrix tier" }),
  "get /admin/api/tiers": operatorRow("GET", () => TIERS),
  "put /admin/api/tiers/{tierId}/tenants/{tenantId}": operatorRow("PUT", () => `${TIERS}/1/tenants/1`),
  "delete /admin/api/tiers/{tierId}/tenants/{tenantId}": operatorRow("DELETE", () => `${TIERS}/1/tenants/1`),
};
