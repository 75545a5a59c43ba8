import { env } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERED_EVENT_TYPES } from "../../src/api/events/types";
import { PAYMENT_METHOD_CODES, SHIPPING_METHOD_CODES } from "../../src/api/orders/options";
import { DEMO_ORDER_NUMBER } from "../../src/api/orders/retrieve-routes";
import { DISPOSITIONS } from "../../src/api/recalls/schemas";
import { RETURN_REASONS } from "../../src/api/returns/request";
import type { VendorAction } from "../../src/api/vendors/fulfilment";
import { DEMO_LINE_ID, DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { CATALOG_FORMATS, ERROR_POLICIES, IMPORT_MODES } from "../../src/operator/imports/jobs";
import { MAX_PRICE } from "../../src/operator/offers/schemas";
import { API_VERSIONS, FIRST_VERSION } from "../../src/platform/versions/calendar";
import { fieldPath } from "../../src/platform/zod-errors";
import { PURCHASE_TYPES } from "../../src/shared/catalog/purchase-terms";
import { CATALOG_SORT_FIELDS } from "../../src/shared/catalog/search-sql";
import { CODE_SPELLINGS, CONFIRMATION_TYPES } from "../../src/shared/confirmations/codes";
import { rangeFloor } from "../../src/shared/tenants/id-ranges";
import { demoOrderOf, expectNoWrites, expectSpecError, LEAK_MARKERS } from "../helpers/adversarial";
import {
  type ClientCredentials,
  call,
  newClient,
  operatorTokenFor,
  scim,
  scimTokenFor,
  TENANT_A,
  testModeTokenFor,
  tokenFor,
  vendorTokenFor,
} from "../helpers/api";
import { expectMatchesContract, operationsOf, servedDocument } from "../helpers/contract";
import { runs } from "../helpers/depth";
import { partnerInput } from "../helpers/edi";
import {
  DEEP_BODIES,
  encodeBody,
  hostileArray,
  hostileCode,
  hostileCount,
  hostileId,
  hostileObject,
  hostilePrice,
  hostileText,
  MALFORMED_BODIES,
  nonString,
  rawNumber,
} from "../helpers/hostile";
import { ndjson, runImport } from "../helpers/imports";
import { issueQuote, JSMITH, KJOHNSON, lineFor, orderBody, putLineIn, withoutFields } from "../helpers/orders";
import { connectionMapping } from "../helpers/procurement";
import { forgetStores, storeRows, storeRowsById } from "../helpers/stores";
import { RECEIVER } from "../helpers/webhooks";
import { enforcementRecord, RECALL_IMPORTS, recallIdOf, shippedUnits } from "../recalls/helpers";

/**
 * Every JSON endpoint gets random and malformed bodies (spec 7.2): the answer is a 4xx in one of the
 * spec's error forms, documented for the operation, never a 5xx, and nothing is written. Each target starts
 * from a body the endpoint accepts (the last test proves it), so a mutation reaches as deep as it can.
 */

type Path = (string | number)[];
interface Field {
  path: Path;
  hostile: fc.Arbitrary<unknown>;
  /** Deleting a required field must be refused too. */
  required?: boolean;
}
interface Target {
  /** Default POST. */
  method?: "POST" | "PUT" | "PATCH";
  path: string;
  /** The documented path template, when `path` fills in a parameter. */
  operation?: string;
  token: () => Promise<string | null>;
  headers?: () => Record<string, string>;
  base: () => Record<string, unknown>;
  fields: Field[];
  /** A random body that happens to be valid may succeed (searches: every filter optional). */
  readOnly: boolean;
  /** Before the base body is sent (last test): bring the target into a state that accepts it. */
  acceptsBase?: () => Promise<void>;
  /**
   * The body is optional, and so is every field of it: an empty body is no body (src/platform/content-type.ts) and `{}`
   * gives no field, both of which the route answers as documented (POST /webhook-endpoints/{id}/test sends its test
   * event); every other body is checked.
   */
  optionalBody?: true;
  /** The status of an accepted base body (default 200). */
  accepts?: number;
  /**
   * RFC 6749 3.2: the token endpoint ignores parameters it does not know; RFC 7643 3: SCIM resources are extensible (the
   * attributes an identity provider maps are kept). Every other body refuses them.
   */
  ignoresUnknownFields?: true;
  /**
   * A batch validated row by row (POST /vendor/api/offers/batch): an unknown field inside a row at this array rejects
   * that row (200, the row's result naming the field), not the request.
   */
  rowsAt?: Path;
}

const RUNS = {
  fields: runs({ quick: 15, deep: 60 }),
  whole: runs({ quick: 6, deep: 24 }),
  duplicates: runs({ quick: 3, deep: 12 }),
  unknownFields: runs({ quick: 6, deep: 24 }),
};

/** A test order of tenant 1 (made in beforeAll, off the sandbox's schedule, Backordered) and a webhook endpoint of it. */
const FUZZ_TEST_ORDER: { orderNumber: string } = { orderNumber: "" };
/** The recall the recall targets answer: one touching a unit of tenant 1, loaded by the file's first recall import. */
const FUZZ_RECALL = { id: 0, unitId: 0 };
const FUZZ_ENDPOINT_ID = "we_fuzzsamplesendpoint0";

let orderBase: Record<string, unknown>;
let tokenClient: ClientCredentials;
const allScopes = () => tokenFor(TENANT_A);

const facilityIds: Field[] = [
  { path: ["requesterId"], hostile: hostileId(), required: true },
  { path: ["facilityId"], hostile: hostileId(), required: true },
];

/** A hostile instant: wrong types, impossible dates, no offset. */
const hostileInstant = (nullable = false) =>
  fc.oneof(
    nonString(nullable),
    fc.constantFrom("2999-13-01T00:00:00Z", "yesterday", "2024-01-01", "", "2024-01-01T25:00:00Z", "2024-01-01T00:00:00"),
  );

/** The fuzzed agreement (beforeAll writes it for the demo vendor): PATCH changes its end. */
const FUZZ_AGREEMENT_ID = 700_001;

/**
 * The returns the targets below step: the demo line's, the demo vendor's, tenant 1's, in its store (ids of its range,
 * far from the store's own).
 */
const FUZZ_RETURNS = {
  ship: rangeFloor(TENANT_A) + 910_001,
  decide: rangeFloor(TENANT_A) + 910_002,
  authorize: rangeFloor(TENANT_A) + 910_003,
  decline: rangeFloor(TENANT_A) + 910_004,
  receive: rangeFloor(TENANT_A) + 910_005,
  diagnose: rangeFloor(TENANT_A) + 910_006,
  sendBack: rangeFloor(TENANT_A) + 910_007,
};
/** The API client whose secret the rotation target rotates (beforeAll writes it; acceptsBase ends its overlap). */
const FUZZ_CLIENT_ID = "mpc_fuzzrotation";

const TARGETS: Target[] = [
  {
    path: "/auth/oauth2/token",
    ignoresUnknownFields: true,
    token: async () => null,
    base: () => ({ grant_type: "client_credentials", client_id: tokenClient.clientId, client_secret: tokenClient.clientSecret }),
    fields: [
      {
        path: ["grant_type"],
        hostile: fc.oneof(
          nonString(),
          fc.string().filter((s) => s !== "client_credentials"),
        ),
        required: true,
      },
      { path: ["client_id"], hostile: nonString(), required: true },
      { path: ["client_secret"], hostile: fc.oneof(nonString(), fc.string({ unit: "grapheme", maxLength: 80 })), required: true },
      { path: ["scope"], hostile: fc.oneof(nonString(), fc.constantFrom("", " ", "admin", "users:read admin", "users:write")) },
    ],
    readOnly: false,
  },
  {
    path: "/catalog/search",
    token: allScopes,
    base: () => ({
      requesterId: JSMITH.requesterContactId,
      facilityId: JSMITH.facilityId,
      filters: { query: "pump" },
      pagination: { limit: 5 },
    }),
    fields: [
      ...facilityIds,
      { path: ["filters"], hostile: hostileObject(true) },
      { path: ["filters", "query"], hostile: hostileText(200, { nullable: true }) },
      { path: ["filters", "facets"], hostile: hostileArray(10, true) },
      {
        path: ["filters", "facets", 0],
        hostile: fc.oneof(hostileObject(), fc.record({ field: hostileCode(["manufacturer", "category"]), values: fc.constant(["x"]) })),
      },
      { path: ["filters", "facets", 0, "values"], hostile: fc.oneof(hostileArray(50), fc.constant([]), fc.constant([" "])) },
      { path: ["pagination"], hostile: hostileObject(true) },
      {
        path: ["pagination", "limit"],
        hostile: fc.oneof(fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.integer())),
      },
      { path: ["pagination", "sortBy"], hostile: hostileCode(CATALOG_SORT_FIELDS, true) },
      { path: ["pagination", "sortDirection"], hostile: hostileCode(["Asc", "Desc"], true) },
    ],
    readOnly: true,
  },
  {
    path: "/catalog/detail",
    token: allScopes,
    base: () => ({ productId: "MP-0000001", requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId }),
    fields: [
      ...facilityIds,
      {
        path: ["productId"],
        hostile: fc.oneof(hostileText(64, { min: 1 }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 })),
        required: true,
      },
    ],
    readOnly: false,
  },
  {
    path: "/catalog/resolve",
    token: allScopes,
    base: () => ({ codes: ["(01)00614100000015(10)LOT1", "10D9T"], requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId }),
    fields: [
      // Without one of requesterId and facilityId the other is refused: they go together (asking for quotes).
      ...facilityIds,
      {
        path: ["codes"],
        hostile: fc.oneof(
          hostileArray(50),
          fc.constantFrom([], [""], ["x".repeat(513)], [1], [null], [["(01)00614100000015"]], [{ code: "x" }]),
        ),
        required: true,
      },
    ],
    readOnly: false,
  },
  {
    path: "/users/search",
    token: allScopes,
    base: () => ({ filters: { lastNameContains: "smi" }, pagination: { limit: 5 } }),
    fields: [
      { path: ["filters"], hostile: hostileObject() },
      { path: ["filters", "lastNameContains"], hostile: hostileText(200, { min: 3 }) },
      { path: ["filters", "email"], hostile: hostileText(200, { min: 1 }) },
      {
        path: ["filters", "id"],
        hostile: fc.oneof(
          fc.constantFrom("1", "NaN", true, null, [1], rawNumber("1e400"), rawNumber("123456789012345678901234567890")),
          fc.integer({ max: -1 }),
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
        ),
      },
      { path: ["filters", "noSuchFilter"], hostile: fc.jsonValue() },
      { path: ["pagination"], hostile: hostileObject() },
    ],
    readOnly: true,
  },
  {
    path: "/orders",
    accepts: 201,
    token: () => tokenFor(TENANT_A, ["orders:write"]),
    headers: () => ({ "Idempotency-Key": crypto.randomUUID() }),
    base: () => orderBase,
    fields: [
      ...(["requesterId", "userId", "facilityId", "shippingAddressId", "billingAddressId"] as const).map((name) => ({
        path: [name],
        hostile: hostileId(),
        required: true,
      })),
      { path: ["shippingMethod"], hostile: hostileCode(SHIPPING_METHOD_CODES), required: true },
      { path: ["quoteItems"], hostile: fc.oneof(hostileArray(50), fc.constant([])), required: true },
      { path: ["quoteItems", 0], hostile: hostileObject() },
      {
        path: ["quoteItems", 0, "priceOptionId"],
        hostile: fc.oneof(hostileText(100, { min: 1 }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 })),
        required: true,
      },
      {
        path: ["quoteItems", 0, "productId"],
        hostile: fc.oneof(hostileText(100, { min: 1 }), fc.constantFrom("MP-0000002", "mp-0000001 ", "MP-9999999")),
        required: true,
      },
      { path: ["quoteItems", 0, "quantity"], hostile: fc.oneof(hostileId(), fc.integer({ min: 10_000 })), required: true },
      {
        path: ["quoteItems", 0, "price"],
        hostile: fc.oneof(hostileId(), fc.constantFrom(0.001, 1.005, -1, 0, 1e-7), fc.double({ min: 0.01, max: 1e9, noNaN: true })),
        required: true,
      },
      {
        path: ["quoteItems", 0, "requiredFields"],
        hostile: fc.oneof(
          hostileArray(50, true),
          fc.constant([
            { fieldId: "a", value: "1" },
            { fieldId: "a", value: "2" },
          ]),
        ),
      },
      // null is no hostile value: poNumber is optional (spec 4.7; test/orders/create-order.test.ts orders without it).
      { path: ["poNumber"], hostile: fc.oneof(hostileText(50, { nullable: true }), fc.constantFrom("", "   ")) },
      { path: ["payment"], hostile: fc.oneof(hostileObject(true), fc.record({ paymentMethod: hostileCode(PAYMENT_METHOD_CODES) })) },
      { path: ["notes"], hostile: hostileText(2000, { nullable: true }) },
    ],
    readOnly: false,
  },
  {
    // The demo order, cancelled as far as it can be before the run (beforeAll): a valid body is then a harmless
    // no-op 200 (nothing left to cancel, no event), so random valid documents may succeed like a read.
    path: `/orders/${DEMO_ORDER_NUMBER}/cancel`,
    operation: "/orders/{orderNumber}/cancel",
    token: allScopes,
    headers: () => ({ "Idempotency-Key": crypto.randomUUID() }),
    base: () => ({ lineIds: demoOrderOf(TENANT_A).lines.map((l) => l.id), reason: "fuzz", partial: true }),
    fields: [
      { path: ["lineIds"], hostile: fc.oneof(hostileArray(100, true), fc.constant([1, 1]), fc.constant([999_999_999]), fc.constant([])) },
      {
        path: ["reason"],
        hostile: fc.oneof(
          fc.integer(),
          fc.boolean(),
          fc.constant([]),
          fc.constant({}),
          fc.string({ unit: "grapheme", minLength: 501, maxLength: 520 }),
        ),
      },
      { path: ["partial"], hostile: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant([])) },
    ],
    readOnly: true,
  },
  {
    path: "/webhook-endpoints",
    token: allScopes,
    base: () => ({ url: `${RECEIVER}/ok/fuzz`, eventTypes: ["order.shipped"] }),
    fields: [
      {
        path: ["url"],
        hostile: fc.oneof(
          hostileText(2048),
          fc.constantFrom(
            "",
            "http://erp.example.org/x",
            "https://127.0.0.1/x",
            "https://169.254.169.254/",
            "https://intranet/x",
            "https://localhost./x",
            "https://0x7f.1/x",
            "https://[::127.0.0.1]/x",
            "http://user:pass@localhost/x",
            "javascript:alert(1)",
          ),
        ),
        required: true,
      },
      {
        path: ["eventTypes"],
        hostile: fc.oneof(hostileArray(20), fc.constant([]), fc.constant(["order.lost"]), fc.constant(["*", "*"])),
        required: true,
      },
      { path: ["apiVersion"], hostile: hostileCode(API_VERSIONS) },
    ],
    readOnly: false,
    accepts: 201,
  },
  ...vendorMoveTargets(),
  {
    path: "/vendor/api/offer-imports",
    token: () => vendorTokenFor(DEMO_VENDOR_ID),
    base: () => ({ format: "csv", mode: "upsert", dryRun: true, onError: "rejectAll", maxErrors: 0 }),
    fields: [
      { path: ["format"], hostile: fc.oneof(hostileCode(["ndjson", "csv"]), fc.constant("gudid")), required: true },
      { path: ["mode"], hostile: fc.oneof(hostileCode(["upsert"]), fc.constant("replace")) },
      { path: ["dryRun"], hostile: fc.oneof(fc.constantFrom("true", "false", 0, 1, null), fc.string()) },
      { path: ["onError"], hostile: hostileCode(ERROR_POLICIES) },
      { path: ["maxErrors"], hostile: fc.oneof(hostileCount(), fc.constant(100_001)) },
    ],
    readOnly: false,
    accepts: 201,
  },
  {
    path: "/admin/api/clients",
    token: () => operatorTokenFor(),
    base: () => ({ kind: "tenant", tenantId: TENANT_A, name: "Fuzz ERP", scopes: ["catalog:read"] }),
    fields: [
      { path: ["kind"], hostile: hostileCode(["tenant", "vendor", "operator"]), required: true },
      { path: ["tenantId"], hostile: fc.oneof(hostileId(), fc.constant(999_999_999)), required: true },
      { path: ["name"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", "   ")), required: true },
      { path: ["scopes"], hostile: fc.oneof(hostileArray(20), fc.constant([]), fc.constant(["offers:write"]), fc.constant(["nope"])) },
    ],
    readOnly: false,
    accepts: 201,
  },
  ...organizationTargets(),
  ...scimTargets(),
  ...sandboxTargets(),
  ...purchasingTargets(),
  ...returnTargets(),
  ...procurementTargets(),
  ...ediPartnerTargets(),
  {
    method: "PATCH",
    path: `/admin/api/clients/${FUZZ_CLIENT_ID}`,
    operation: "/admin/api/clients/{clientId}",
    token: () => operatorTokenFor(),
    base: () => ({ apiVersion: FIRST_VERSION }),
    fields: [{ path: ["apiVersion"], hostile: hostileCode(API_VERSIONS), required: true }],
    readOnly: false,
  },
  {
    path: `/admin/api/clients/${FUZZ_CLIENT_ID}/secrets`,
    operation: "/admin/api/clients/{clientId}/secrets",
    token: () => operatorTokenFor(),
    base: () => ({ previousExpiresInSeconds: 60 }),
    fields: [{ path: ["previousExpiresInSeconds"], hostile: fc.oneof(hostileCount(), fc.constantFrom(604_801, 1.5, -1)), required: true }],
    readOnly: false,
    accepts: 201,
    acceptsBase: async () => {
      await env.DB.prepare("UPDATE api_clients SET previous_secret_hash = NULL, previous_secret_expires_at = NULL WHERE client_id = ?")
        .bind(FUZZ_CLIENT_ID)
        .run();
    },
  },
  {
    path: "/admin/api/catalog/imports",
    token: () => operatorTokenFor(),
    base: () => ({ format: "ndjson", mode: "upsert", dryRun: false, onError: "skipFailedRows", maxErrors: 10, maxWithdrawPercent: 5 }),
    fields: [
      { path: ["format"], hostile: hostileCode(CATALOG_FORMATS), required: true },
      { path: ["mode"], hostile: hostileCode(IMPORT_MODES) },
      { path: ["dryRun"], hostile: fc.oneof(fc.constantFrom("true", "false", 0, 1, null), fc.string()) },
      { path: ["onError"], hostile: hostileCode(ERROR_POLICIES) },
      { path: ["maxErrors"], hostile: fc.oneof(hostileCount(), fc.constant(100_001)) },
      { path: ["maxWithdrawPercent"], hostile: fc.oneof(hostileCount(), fc.constantFrom(101, -1, 12.5)) },
    ],
    readOnly: false,
    accepts: 201,
  },
  ...pricingTargets(),
  ...recallTargets(),
];

/** Recalls: the operator's recall import, the hospital's steps on a recall, the vendor's notice. */
function recallTargets(): Target[] {
  const strings = (max: number, items: number) => fc.oneof(hostileArray(items), fc.array(hostileText(max), { minLength: 1, maxLength: 2 }));
  return [
    {
      path: "/admin/api/recalls/imports",
      token: () => operatorTokenFor(),
      base: () => ({ format: "openfda", mode: "upsert", dryRun: false, onError: "skipFailedRows", maxErrors: 10 }),
      fields: [
        { path: ["format"], hostile: hostileCode(["openfda", "ndjson"]), required: true },
        { path: ["mode"], hostile: hostileCode(["upsert"]) },
        { path: ["onError"], hostile: hostileCode(ERROR_POLICIES) },
        { path: ["maxErrors"], hostile: fc.oneof(hostileCount(), fc.constant(100_001)) },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      get path() {
        return `/recalls/${FUZZ_RECALL.id}/units`;
      },
      operation: "/recalls/{recallId}/units",
      token: allScopes,
      base: () => ({ units: [{ unitId: FUZZ_RECALL.unitId, disposition: "found" }] }),
      fields: [
        { path: ["units"], hostile: fc.oneof(hostileArray(500), fc.constant([])), required: true },
        { path: ["units", 0, "unitId"], hostile: hostileId(), required: true },
        { path: ["units", 0, "disposition"], hostile: hostileCode(DISPOSITIONS), required: true },
      ],
      readOnly: false,
    },
    {
      get path() {
        return `/recalls/${FUZZ_RECALL.id}/returns`;
      },
      operation: "/recalls/{recallId}/returns",
      token: allScopes,
      headers: () => ({ "Idempotency-Key": crypto.randomUUID() }),
      base: () => ({ note: "fuzz" }),
      fields: [
        { path: ["unitIds"], hostile: fc.oneof(hostileArray(500), fc.constant([]), fc.constant([0]), fc.constant(["1"])) },
        { path: ["note"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
      ],
      readOnly: false,
      optionalBody: true,
      accepts: 201,
    },
    {
      path: "/vendor/api/recalls",
      token: () => vendorTokenFor(DEMO_VENDOR_ID),
      base: () => ({
        noticeNumber: "FSN-FUZZ-1",
        classification: "Class II",
        productDescription: "Fuzz cassette",
        reason: "Fuzzing",
        deviceIds: ["00812345000014"],
        lots: ["FZ1"],
      }),
      fields: [
        { path: ["noticeNumber"], hostile: fc.oneof(hostileText(40), fc.constantFrom("", " FSN", "FSN 1", "-FSN")), required: true },
        { path: ["classification"], hostile: hostileCode(["Class I", "Class II", "Class III"], true) },
        { path: ["status"], hostile: hostileCode(["open", "completed", "terminated"]) },
        { path: ["productDescription"], hostile: fc.oneof(hostileText(1000), fc.constantFrom("", "   ")), required: true },
        { path: ["reason"], hostile: fc.oneof(hostileText(2000), fc.constantFrom("", "   ")), required: true },
        { path: ["deviceIds"], hostile: fc.oneof(hostileArray(200), fc.constant(["123"]), fc.constant(["+1"])) },
        { path: ["partNumbers"], hostile: strings(64, 200) },
        { path: ["lots"], hostile: strings(40, 1000) },
        { path: ["serials"], hostile: strings(40, 1000) },
        {
          path: ["serialRanges"],
          hostile: fc.oneof(hostileArray(100), fc.constant([{ from: "A" }]), fc.constant([{ from: "A", to: "B", x: 1 }])),
        },
        { path: ["initiatedOn"], hostile: fc.oneof(nonString(), fc.constantFrom("2026-02-30", "yesterday")) },
      ],
      readOnly: false,
    },
  ];
}

/** Offers, a batch of them, an agreement, its end (the demo vendor's), and a price tier (the operator's). */
function pricingTargets(): Target[] {
  const vendor = () => vendorTokenFor(DEMO_VENDOR_ID);
  const offer = {
    productId: "MP-0000001",
    condition: "New OEM",
    purchaseChoice: "Buy",
    warranty: "12 months",
    price: 99.5,
    leadTimeDays: 3,
  };
  const price = hostilePrice(MAX_PRICE);
  return [
    {
      method: "PUT",
      path: "/vendor/api/offers/T-FUZZ-1",
      operation: "/vendor/api/offers/{sku}",
      token: vendor,
      base: () => ({ ...offer, quantityAvailable: 4, quantityCountedAt: "2026-11-01T08:00:00Z" }),
      fields: [
        { path: ["productId"], hostile: fc.oneof(hostileText(64, { min: 1 }), fc.constantFrom("MP-9999999", "")) },
        { path: ["condition"], hostile: fc.oneof(hostileText(50), fc.constantFrom("", "  ")), required: true },
        { path: ["price"], hostile: price, required: true },
        { path: ["leadTimeDays"], hostile: fc.oneof(hostileCount(), fc.constantFrom(366, -1, 1.5)), required: true },
        { path: ["unitOfMeasure"], hostile: fc.oneof(nonString(), fc.constantFrom("each", "E", "EACH", "")) },
        { path: ["quantityAvailable"], hostile: fc.oneof(hostileCount(true), fc.constant(1_000_000_001)) },
        { path: ["quantityCountedAt"], hostile: hostileInstant() },
        // null is valid for the optional dates (from now; no end): not a hostile value there.
        { path: ["effectiveFrom"], hostile: hostileInstant(true) },
        { path: ["gtin"], hostile: fc.oneof(hostileText(14), fc.constantFrom("00614100000015", "123")) },
        { path: ["purchaseType"], hostile: fc.oneof(hostileCode(PURCHASE_TYPES), fc.constantFrom("exchange", "loan", "repair")) },
        {
          path: ["exchangeTerms"],
          hostile: fc.oneof(hostileObject(), fc.constant({ coreCharge: 10, coreDueDays: 30 })),
        },
        { path: ["repairTerms"], hostile: fc.oneof(hostileObject(), fc.constant({ turnaroundDays: 5, reasons: ["not_a_reason"] })) },
        {
          path: ["futurePrice"],
          hostile: fc.oneof(hostileObject(true), fc.record({ price, effectiveFrom: fc.constant("2099-01-01T00:00:00Z") })),
        },
        {
          path: ["customFields"],
          hostile: fc.oneof(
            hostileArray(10, true),
            fc
              .constantFrom("^(a+)+$", "(x+x+)+y", "^(a|a)*$", "([a-z", "a".repeat(201))
              .map((formatRegex) => [{ fieldId: "serial", prompt: "Serial", isRequired: true, formatRegex, errorMessage: "No." }]),
          ),
        },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      path: "/vendor/api/offers/batch",
      token: vendor,
      base: () => ({ offers: [{ sku: "T-FUZZ-B1", ...offer }] }),
      fields: [{ path: ["offers"], hostile: fc.oneof(hostileArray(1000), fc.constant([])), required: true }],
      rowsAt: ["offers"],
      readOnly: false,
    },
    {
      path: "/vendor/api/agreements",
      token: vendor,
      base: () => ({
        reference: "FUZZ-1",
        scope: { kind: "facilities", tenantId: TENANT_A, facilityIds: [JSMITH.facilityId] },
        effectiveFrom: "2098-01-01T00:00:00Z",
        prices: [{ productId: "MP-0000001", price: 88 }],
      }),
      fields: [
        { path: ["reference"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", "   ")), required: true },
        { path: ["scope"], hostile: hostileObject(), required: true },
        { path: ["scope", "kind"], hostile: hostileCode(["tenant", "facilities", "tier"]), required: true },
        { path: ["scope", "tenantId"], hostile: fc.oneof(hostileId(), fc.constantFrom(2, 999_999)), required: true },
        { path: ["scope", "facilityIds"], hostile: fc.oneof(hostileArray(100), fc.constant([]), fc.constant([2001])), required: true },
        { path: ["effectiveFrom"], hostile: hostileInstant(), required: true },
        { path: ["effectiveTo"], hostile: fc.oneof(hostileInstant(true), fc.constant("2097-01-01T00:00:00Z")) },
        { path: ["prices"], hostile: fc.oneof(hostileArray(1000), fc.constant([])), required: true },
        { path: ["prices", 0, "price"], hostile: price, required: true },
        { path: ["prices", 0, "sku"], hostile: fc.oneof(hostileText(64), fc.constant("NO-SUCH-SKU")) },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      method: "PATCH",
      path: `/vendor/api/agreements/${FUZZ_AGREEMENT_ID}`,
      operation: "/vendor/api/agreements/{agreementId}",
      token: vendor,
      base: () => ({ effectiveTo: "2099-06-01T00:00:00Z" }),
      fields: [{ path: ["effectiveTo"], hostile: fc.oneof(hostileInstant(true), fc.constant("2001-01-01T00:00:00Z")), required: true }],
      readOnly: false,
    },
    {
      path: "/admin/api/tiers",
      token: () => operatorTokenFor(),
      base: () => ({ name: "Fuzz tier" }),
      fields: [{ path: ["name"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", "   ")), required: true }],
      readOnly: false,
      accepts: 201,
    },
  ];
}

/**
 * The vendor moves, aimed by the demo vendor at its line of the demo order, which beforeAll cancels: a valid body is
 * then refused as an invalid transition (409, nothing written), so only the body's own faults are under test.
 */
function vendorMoveTargets(): Target[] {
  const shipDate = fc.oneof(nonString(), fc.constantFrom("2020-01-01", "2099-02-30", "2099-13-01", "tomorrow", "", "2099-1-1"));
  const instant = fc.oneof(nonString(true), fc.constantFrom("2999-01-01T00:00:00Z", "yesterday", "2024-01-01", "", "2024-01-01T25:00:00Z"));
  const reason = (nullable: boolean) => fc.oneof(hostileText(500, { nullable }), fc.constantFrom("", "   "));
  const fields: Record<VendorAction, { base: Record<string, unknown>; fields: Field[] }> = {
    acknowledge: { base: { promisedShipDate: "2099-01-31" }, fields: [{ path: ["promisedShipDate"], hostile: shipDate, required: true }] },
    backorder: {
      base: { expectedShipDate: "2099-01-31", reason: "fuzz" },
      fields: [
        { path: ["expectedShipDate"], hostile: shipDate, required: true },
        { path: ["reason"], hostile: reason(true) },
      ],
    },
    ship: {
      base: { trackingNumber: "1ZFUZZ0001", carrierName: "UPS", serviceLevel: "Ground", quantity: 1 },
      fields: [
        {
          path: ["trackingNumber"],
          hostile: fc.oneof(hostileText(64), fc.constantFrom("", " ", " 1Z", "1Z ", "1Z<script>", "1Z\n2")),
          required: true,
        },
        { path: ["carrierName"], hostile: fc.oneof(hostileText(100, { nullable: false }), fc.constantFrom("", "  ")) },
        { path: ["serviceLevel"], hostile: fc.oneof(hostileText(100, { nullable: false }), fc.constantFrom("", "  ")) },
        { path: ["quantity"], hostile: fc.oneof(hostileId(), fc.integer({ min: 10_000 })) },
        { path: ["shippedAt"], hostile: instant },
        {
          path: ["units"],
          // Unreadable codes, codes of no product, too many, none: each a 400 before anything ships.
          hostile: fc.oneof(
            hostileArray(500),
            fc.constantFrom([], [""], ["(01)00000000000018"], ["(01)09506000134352"], ["+$$7LOT1AD"], [42]),
          ),
        },
      ],
    },
    deliver: { base: {}, fields: [{ path: ["deliveredAt"], hostile: instant }] },
    reject: { base: { reason: "fuzz" }, fields: [{ path: ["reason"], hostile: reason(false), required: true }] },
  };
  const startFrom: Record<VendorAction, string> = {
    acknowledge: "Ordered",
    backorder: "Ordered",
    ship: "Acknowledged",
    deliver: "Shipped",
    reject: "Ordered",
  };
  const moves = (Object.keys(fields) as VendorAction[]).map((action) => ({
    acceptsBase: async () => {
      await putLineIn(DEMO_LINE_ID, startFrom[action]);
    },
    path: `/vendor/api/order-lines/${DEMO_LINE_ID}/${action}`,
    operation: `/vendor/api/order-lines/{lineId}/${action}`,
    token: () => vendorTokenFor(DEMO_VENDOR_ID),
    base: () => fields[action].base,
    fields: fields[action].fields,
    readOnly: false,
  }));
  // Several lines in one parcel: the ship's parcel fields at the top, each line's own in `lines`.
  const { quantity: _quantity, ...parcel } = fields.ship.base;
  const lineFields = fields.ship.fields.filter((field) => ["quantity", "units"].includes(String(field.path[0])));
  const shipment: Target = {
    acceptsBase: async () => {
      await putLineIn(DEMO_LINE_ID, "Acknowledged");
    },
    path: "/vendor/api/shipments",
    token: () => vendorTokenFor(DEMO_VENDOR_ID),
    base: () => ({ ...parcel, trackingNumber: "1ZFUZZ0002", lines: [{ lineId: DEMO_LINE_ID, quantity: 1 }] }),
    fields: [
      ...fields.ship.fields.filter((field) => !lineFields.includes(field)),
      { path: ["lines"], hostile: fc.oneof(hostileArray(200), fc.constant([])), required: true },
      { path: ["lines", 0, "lineId"], hostile: hostileId(), required: true },
      ...lineFields.map((field) => ({ ...field, path: ["lines", 0, ...field.path] })),
    ],
    readOnly: false,
  };
  return [...moves, shipment];
}

/** Where a body has objects (itself included), each as the path to it. */
function objectPaths(node: unknown, path: Path = []): Path[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => objectPaths(item, [...path, i]));
  if (node === null || typeof node !== "object") return [];
  return [path, ...Object.entries(node).flatMap(([key, value]) => objectPaths(value, [...path, key]))];
}

/** Every property name the document declares anywhere, so that a generated unknown name is surely unknown. */
function declaredNames(document: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const { properties } = node as { properties?: unknown };
    if (properties && typeof properties === "object") for (const name of Object.keys(properties)) names.add(name);
    for (const value of Object.values(node)) walk(value);
  };
  walk(document);
  return names;
}

function setAt(body: Record<string, unknown>, path: Path, value: unknown, remove: boolean): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: any = copy;
  path.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== "object") node[key] = typeof path[i + 1] === "number" ? [] : {};
    node = node[key];
  });
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

const methodOf = (target: Target) => target.method ?? "POST";

async function send(target: Target, text: string): Promise<Response> {
  return call(await target.token(), target.path, {
    method: methodOf(target),
    body: text,
    headers: { "Content-Type": "application/json", ...target.headers?.() },
  });
}

/** A 4xx in a spec error form; a read endpoint may instead answer a documented 2xx. */
async function expectRefusedOrHarmless(target: Target, res: Response, allowSuccess: boolean) {
  if (allowSuccess && target.readOnly && res.status === 200) return expectMatchesContract(res, methodOf(target), target.path);
  await expectSpecError(res, methodOf(target), target.path);
}

/**
 * The operator's onboarding of tenants, vendors, companies, facilities and addresses: a create (idempotent by
 * externalId) and a PATCH of a seeded row each. Parents are ids of the seed (tenant 1, its company 101).
 */
/** Procurement connections (docs/api.md, "Procurement systems (cXML)"): the create and the replace of a mapping. */
function procurementTargets(): Target[] {
  const credential = () =>
    fc.oneof(
      hostileText(200),
      fc.constant({}),
      fc.constant({ domain: "with space", identity: "x" }),
      fc.constant({ domain: "NetworkID", identity: "   " }),
      fc.constant({ domain: "NetworkID", identity: "x", extra: 1 }),
    );
  const id = () => fc.oneof(hostileId(), fc.constant(2_000_000_000));
  const mapping = () => connectionMapping({ domain: "NetworkID", identity: `AN-FUZZ-${crypto.randomUUID()}` }, JSMITH, "Fuzz suite");
  const fields: Field[] = [
    { path: ["name"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", "   ")), required: true },
    {
      path: ["buyerIdentities"],
      hostile: fc.oneof(
        hostileArray(20),
        fc.constant([]),
        credential().map((c) => [c]),
      ),
      required: true,
    },
    { path: ["supplierIdentity"], hostile: credential(), required: true },
    { path: ["facilityId"], hostile: id(), required: true },
    { path: ["requesterId"], hostile: id(), required: true },
    { path: ["userId"], hostile: id(), required: true },
    { path: ["shipToAddressId"], hostile: id(), required: true },
    { path: ["billToAddressId"], hostile: id(), required: true },
    {
      path: ["shipToAddresses"],
      hostile: fc.oneof(
        hostileArray(60),
        fc.constant([
          { code: "A", addressId: 11 },
          { code: "A", addressId: 11 },
        ]),
        fc.constant([{ code: "", addressId: 11 }]),
        fc.constant({ A: 11 }),
      ),
    },
    { path: ["shippingMethod"], hostile: hostileCode(["GROUND"]) },
    { path: ["paymentMethod"], hostile: hostileCode(["PO"]) },
    {
      path: ["documentUrl"],
      // null is a valid documentUrl (no documents): not among the hostile values.
      hostile: fc.oneof(
        hostileText(2048, { nullable: true }),
        fc.constantFrom("http://example.com/cxml", "https://10.0.0.1/cxml", "https://user:pw@suite.example.com/x"),
      ),
    },
  ];
  return [
    {
      path: "/admin/api/procurement-connections",
      token: () => operatorTokenFor(),
      base: () => ({ tenantId: TENANT_A, mode: "live", ...mapping() }),
      fields: [
        ...fields,
        { path: ["tenantId"], hostile: id(), required: true },
        { path: ["mode"], hostile: hostileCode(["live", "test"]) },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      method: "PUT",
      path: "/admin/api/procurement-connections/1",
      operation: "/admin/api/procurement-connections/{connectionId}",
      token: () => operatorTokenFor(),
      base: mapping,
      fields,
      readOnly: false,
      // The documented example names connection 1: the first one made in this file's database.
      acceptsBase: async () => {
        if (await env.DB.prepare("SELECT 1 FROM procurement_connections WHERE id = 1").first()) return;
        const res = await call(await operatorTokenFor(), "/admin/api/procurement-connections", {
          method: "POST",
          json: { tenantId: TENANT_A, ...mapping() },
        });
        expect(res.status).toBe(201);
      },
    },
  ];
}

function ediPartnerTargets(): Target[] {
  const identity = () =>
    fc.oneof(
      hostileText(20),
      fc.constant({}),
      fc.constant({ qualifier: "zz", id: "X" }),
      fc.constant({ qualifier: "ZZ", id: " PADDED" }),
      fc.constant({ qualifier: "ZZ", id: "X".repeat(16) }),
      fc.constant({ qualifier: "ZZ", id: "X", extra: 1 }),
    );
  const fields: Field[] = [
    { path: ["name"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", "   ")), required: true },
    { path: ["usage"], hostile: hostileCode(["test", "production"]), required: true },
    { path: ["partnerIdentity"], hostile: identity(), required: true },
    { path: ["ourIdentity"], hostile: identity(), required: true },
    { path: ["partnerApplicationId"], hostile: fc.oneof(hostileText(15), fc.constantFrom("", "A", " AB")), required: true },
    { path: ["ourApplicationId"], hostile: fc.oneof(hostileText(15), fc.constantFrom("", "A", " AB")), required: true },
    { path: ["version"], hostile: hostileCode(["004010", "005010"]), required: true },
    {
      path: ["delimiters"],
      hostile: fc.oneof(
        hostileText(10),
        fc.constant({ element: "*", component: "*", segment: "~" }),
        fc.constant({ element: "A", component: ">", segment: "~" }),
        fc.constant({ element: "**", component: ">", segment: "~" }),
        fc.constant({ element: "*", component: ">", segment: "~", repetition: "^" }),
      ),
      required: true,
    },
    { path: ["acknowledgment"], hostile: fc.oneof(hostileCode(["997", "999"]), fc.constant("999")), required: true },
    {
      path: ["documents"],
      hostile: fc.oneof(hostileArray(10), fc.constant([]), fc.constant(["850", "850"]), fc.constant(["940"])),
      required: true,
    },
    { path: ["orderChanges"], hostile: fc.oneof(hostileCode(["860", "cancel-850", "none"]), fc.constant("860")) },
    { path: ["acknowledgmentWindowMinutes"], hostile: fc.oneof(hostileCount(), fc.constantFrom(0, 4, 10_081, 60.5)) },
    {
      path: ["transport"],
      hostile: fc.oneof(
        hostileText(50),
        fc.constant({ kind: "ftp" }),
        fc.constant({ kind: "as2" }),
        fc.constant({ kind: "as2", url: "http://as2.example.com/as2", as2From: "A", as2To: "B", partnerCertificate: "x" }),
        fc.constant({ kind: "mailbox", url: "https://as2.example.com" }),
      ),
      required: true,
    },
  ];
  return [
    {
      path: "/admin/api/edi-partners",
      token: () => operatorTokenFor(),
      base: () => ({ vendorId: 1, ...partnerInput() }),
      fields: [...fields, { path: ["vendorId"], hostile: fc.oneof(hostileId(), fc.constant(2_000_000_000)), required: true }],
      readOnly: false,
      accepts: 201,
    },
    {
      method: "PUT",
      path: "/admin/api/edi-partners/1",
      operation: "/admin/api/edi-partners/{partnerId}",
      token: () => operatorTokenFor(),
      base: () => partnerInput(),
      fields,
      readOnly: false,
      // The documented example names partner 1: the first one made in this file's database.
      acceptsBase: async () => {
        if (await env.DB.prepare("SELECT 1 FROM edi_partners WHERE id = 1").first()) return;
        const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
          method: "POST",
          json: { vendorId: 1, ...partnerInput() },
        });
        expect(res.status).toBe(201);
      },
    },
  ];
}

function organizationTargets(): Target[] {
  const text = (max: number) => fc.oneof(hostileText(max), fc.constantFrom("", "   "));
  const id = () => fc.oneof(hostileId(), fc.constant(2_000_000_000));
  const kinds: {
    kind: string;
    id: string;
    row: number;
    fields: Record<string, unknown>;
    hostile: Record<string, fc.Arbitrary<unknown>>;
    optional?: string[];
  }[] = [
    { kind: "tenants", id: "tenantId", row: 1, fields: { name: "Fuzz Health" }, hostile: { name: text(200) } },
    {
      kind: "vendors",
      id: "vendorId",
      row: 1,
      fields: { name: "Fuzz Supply", returnPolicy: "30 days" },
      hostile: { name: text(200), returnPolicy: text(500) },
    },
    {
      kind: "companies",
      id: "companyId",
      row: 101,
      fields: { tenantId: TENANT_A, name: "Fuzz General" },
      hostile: { tenantId: id(), name: text(200) },
    },
    {
      kind: "facilities",
      id: "facilityId",
      row: 1001,
      fields: { companyId: 101, name: "Fuzz Campus", gln: "0614141000036" },
      hostile: {
        companyId: id(),
        name: text(200),
        gln: fc.oneof(text(13), fc.constantFrom("0614141000037", "061414100003", 614141000036)),
      },
      optional: ["gln"],
    },
    {
      kind: "addresses",
      id: "addressId",
      row: 11,
      fields: { companyId: 101, kind: "shipping", line1: "1 Fuzz Rd", city: "Fuzz", state: "CA", zip: "90001", country: "US" },
      hostile: {
        companyId: id(),
        kind: hostileCode(["shipping", "billing"]),
        line1: text(200),
        city: text(100),
        state: text(100),
        zip: text(20),
        country: fc.oneof(hostileCode(["US"]), fc.constantFrom("us", "USA", "U1")),
      },
    },
  ];
  return kinds.flatMap(({ kind, id: idParam, row, fields, hostile, optional = [] }): Target[] => {
    const parents = ["tenantId", "companyId"];
    const fieldsOf = (patch: boolean) =>
      Object.entries(hostile)
        .filter(([name]) => !(patch && parents.includes(name)))
        .map(([name, arbitrary]) => ({ path: [name], hostile: arbitrary, required: !patch && !optional.includes(name) }));
    return [
      {
        path: `/admin/api/${kind}`,
        token: () => operatorTokenFor(),
        base: () => ({ externalId: `FUZZ-${kind}-${crypto.randomUUID().slice(0, 8)}`, ...fields }),
        fields: [
          { path: ["externalId"], hostile: fc.oneof(hostileText(100), fc.constantFrom("", " x", "a b", "-x")), required: true },
          ...fieldsOf(false),
        ],
        readOnly: false,
        accepts: 201,
      },
      {
        method: "PATCH",
        path: `/admin/api/${kind}/${row}`,
        operation: `/admin/api/${kind}/{${idParam}}`,
        token: () => operatorTokenFor(),
        base: () => Object.fromEntries(Object.entries(fields).filter(([name]) => !parents.includes(name))),
        fields: fieldsOf(true),
        readOnly: false,
      },
    ];
  });
}

/**
 * SCIM (/scim/v2) with tenant 1's SCIM token: users (the seed's user 1 for PUT and PATCH) and groups (group 1, made in
 * beforeAll), and the operator's issuing of SCIM tokens.
 */
function scimTargets(): Target[] {
  const token = () => scimTokenFor(TENANT_A);
  const notBoolean = fc.oneof(fc.integer(), fc.constantFrom("yes", "1", "on", "", "truthy"), fc.constant({}), fc.constant([]));
  const user = (userName: () => string) => () => ({
    userName: userName(),
    name: { givenName: "Fuzz", familyName: "User" },
    emails: [{ value: "fuzz@riverside.example", type: "work", primary: true }],
    active: true,
  });
  const userFields: Field[] = [
    { path: ["userName"], hostile: fc.oneof(hostileText(256, { min: 1 }), fc.constantFrom("   ", "\u0001x")), required: true },
    { path: ["externalId"], hostile: hostileText(256, { nullable: true }) },
    { path: ["active"], hostile: notBoolean },
    { path: ["name"], hostile: fc.oneof(fc.integer(), fc.constantFrom("Jane"), fc.constant([])) },
    { path: ["name", "givenName"], hostile: hostileText(200, { nullable: true }) },
    {
      path: ["emails"],
      hostile: fc.oneof(fc.integer(), fc.constant("a@b.example"), fc.constant({}), fc.constant(Array(21).fill({ value: "a@b.example" }))),
    },
    {
      path: ["emails", 0, "value"],
      hostile: fc.oneof(hostileText(320), fc.constantFrom("no-at", "a@b@c", "a b@c.example", "", "x@y\u0000")),
      required: true,
    },
  ];
  const operationFields = (value: fc.Arbitrary<unknown>): Field[] => [
    {
      path: ["Operations"],
      hostile: fc.oneof(fc.constant([]), fc.integer(), fc.constant("x"), fc.constant(null), fc.constant({})),
      required: true,
    },
    {
      path: ["Operations", 0, "op"],
      hostile: fc.oneof(nonString(), fc.constantFrom("move", "copy", "", "add ", "REPLACE!")),
      required: true,
    },
    {
      path: ["Operations", 0, "path"],
      hostile: fc.oneof(fc.integer(), fc.constantFrom("emails[type eq", "name..x", "a b", "urn:x:", "members[", "x\u0001")),
    },
    { path: ["Operations", 0, "value"], hostile: value, required: true },
  ];
  const group = (displayName: () => string) => () => ({ displayName: displayName(), members: [{ value: String(JSMITH.userId) }] });
  const groupFields: Field[] = [
    { path: ["displayName"], hostile: fc.oneof(hostileText(200, { min: 1 }), fc.constantFrom("   ", "a\u0000")), required: true },
    { path: ["externalId"], hostile: hostileText(256, { nullable: true }) },
    { path: ["members"], hostile: fc.oneof(fc.integer(), fc.constant("1"), fc.constant({})) },
    // Another tenant's user (kjohnson, tenant 2), no user, not an id.
    {
      path: ["members", 0, "value"],
      hostile: fc.oneof(nonString(), fc.constantFrom("0", "abc", "999999999", String(KJOHNSON.userId))),
      required: true,
    },
  ];
  const unique = (prefix: string) => () => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  return [
    {
      path: "/scim/v2/Users",
      token,
      base: user(() => `${unique("fuzz")()}@riverside.example`),
      fields: userFields,
      readOnly: false,
      accepts: 201,
      ignoresUnknownFields: true,
    },
    {
      method: "PUT",
      path: `/scim/v2/Users/${JSMITH.userId}`,
      operation: "/scim/v2/Users/{id}",
      token,
      base: user(() => "jsmith"),
      fields: userFields,
      readOnly: false,
      ignoresUnknownFields: true,
    },
    {
      method: "PATCH",
      path: `/scim/v2/Users/${JSMITH.userId}`,
      operation: "/scim/v2/Users/{id}",
      token,
      base: () => ({ Operations: [{ op: "replace", path: "displayName", value: "Fuzz" }] }),
      fields: operationFields(fc.oneof(fc.integer(), fc.constant({}), fc.constant([]), hostileText(256, { nullable: true }))),
      readOnly: false,
      ignoresUnknownFields: true,
    },
    {
      path: "/scim/v2/Groups",
      token,
      base: group(unique("fuzz-group")),
      fields: groupFields,
      readOnly: false,
      accepts: 201,
      ignoresUnknownFields: true,
    },
    {
      method: "PUT",
      path: "/scim/v2/Groups/1",
      operation: "/scim/v2/Groups/{id}",
      token,
      base: group(() => "Fuzz group"),
      fields: groupFields,
      readOnly: false,
      ignoresUnknownFields: true,
    },
    {
      method: "PATCH",
      path: "/scim/v2/Groups/1",
      operation: "/scim/v2/Groups/{id}",
      token,
      base: () => ({ Operations: [{ op: "add", path: "members", value: [{ value: String(JSMITH.userId) }] }] }),
      fields: operationFields(
        fc.oneof(fc.integer(), fc.constant([{ value: String(KJOHNSON.userId) }]), fc.constant([{}]), fc.constant("1")),
      ),
      readOnly: false,
      ignoresUnknownFields: true,
    },
    {
      path: "/admin/api/vendors/1/desk-users",
      operation: "/admin/api/vendors/{vendorId}/desk-users",
      token: () => operatorTokenFor(),
      base: () => ({ email: "fuzz@vendor.example", displayName: "Fuzz", role: "desk" }),
      fields: [
        {
          path: ["email"],
          hostile: fc.oneof(hostileText(254, { min: 1 }), fc.constantFrom("a@", "@b.example", "a b@c.example")),
          required: true,
        },
        { path: ["displayName"], hostile: fc.oneof(hostileText(100, { min: 1 }), fc.constantFrom("   ")), required: true },
        { path: ["role"], hostile: hostileCode(["admin", "desk"]), required: true },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      path: `/admin/api/tenants/${TENANT_A}/scim-tokens`,
      operation: "/admin/api/tenants/{tenantId}/scim-tokens",
      token: () => operatorTokenFor(),
      base: () => ({ name: "Fuzz IdP" }),
      fields: [{ path: ["name"], hostile: fc.oneof(hostileText(100, { min: 1 }), fc.constantFrom("   ")), required: true }],
      readOnly: false,
      accepts: 201,
    },
  ];
}

/** The sandbox's test helper (test-mode token) and the webhook test's sample type. */
/** Money strings of the purchasing documents: numbers, more than two places, signs, exponents, blanks. */
function hostileMoney() {
  return fc.oneof(
    nonString(),
    fc.double(),
    fc.constantFrom("1.234", "-1.00", "1e3", "01.00", " 1", "1.", ".5", "", "12,50", "NaN", "Infinity"),
  );
}

/** The fuzzed documents: the demo order's invoice the decision targets answer, made in beforeAll. */
const FUZZ_INVOICE: { id: number } = { id: 0 };

const today = () => new Date().toISOString().slice(0, 10);
const fuzzInvoice = (invoiceNumber: string) => ({
  invoiceNumber,
  orderNumber: DEMO_ORDER_NUMBER,
  invoiceDate: today(),
  currency: "USD",
  lines: [{ lineId: DEMO_LINE_ID, quantity: 1, unitPrice: "10.00", amount: "10.00" }],
  summary: { subtotal: "10.00", tax: "0.00", freight: "0.00", total: "10.00" },
});

/**
 * Confirmations, invoices, credit memos, the buyer's answers and the purchasing settings, aimed at the demo vendor's line
 * of the demo order (beforeAll cancels it: a valid confirmation is then a 409, nothing written) and at the fuzz invoice.
 */
function purchasingTargets(): Target[] {
  const vendor = () => vendorTokenFor(DEMO_VENDOR_ID);
  const tolerance = fc.oneof(
    hostileObject(true),
    fc.record({ percent: fc.constantFrom("101", "-1", "2.555", "x"), amount: hostileMoney() }),
  );
  return [
    {
      path: "/vendor/api/order-confirmations",
      token: vendor,
      base: () => ({ type: "detail", lines: [{ lineId: DEMO_LINE_ID, code: "IA", promisedShipDate: "2099-01-31" }] }),
      acceptsBase: async () => {
        await putLineIn(DEMO_LINE_ID, "Ordered");
      },
      fields: [
        { path: ["type"], hostile: hostileCode(CONFIRMATION_TYPES), required: true },
        { path: ["lines"], hostile: fc.oneof(hostileArray(200), fc.constant([])), required: true },
        { path: ["lines", 0, "lineId"], hostile: hostileId(), required: true },
        { path: ["lines", 0, "code"], hostile: hostileCode(CODE_SPELLINGS) },
        { path: ["lines", 0, "promisedShipDate"], hostile: fc.oneof(nonString(), fc.constantFrom("2020-01-01", "2099-02-30", "tomorrow")) },
        { path: ["lines", 0, "unitPrice"], hostile: hostileMoney() },
        { path: ["lines", 0, "quantity"], hostile: fc.oneof(hostileId(), fc.integer({ min: 10_000 })) },
        { path: ["lines", 0, "substitute"], hostile: fc.oneof(hostileObject(true), fc.record({ partNumber: hostileText(64) })) },
        { path: ["reason"], hostile: fc.oneof(hostileText(500, { nullable: true }), fc.constantFrom("", "   ")) },
      ],
      readOnly: false,
    },
    {
      path: "/vendor/api/invoices",
      token: vendor,
      base: () => fuzzInvoice("FUZZ-INV-BASE"),
      fields: [
        {
          path: ["invoiceNumber"],
          hostile: fc.oneof(hostileText(40), fc.constantFrom("", " INV", "INV 1", "INV\n1", "-INV")),
          required: true,
        },
        { path: ["orderNumber"], hostile: fc.oneof(nonString(), fc.constantFrom("", "ORD 1", "ORD/1")), required: true },
        { path: ["invoiceDate"], hostile: fc.oneof(nonString(), fc.constantFrom("2999-01-01", "2026-02-30", "today", "")), required: true },
        { path: ["currency"], hostile: hostileCode(["USD"]), required: true },
        { path: ["lines"], hostile: fc.oneof(hostileArray(200), fc.constant([])), required: true },
        { path: ["lines", 0, "quantity"], hostile: fc.oneof(hostileId(), fc.integer({ min: 100_000 })), required: true },
        { path: ["lines", 0, "unitPrice"], hostile: hostileMoney(), required: true },
        { path: ["lines", 0, "amount"], hostile: fc.oneof(hostileMoney(), fc.constantFrom("10.01", "9.99")), required: true },
        { path: ["lines", 0, "lineId"], hostile: hostileId() },
        { path: ["summary"], hostile: hostileObject(), required: true },
        { path: ["summary", "total"], hostile: fc.oneof(hostileMoney(), fc.constantFrom("10.01", "0.00")), required: true },
        { path: ["summary", "freight"], hostile: fc.oneof(hostileMoney(), fc.constant("1.00")), required: true },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      path: "/vendor/api/credit-memos",
      token: vendor,
      base: () => ({ creditMemoNumber: "FUZZ-CM-BASE", invoiceId: FUZZ_INVOICE.id, creditDate: today(), currency: "USD", reason: "fuzz" }),
      fields: [
        { path: ["creditMemoNumber"], hostile: fc.oneof(hostileText(40), fc.constantFrom("", " CM")), required: true },
        { path: ["invoiceId"], hostile: fc.oneof(hostileId(), fc.constant(2_000_000_000)), required: true },
        { path: ["creditDate"], hostile: fc.oneof(nonString(), fc.constantFrom("2999-01-01", "2026-02-30")), required: true },
        { path: ["currency"], hostile: hostileCode(["USD"]), required: true },
        {
          path: ["lines"],
          // Lines without a summary, more than was invoiced, a line the invoice does not have.
          hostile: fc.oneof(
            hostileArray(200),
            fc.constant([]),
            fc.constant([{ invoiceLineNumber: 1, quantity: 1, unitPrice: "10.00", amount: "10.00" }]),
            fc.constant([{ invoiceLineNumber: 9, quantity: 1, unitPrice: "10.00", amount: "10.00" }]),
          ),
        },
        {
          path: ["summary"],
          hostile: fc.oneof(hostileObject(), fc.constant({ subtotal: "1.00", tax: "0.00", freight: "0.00", total: "1.00" })),
        },
      ],
      readOnly: false,
      accepts: 201,
    },
    {
      path: `/orders/${DEMO_ORDER_NUMBER}/lines/${DEMO_LINE_ID}/change-decision`,
      operation: "/orders/{orderNumber}/lines/{lineId}/change-decision",
      token: allScopes,
      base: () => ({ decision: "accept", reason: "fuzz" }),
      acceptsBase: async () => {
        await putLineIn(DEMO_LINE_ID, "Ordered");
        await storeRowsById(
          DEMO_LINE_ID,
          "UPDATE order_lines SET proposed_change = ?2 WHERE id = ?1",
          DEMO_LINE_ID,
          JSON.stringify({ code: "IQ", quantity: 3, contractPriceException: false, proposedAt: new Date().toISOString() }),
        );
      },
      fields: [
        { path: ["decision"], hostile: hostileCode(["accept", "decline"]), required: true },
        { path: ["reason"], hostile: fc.oneof(hostileText(500, { nullable: true }), fc.constantFrom("", "   ")) },
      ],
      readOnly: false,
    },
    {
      get path() {
        return `/invoices/${FUZZ_INVOICE.id}/dispute`;
      },
      operation: "/invoices/{invoiceId}/dispute",
      token: allScopes,
      base: () => ({ reason: "fuzz" }),
      fields: [{ path: ["reason"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")), required: true }],
      readOnly: false,
    },
    {
      get path() {
        return `/invoices/${FUZZ_INVOICE.id}/accept`;
      },
      operation: "/invoices/{invoiceId}/accept",
      token: allScopes,
      base: () => ({ note: "fuzz" }),
      fields: [{ path: ["note"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) }],
      readOnly: false,
      optionalBody: true,
    },
    {
      method: "PUT",
      path: "/purchasing-settings",
      token: allScopes,
      base: () => ({
        autoAcceptPriceIncrease: { percent: "2.00", amount: "5.00" },
        priceTolerance: { percent: "1.00", amount: null },
        quantityTolerance: 0,
      }),
      fields: [
        { path: ["autoAcceptPriceIncrease"], hostile: tolerance, required: true },
        {
          path: ["priceTolerance"],
          hostile: fc.oneof(
            tolerance.filter((t) => t !== null),
            fc.constant(null),
          ),
          required: true,
        },
        { path: ["quantityTolerance"], hostile: fc.oneof(hostileCount(), fc.integer({ min: 10_000 })), required: true },
      ],
      readOnly: false,
    },
  ];
}

/**
 * Return `id` of the demo line, of this kind and status, as a target's base body expects it (written again, whatever it
 * was), in the store that holds the line.
 */
async function putReturnIn(id: number, kind: string, status: string) {
  await storeRowsById(
    DEMO_LINE_ID,
    "INSERT OR REPLACE INTO unit_returns (id, tenant_id, order_id, line_id, vendor_id, facility_id, kind, status, quantity, rma_number, " +
      "charge_cents, proposed_price_cents, outcome, due_at, created_at, updated_at) SELECT ?1, o.tenant_id, l.order_id, l.id, l.vendor_id, " +
      "o.facility_id, ?2, ?3, 1, 'RMA-FUZZ-' || ?1, 100, 500, CASE WHEN ?3 = 'quoted' THEN 'beyond_flat_rate' END, " +
      "'2099-01-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id = ?4",
    id,
    kind,
    status,
    DEMO_LINE_ID,
  );
}

function returnTargets(): Target[] {
  const vendor = () => vendorTokenFor(DEMO_VENDOR_ID);
  const tracking = fc.oneof(hostileText(40), fc.constantFrom("", "1Z", "1Z 123", "-1Z123"));
  const shippedAt = fc.oneof(hostileInstant(), fc.constantFrom("2001-01-01T00:00:00Z", "2999-01-01T00:00:00Z"));
  const parcel: Field[] = [
    { path: ["carrierName"], hostile: fc.oneof(hostileText(50), fc.constantFrom("", "  ")), required: true },
    { path: ["trackingNumber"], hostile: tracking, required: true },
    { path: ["shippedAt"], hostile: shippedAt },
  ];
  const step = (
    name: keyof typeof FUZZ_RETURNS,
    action: string,
    kind: string,
    status: string,
    base: Record<string, unknown>,
    fields: Field[],
    buyer = false,
  ): Target => ({
    path: `${buyer ? "" : "/vendor/api"}/returns/${FUZZ_RETURNS[name]}/${action}`,
    operation: `${buyer ? "" : "/vendor/api"}/returns/{returnId}/${action}`,
    token: buyer ? allScopes : vendor,
    base: () => base,
    acceptsBase: () => putReturnIn(FUZZ_RETURNS[name], kind, status),
    fields,
    readOnly: false,
  });
  return [
    {
      path: `/orders/${DEMO_ORDER_NUMBER}/lines/${DEMO_LINE_ID}/returns`,
      operation: "/orders/{orderNumber}/lines/{lineId}/returns",
      token: allScopes,
      headers: () => ({ "Idempotency-Key": crypto.randomUUID() }),
      base: () => ({ quantity: 1, reason: "wrong_part", note: "fuzz" }),
      acceptsBase: async () => {
        await putLineIn(DEMO_LINE_ID, "Delivered");
        await storeRowsById(DEMO_LINE_ID, "DELETE FROM unit_returns WHERE line_id = ? AND kind = 'rma'", DEMO_LINE_ID);
      },
      fields: [
        { path: ["quantity"], hostile: fc.oneof(hostileId(), fc.integer({ min: 10_000 })), required: true },
        { path: ["reason"], hostile: hostileCode(RETURN_REASONS), required: true },
        { path: ["note"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
      ],
      readOnly: false,
      accepts: 201,
    },
    step(
      "ship",
      "ship",
      "core",
      "open",
      { carrierName: "UPS", trackingNumber: "1ZFUZZ0001" },
      [...parcel, { path: ["udi"], hostile: fc.oneof(nonString(), fc.constantFrom("", "not a udi", "(01)123", "x".repeat(201))) }],
      true,
    ),
    step(
      "decide",
      "repair-decision",
      "repair",
      "quoted",
      { decision: "approve" },
      [
        { path: ["decision"], hostile: hostileCode(["approve", "decline"]), required: true },
        { path: ["reason"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
      ],
      true,
    ),
    step("authorize", "authorize", "rma", "requested", { rmaNumber: "RMA-FUZZ", returnBy: "2099-01-31" }, [
      { path: ["rmaNumber"], hostile: fc.oneof(hostileText(40), fc.constantFrom("", " R", "R 1", "-R")), required: true },
      { path: ["returnBy"], hostile: fc.oneof(nonString(), fc.constantFrom("2001-01-01", "2099-02-30", "tomorrow")), required: true },
      { path: ["restockingFee"], hostile: fc.oneof(hostileMoney(), fc.constant("999999.00")) },
      { path: ["returnTo"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
    ]),
    step("decline", "decline", "rma", "requested", { reason: "fuzz" }, [
      { path: ["reason"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")), required: true },
    ]),
    step("receive", "receive", "core", "shipped", { outcome: "accepted" }, [
      { path: ["outcome"], hostile: hostileCode(["accepted", "refused"]) },
      { path: ["reason"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
      { path: ["receivedAt"], hostile: shippedAt },
    ]),
    step("diagnose", "diagnose", "repair", "received", { withinFlatRate: true }, [
      { path: ["withinFlatRate"], hostile: fc.constantFrom("true", 1, 0, null, "yes", []), required: true },
      { path: ["price"], hostile: fc.oneof(hostileMoney(), fc.constant("0.50")) },
      { path: ["reason"], hostile: fc.oneof(hostileText(500), fc.constantFrom("", "   ")) },
    ]),
    step("sendBack", "send-back", "repair", "repairing", { carrierName: "UPS", trackingNumber: "1ZFUZZBACK" }, parcel),
  ];
}

function sandboxTargets(): Target[] {
  const dateHostile = fc.oneof(
    hostileText(10, { min: 10 }),
    fc.constantFrom("2001-01-01", "2099-02-30", "2099-1-1", "tomorrow", "2099-01-01T00:00:00Z"),
  );
  return [
    {
      get path() {
        return `/test-helpers/orders/${FUZZ_TEST_ORDER.orderNumber}/simulate`;
      },
      operation: "/test-helpers/orders/{orderNumber}/simulate",
      token: () => testModeTokenFor(TENANT_A),
      base: () => ({ scenario: "acknowledge" }),
      fields: [
        {
          path: ["scenario"],
          hostile: hostileCode(["acknowledge", "backorder", "ship_partial", "ship", "deliver", "reject_line", "confirm", "invoice"]),
          required: true,
        },
        // Another line than the order's has nothing to move: 409, a spec error too.
        { path: ["lineId"], hostile: fc.oneof(hostileId(), fc.constant(2_000_000_000)) },
        { path: ["promisedShipDate"], hostile: dateHostile },
        { path: ["expectedShipDate"], hostile: dateHostile },
        { path: ["reason"], hostile: hostileText(500, { min: 1 }) },
      ],
      readOnly: false,
    },
    {
      path: `/webhook-endpoints/${FUZZ_ENDPOINT_ID}/test`,
      operation: "/webhook-endpoints/{id}/test",
      token: allScopes,
      base: () => ({ type: "order.shipped" }),
      fields: [{ path: ["type"], hostile: hostileCode(["order.shipped"]).filter((v) => !DELIVERED_EVENT_TYPES.includes(v as never)) }],
      readOnly: false,
      optionalBody: true,
    },
  ];
}

/** What an optionalBody target takes as a request without a body: none, or an empty object (JSON whitespace around). */
const isNoBody = (text: string) => text === "" || /^[ \t\n\r]*\{[ \t\n\r]*\}[ \t\n\r]*$/.test(text);

const targetAt = (path: string) => TARGETS.find((target) => target.path === path)!;

describe("fuzzing every JSON endpoint: hostile bodies are a 4xx in a spec error form, never a 5xx, never a write", () => {
  afterAll(forgetStores);

  beforeAll(async () => {
    tokenClient = await newClient(TENANT_A, ["catalog:read"]);
    orderBase = orderBody([lineFor(await issueQuote("MP-0000041", JSMITH, withoutFields))]);
    await Promise.all([allScopes(), targetAt("/orders").token(), vendorTokenFor(DEMO_VENDOR_ID), operatorTokenFor()]);
    // The agreement the PATCH target changes: the demo vendor's, for one facility of tenant 1, far in the future.
    await env.DB.prepare(
      "INSERT OR IGNORE INTO price_agreements (id, vendor_id, reference, scope, tenant_id, effective_from, created_at, creation_key) " +
        "VALUES (?1, ?2, 'FUZZ-PATCH', 'tenant', ?3, '2090-01-01T00:00:00.000Z', '2026-11-26T00:00:00.000Z', 'fuzz-patch')",
    )
      .bind(FUZZ_AGREEMENT_ID, DEMO_VENDOR_ID, TENANT_A)
      .run();
    await env.DB.prepare(
      "INSERT OR IGNORE INTO api_clients (client_id, secret_hash, tenant_id, name, scopes, enabled, created_at) " +
        "VALUES (?1, 'not-a-hash', ?2, 'Fuzz rotation', 'catalog:read', 1, '2026-11-26T00:00:00.000Z')",
    )
      .bind(FUZZ_CLIENT_ID, TENANT_A)
      .run();
    const closed = await call(await allScopes(), `/orders/${DEMO_ORDER_NUMBER}/cancel`, {
      method: "POST",
      json: { partial: true },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(closed.status).toBe(200);
    // The sandbox target's test order: placed in test mode, taken off the schedule by a backorder (Backordered accepts
    // the base body's acknowledge, and nothing moves it meanwhile).
    const testToken = await testModeTokenFor(TENANT_A);
    const option = (
      await (
        await call(testToken, "/catalog/detail", {
          method: "POST",
          json: { productId: "MP-0000002", requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
        })
      ).json<{ data: { options: { customFields: unknown[]; priceOptionId: string; price: number }[] } }>()
    ).data.options.find((o) => o.customFields.length === 0)!;
    const placed = await call(testToken, "/orders", {
      method: "POST",
      json: orderBody([lineFor({ ...option, productId: "MP-0000002" } as never)]),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(placed.status).toBe(201);
    FUZZ_TEST_ORDER.orderNumber = (await placed.json<{ data: { orderNumber: string } }>()).data.orderNumber;
    const backordered = await call(testToken, `/test-helpers/orders/${FUZZ_TEST_ORDER.orderNumber}/simulate`, {
      method: "POST",
      json: { scenario: "backorder" },
    });
    expect(backordered.status).toBe(200);
    // The invoice the buyer's answers target: the demo vendor's, of the demo order.
    const invoiced = await call(await vendorTokenFor(DEMO_VENDOR_ID), "/vendor/api/invoices", {
      method: "POST",
      json: fuzzInvoice("FUZZ-INV-DECIDE"),
    });
    expect(invoiced.status, await invoiced.clone().text()).toBe(201);
    FUZZ_INVOICE.id = (await invoiced.json<{ data: { invoiceId: number } }>()).data.invoiceId;
    // The recall targets' recall: one touching a unit tenant 1 received.
    const recalled = await shippedUnits([{ lot: "FUZZ-RCL", serial: "FZ-1" }]);
    const imported = await runImport(
      { format: "ndjson" },
      { "recalls.ndjson": ndjson([enforcementRecord("Z-9990-2026", `UDI-DI ${recalled.gtin} Lot FUZZ-RCL`)]) },
      { collection: RECALL_IMPORTS },
    );
    expect(imported.state).toBe("succeeded");
    FUZZ_RECALL.id = (await recallIdOf("Z-9990-2026"))!;
    FUZZ_RECALL.unitId = (await storeRows(TENANT_A, "SELECT unit_id FROM recall_units WHERE recall_id = ?1", FUZZ_RECALL.id))[0]!
      .unit_id as number;
    // The webhook test target's endpoint: tenant 1's, at the test receiver, in its store.
    await storeRows(
      TENANT_A,
      "INSERT OR IGNORE INTO webhook_endpoints (id, tenant_id, url, event_types, secret_salt, created_at) VALUES (?1, ?2, ?3, '[\"*\"]', 'fuzz-salt', '2026-11-26T00:00:00.000Z')",
      FUZZ_ENDPOINT_ID,
      TENANT_A,
      `${RECEIVER}/ok/fuzz-samples`,
    );
    // The SCIM group the PUT and PATCH targets change: the first of this file's fresh database.
    const group = await scim(await scimTokenFor(TENANT_A), "/Groups", { method: "POST", body: { displayName: "Fuzz group" } });
    expect(group.status).toBe(201);
    expect((await group.json<{ id: string }>()).id).toBe("1");
  });

  it("the targets cover every documented JSON request body", async () => {
    const withJsonBody = operationsOf(await servedDocument())
      .filter((o) => (o.operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content?.["application/json"])
      .map((o) => o.path.replace("/customer/api", ""));
    expect(TARGETS.map((t) => t.operation ?? t.path).sort()).toEqual(withJsonBody.sort());
  });

  for (const target of TARGETS) {
    describe(`POST ${target.path}`, () => {
      it("one field replaced by a hostile value (wrong type, huge or NaN-like number, unicode, oversized) or a required field removed", async () => {
        const mutation = fc.oneof(
          ...target.fields.map((field) =>
            fc.record({ field: fc.constant(field), value: field.hostile, remove: field.required ? fc.boolean() : fc.constant(false) }),
          ),
        );
        await expectNoWrites(() =>
          fc.assert(
            fc.asyncProperty(mutation, async ({ field, value, remove }) => {
              const res = await send(target, encodeBody(setAt(target.base(), field.path, value, remove)));
              await expectSpecError(res, methodOf(target), target.path);
            }),
            { numRuns: RUNS.fields },
          ),
        );
      });

      it("random JSON documents and random text as the whole body", async () => {
        const body = fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string({ unit: "grapheme", maxLength: 200 }),
          fc.string({ unit: "binary", maxLength: 50 }),
        );
        await expectNoWrites(() =>
          fc.assert(
            fc.asyncProperty(
              body.filter((text) => !(target.optionalBody && isNoBody(text))),
              async (text) => expectRefusedOrHarmless(target, await send(target, text), true),
            ),
            { numRuns: RUNS.whole },
          ),
        );
      });

      if (!target.ignoresUnknownFields) {
        it("an unknown field in any object of the body is a 400 naming it, never dropped in silence", async () => {
          const declared = declaredNames(await servedDocument());
          const unknown = fc.record({
            at: fc.constantFrom(...objectPaths(target.base())),
            // A name the answer echoes must not read as a leak itself (D1_..., ...TypeError...): those are the markers' own.
            name: fc
              .stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,15}$/)
              .filter((name) => !declared.has(name) && !/proto/i.test(name) && !LEAK_MARKERS.test(name)),
            // A __proto__ key inside the value would be refused on its own (test/platform/requests.test.ts), not as `name`.
            value: fc.jsonValue({ maxDepth: 1, stringUnit: "grapheme" }).filter((value) => !JSON.stringify(value).includes('"__proto__"')),
          });
          await expectNoWrites(() =>
            fc.assert(
              fc.asyncProperty(unknown, async ({ at, name, value }) => {
                const res = await send(target, encodeBody(setAt(target.base(), [...at, name], value, false)));
                const rows = target.rowsAt;
                if (rows && at.length > rows.length && rows.every((key, i) => at[i] === key)) {
                  // Inside a row: that row is rejected, naming the field relative to the row; nothing is written.
                  expect(res.status).toBe(200);
                  const { results } = (await res.json<{ data: { results: { outcome: string; errors: unknown }[] } }>()).data;
                  expect(results[at[rows.length] as number]).toMatchObject({
                    outcome: "rejected",
                    errors: { [fieldPath([...at.slice(rows.length + 1), name], "row")]: [expect.stringMatching(/^Unknown field; /)] },
                  });
                  return;
                }
                const { body } = await expectSpecError(res, methodOf(target), target.path);
                expect(body.errors, JSON.stringify(body)).toEqual({
                  [fieldPath([...at, name], "body")]: [expect.stringMatching(/^Unknown field; /)],
                });
              }),
              { numRuns: RUNS.unknownFields },
            ),
          );
        });
      }

      it("duplicate keys in the raw text: the last, hostile one counts", async () => {
        const topLevel = target.fields.filter((f) => f.path.length === 1);
        const duplicate = fc.oneof(
          ...topLevel.map((field) => fc.record({ name: fc.constant(field.path[0] as string), value: field.hostile })),
        );
        await expectNoWrites(() =>
          fc.assert(
            fc.asyncProperty(duplicate, async ({ name, value }) => {
              const text = `${encodeBody(target.base()).slice(0, -1)},${JSON.stringify(name)}:${encodeBody(value)}}`;
              await expectSpecError(await send(target, text), methodOf(target), target.path);
            }),
            { numRuns: RUNS.duplicates },
          ),
        );
      });

      it("malformed JSON, and nesting hundreds of thousands deep, as the body and inside the first field", async () => {
        const [first] = target.fields;
        const bodies = [...MALFORMED_BODIES, ...DEEP_BODIES].filter((text) => !(target.optionalBody && isNoBody(text)));
        const inField = DEEP_BODIES.map((deep) =>
          encodeBody(setAt(target.base(), first!.path, "\u0000deep", false)).replace('"\\u0000deep"', deep),
        );
        await expectNoWrites(async () => {
          for (const [texts, allowSuccess] of [
            [bodies, true],
            [inField, false],
          ] as const) {
            for (const text of texts) {
              const res = await send(target, text);
              expect(res.status, `body ${text.slice(0, 40)}... (${text.length} chars)`).toBeLessThan(500);
              await expectRefusedOrHarmless(target, res, allowSuccess);
            }
          }
        });
      });
    });
  }

  it("catalog keywords: any text within the limit, full-text search syntax included, is a 200 or a spec 4xx", async () => {
    const fts = [
      '"',
      "*",
      "NEAR(",
      "OR",
      "AND",
      "NOT",
      "^",
      ":",
      "(",
      ")",
      "-",
      "+",
      "{",
      "}",
      "col:",
      "''",
      "\\",
      "%",
      "_",
      "MP-",
      "12-345",
    ];
    const query = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc
        .array(fc.oneof(fc.constantFrom(...fts), fc.string({ maxLength: 6 })), { maxLength: 25 })
        .map((parts) => parts.join(" ").slice(0, 200)),
    );
    const catalog = targetAt("/catalog/search");
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        const res = await send(catalog, JSON.stringify({ ...catalog.base(), filters: { query: text } }));
        statuses.add(res.status);
        await expectRefusedOrHarmless(catalog, res, true);
      }),
      { numRuns: runs({ quick: 20, deep: 80 }) },
    );
    expect(statuses).toContain(200);
  });

  it("regression: POST /orders nested 100,000 deep was a 500 (the idempotency fingerprint recursed); now a 400 naming the body", async () => {
    const res = await send(targetAt("/orders"), `{"notes":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const { form, body } = await expectSpecError(res, "POST", "/orders");
    expect(form).toBe("validation");
    expect(body.errors).toEqual({ body: ["JSON nested deeper than 32 levels."] });
  });

  it("every target's base body is accepted, so the mutations above start from a request that would succeed", async () => {
    for (const target of TARGETS) {
      await target.acceptsBase?.();
      const res = await send(target, JSON.stringify(target.base()));
      expect(res.status, `${target.path}: ${await res.clone().text()}`).toBe(target.accepts ?? 200);
    }
  });
});
