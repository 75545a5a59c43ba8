import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, sqliteView, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { PurchaseTerms, PurchaseType, RepairRequest } from "./purchase-terms";

export type { PurchaseTerms, PurchaseType, RepairRequest } from "./purchase-terms";

// Mirrors migrations/*.sql (the migrations are the source of truth for the database).

export const tenants = sqliteTable("tenants", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  /** The operator's own id for the tenant (migrations/0019): creating it again with it answers this one. */
  externalId: text("external_id"),
  disabledAt: text("disabled_at"),
});

export const apiClients = sqliteTable("api_clients", {
  id: integer("id").primaryKey(),
  clientId: text("client_id").notNull().unique(),
  secretHash: text("secret_hash").notNull(),
  /** Exactly one owner: a buyer tenant (tenant_id), a vendor (vendor_id), or the operator (operator, /admin/api). */
  tenantId: integer("tenant_id"),
  vendorId: integer("vendor_id"),
  operator: integer("operator", { mode: "boolean" }).notNull().default(false),
  name: text("name").notNull(),
  scopes: text("scopes").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  createdAt: text("created_at").notNull(),
  /** Secret rotation (migrations/0018): the current secret's dates, and the previous secret until it expires. */
  secretCreatedAt: text("secret_created_at"),
  secretLastUsedAt: text("secret_last_used_at"),
  previousSecretHash: text("previous_secret_hash"),
  previousSecretCreatedAt: text("previous_secret_created_at"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  previousSecretLastUsedAt: text("previous_secret_last_used_at"),
  previousSecretWarnedAt: text("previous_secret_warned_at"),
  /** The API version the client is pinned to (migrations/0026; docs/api.md, "Versions"). */
  apiVersion: text("api_version").notNull(),
});

/** Every admin change: who, what, when, before and after (migrations/0018; GET /admin/api/audit). */
export const auditLog = sqliteTable("audit_log", {
  id: integer("id").primaryKey(),
  at: text("at").notNull(),
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  targetType: text("target_type").notNull(),
  targetId: text("target_id").notNull(),
  before: text("before", { mode: "json" }),
  after: text("after", { mode: "json" }),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  contactId: integer("contact_id").notNull(),
  /** The user name, unique within the tenant (migrations/0021); `login_user_id` is only a unique internal key. */
  loginUserId: text("user_name").notNull().default(""),
  uniqueKey: text("login_user_id").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email"),
  createdAt: text("created_at").notNull(),
  /** SCIM provisioning (migrations/0021): a deactivated user may not be a requester; a deleted one is gone from the APIs. */
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  deletedAt: text("deleted_at"),
  externalId: text("external_id"),
  updatedAt: text("updated_at"),
  version: integer("version").notNull().default(1),
  /** The SCIM representation as the identity provider last sent it (src/operator/scim/users.ts). */
  scim: text("scim"),
});

/** Facility access granted directly (user_facilities) or by a SCIM group naming the facility (migrations/0021). */
export const facilityGrants = sqliteView("facility_grants", {
  userId: integer("user_id").notNull(),
  facilityId: integer("facility_id").notNull(),
}).existing();

/** Company membership granted directly (user_companies) or through a facility a SCIM group grants (migrations/0021). */
export const companyGrants = sqliteView("company_grants", {
  userId: integer("user_id").notNull(),
  companyId: integer("company_id").notNull(),
}).existing();

export const companies = sqliteTable("companies", {
  id: integer("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  name: text("name").notNull(),
  externalId: text("external_id"),
  createdAt: text("created_at"),
  disabledAt: text("disabled_at"),
});

export const userCompanies = sqliteTable(
  "user_companies",
  { userId: integer("user_id").notNull(), companyId: integer("company_id").notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] })],
);

export const addresses = sqliteTable("addresses", {
  id: integer("id").primaryKey(),
  companyId: integer("company_id").notNull(),
  kind: text("kind", { enum: ["shipping", "billing"] }).notNull(),
  attentionTo: text("attention_to"),
  line1: text("line1").notNull(),
  city: text("city").notNull(),
  state: text("state").notNull(),
  zip: text("zip").notNull(),
  country: text("country").notNull(),
  externalId: text("external_id"),
  createdAt: text("created_at"),
  disabledAt: text("disabled_at"),
});

export const facilities = sqliteTable("facilities", {
  id: integer("id").primaryKey(),
  companyId: integer("company_id").notNull(),
  name: text("name").notNull(),
  externalId: text("external_id"),
  createdAt: text("created_at"),
  /** The facility's GS1 Global Location Number, if given (migrations/0020). */
  gln: text("gln"),
  disabledAt: text("disabled_at"),
});

export const userFacilities = sqliteTable(
  "user_facilities",
  { userId: integer("user_id").notNull(), facilityId: integer("facility_id").notNull() },
  (t) => [primaryKey({ columns: [t.userId, t.facilityId] })],
);

export const vendors = sqliteTable("vendors", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  returnPolicy: text("return_policy").notNull(),
  externalId: text("external_id"),
  createdAt: text("created_at"),
  disabledAt: text("disabled_at"),
});

export interface CustomFieldDefinition {
  fieldId: string;
  prompt: string;
  isRequired: boolean;
  formatRegex: string;
  errorMessage: string;
}

export const vendorOffers = sqliteTable("vendor_offers", {
  id: integer("id").primaryKey(),
  productId: text("product_id").notNull(),
  vendorId: integer("vendor_id").notNull(),
  condition: text("condition").notNull(),
  purchaseChoice: text("purchase_choice").notNull(),
  warranty: text("warranty").notNull(),
  priceCents: integer("price_cents").notNull(),
  leadTimeDays: integer("lead_time_days").notNull(),
  customFields: text("custom_fields", { mode: "json" }).$type<CustomFieldDefinition[]>().notNull(),
  /** The vendor's own key of the offer (migration 0016); one current revision per (vendor, sku). */
  sku: text("sku").notNull(),
  unitOfMeasure: text("unit_of_measure").notNull(),
  packQuantity: integer("pack_quantity").notNull(),
  quantityAvailable: integer("quantity_available"),
  quantityCountedAt: text("quantity_counted_at"),
  effectiveFrom: text("effective_from"),
  effectiveTo: text("effective_to"),
  futurePriceCents: integer("future_price_cents"),
  futurePriceFrom: text("future_price_from"),
  /** buy, exchange, loan or repair (migrations/0032), with its terms (src/shared/catalog/purchase-terms.ts); null for buy. */
  purchaseType: text("purchase_type").$type<PurchaseType>().notNull().default("buy"),
  purchaseTerms: text("purchase_terms", { mode: "json" }).$type<PurchaseTerms>(),
  withdrawnAt: text("withdrawn_at"),
  /** A later revision of the SKU took this row's place (its terms changed). */
  replacedAt: text("replaced_at"),
  updatedAt: text("updated_at").notNull(),
});

export type OfferRow = typeof vendorOffers.$inferSelect;
/** An offer's terms as a quote freezes them: a change of any makes a new revision (src/operator/offers/offers.ts). */
export type OfferTerms = Pick<
  OfferRow,
  | "productId"
  | "condition"
  | "purchaseChoice"
  | "warranty"
  | "leadTimeDays"
  | "unitOfMeasure"
  | "packQuantity"
  | "customFields"
  | "purchaseType"
  | "purchaseTerms"
>;

export const priceTiers = sqliteTable("price_tiers", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
});

export const tenantPriceTiers = sqliteTable(
  "tenant_price_tiers",
  { tenantId: integer("tenant_id").notNull(), tierId: integer("tier_id").notNull() },
  (t) => [primaryKey({ columns: [t.tenantId, t.tierId] })],
);

export const priceAgreements = sqliteTable("price_agreements", {
  id: integer("id").primaryKey(),
  vendorId: integer("vendor_id").notNull(),
  reference: text("reference").notNull(),
  scope: text("scope", { enum: ["tenant", "facilities", "tier"] }).notNull(),
  tenantId: integer("tenant_id"),
  tierId: integer("tier_id"),
  effectiveFrom: text("effective_from").notNull(),
  effectiveTo: text("effective_to"),
  endedAt: text("ended_at"),
  createdAt: text("created_at").notNull(),
  creationKey: text("creation_key").notNull(),
});

export const priceAgreementFacilities = sqliteTable(
  "price_agreement_facilities",
  { agreementId: integer("agreement_id").notNull(), facilityId: integer("facility_id").notNull() },
  (t) => [primaryKey({ columns: [t.agreementId, t.facilityId] })],
);

export const priceAgreementPrices = sqliteTable("price_agreement_prices", {
  id: integer("id").primaryKey(),
  agreementId: integer("agreement_id").notNull(),
  vendorId: integer("vendor_id").notNull(),
  productId: text("product_id").notNull(),
  sku: text("sku"),
  priceCents: integer("price_cents").notNull(),
});

export const quotes = sqliteTable("quotes", {
  id: text("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  requesterContactId: integer("requester_contact_id").notNull(),
  facilityId: integer("facility_id").notNull(),
  productId: text("product_id").notNull(),
  offerId: integer("offer_id").notNull(),
  vendorId: integer("vendor_id").notNull(),
  priceCents: integer("price_cents").notNull(),
  condition: text("condition").notNull(),
  warranty: text("warranty").notNull(),
  purchaseChoice: text("purchase_choice").notNull(),
  leadTimeDays: integer("lead_time_days").notNull(),
  returnPolicy: text("return_policy").notNull(),
  customFields: text("custom_fields", { mode: "json" }).$type<CustomFieldDefinition[]>().notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  usedByOrderId: integer("used_by_order_id"),
});

export const orders = sqliteTable("orders", {
  id: integer("id").primaryKey(),
  orderNumber: text("order_number").notNull().unique(),
  tenantId: integer("tenant_id").notNull(),
  companyId: integer("company_id").notNull(),
  facilityId: integer("facility_id").notNull(),
  requesterContactId: integer("requester_contact_id").notNull(),
  userId: integer("user_id").notNull(),
  requesterName: text("requester_name").notNull(),
  poNumber: text("po_number"),
  paymentMethod: text("payment_method").notNull(),
  shippingMethod: text("shipping_method").notNull(),
  shippingAddressId: integer("shipping_address_id").notNull(),
  billingAddressId: integer("billing_address_id").notNull(),
  notes: text("notes"),
  status: text("status").notNull(),
  totalCents: integer("total_cents").notNull(),
  eventId: text("event_id").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /** 1 at creation, +1 on every change: the optimistic lock of changes and the sequence of the order's events. */
  version: integer("version").notNull().default(sql`1`),
});

export interface RequiredFieldValue {
  fieldId: string;
  value: string;
}

export const orderLines = sqliteTable(
  "order_lines",
  {
    id: integer("id").primaryKey(),
    orderId: integer("order_id").notNull(),
    lineNumber: integer("line_number").notNull(),
    quoteId: text("quote_id").notNull(),
    productId: text("product_id").notNull(),
    vendorId: integer("vendor_id").notNull(),
    partNumber: text("part_number").notNull(),
    requestedPartNumber: text("requested_part_number").notNull(),
    replacementPartNumber: text("replacement_part_number"),
    poNumber: text("po_number"),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    priceCents: integer("price_cents").notNull(),
    extendedPriceCents: integer("extended_price_cents").notNull(),
    statusName: text("status_name").notNull(),
    requiredFields: text("required_fields", { mode: "json" }).$type<RequiredFieldValue[]>().notNull(),
    shippedQuantity: integer("shipped_quantity").notNull().default(sql`0`),
    promisedShipDate: text("promised_ship_date"),
    expectedShipDate: text("expected_ship_date"),
    /** Why the vendor backordered or rejected the line. */
    statusReason: text("status_reason"),
    deliveredAt: text("delivered_at"),
    /** The buyer's contract price when the line was ordered at one (its quote named an agreement); null for a list price. */
    contractPriceCents: integer("contract_price_cents"),
    /** The X12 855 code of the vendor's latest confirmation of the line (src/shared/confirmations/codes.ts). */
    confirmationCode: text("confirmation_code"),
    /** A change the vendor proposed that waits for the buyer's answer (src/api/confirmations/confirm.ts); null when none. */
    proposedChange: text("proposed_change", { mode: "json" }).$type<ProposedChange>(),
    /** The purchase type and terms of the quote it was ordered on (migrations/0032). */
    purchaseType: text("purchase_type").$type<PurchaseType>().notNull().default("buy"),
    purchaseTerms: text("purchase_terms", { mode: "json" }).$type<PurchaseTerms>(),
    /** A repair line's unit: its serial number and the reason it goes in. */
    repair: text("repair", { mode: "json" }).$type<RepairRequest>(),
  },
  (t) => [uniqueIndex("order_lines_quote").on(t.quoteId), index("order_lines_vendor_status").on(t.vendorId, t.statusName, t.id)],
);

/** A line's change waiting for the buyer's answer: the vendor's confirmation code and the values it proposes. */
export interface ProposedChange {
  code: string;
  priceCents?: number;
  quantity?: number;
  substitute?: { partNumber: string; description: string };
  promisedShipDate?: string | null;
  /** The proposed price is above the buyer's contract price: never accepted automatically. */
  contractPriceException: boolean;
  note?: string | null;
  proposedAt: string;
}

/** Each change of a line after it was ordered (migrations/0031): revision 1, 2, ... per line, with who made it. */
export const orderLineRevisions = sqliteTable(
  "order_line_revisions",
  {
    lineId: integer("line_id").notNull(),
    revision: integer("revision").notNull(),
    orderId: integer("order_id").notNull(),
    actor: text("actor", { enum: ["vendor", "buyer", "system"] }).notNull(),
    actorId: integer("actor_id"),
    code: text("code").notNull(),
    changes: text("changes", { mode: "json" }).$type<StoredLineFieldChange[]>().notNull(),
    note: text("note"),
    at: text("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.revision] })],
);

/**
 * A field a revision changed, as stored: the typed form of src/api/orders/line-history.ts (LineFieldChange), or in rows
 * written before it an older form that the history reads into it.
 */
export interface StoredLineFieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** The tenant's purchasing settings (migrations/0031): auto-acceptance of vendors' price changes and match tolerances. */
export const purchasingSettings = sqliteTable("purchasing_settings", {
  tenantId: integer("tenant_id").primaryKey(),
  autoAcceptPercentBp: integer("auto_accept_percent_bp"),
  autoAcceptAmountCents: integer("auto_accept_amount_cents"),
  priceTolerancePercentBp: integer("price_tolerance_percent_bp"),
  priceToleranceAmountCents: integer("price_tolerance_amount_cents"),
  quantityTolerance: integer("quantity_tolerance").notNull().default(sql`0`),
  /** How many days before a core's or loaner's due date the tenant is warned (migrations/0032); null: the default. */
  dueSoonDays: integer("due_soon_days"),
  updatedAt: text("updated_at").notNull(),
});

/** Vendors' invoices and credit memos to a tenant (migrations/0031), each for one order. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey(),
    tenantId: integer("tenant_id").notNull(),
    vendorId: integer("vendor_id").notNull(),
    orderId: integer("order_id").notNull(),
    kind: text("kind").notNull(),
    number: text("number").notNull(),
    creditedInvoiceId: integer("credited_invoice_id"),
    invoiceDate: text("invoice_date").notNull(),
    currency: text("currency").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    freightCents: integer("freight_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    status: text("status").notNull(),
    statusReason: text("status_reason"),
    bodyDigest: text("body_digest").notNull(),
    /** Null for a vendor's document; what Medparts billed for a unit return (migrations/0032): core_charge or late_fee. */
    origin: text("origin"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("invoices_number").on(t.tenantId, t.vendorId, t.kind, t.number), index("invoices_order").on(t.orderId)],
);

export const invoiceLines = sqliteTable(
  "invoice_lines",
  {
    invoiceId: integer("invoice_id").notNull(),
    lineNumber: integer("line_number").notNull(),
    orderLineId: integer("order_line_id"),
    creditedLineNumber: integer("credited_line_number"),
    partNumber: text("part_number"),
    description: text("description"),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    matchStatus: text("match_status"),
    matchExplanation: text("match_explanation"),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.lineNumber] })],
);

/**
 * A unit that goes back to its vendor (migrations/0032; src/api/returns): an exchange's core, a loaner, a unit sent in
 * for repair, a return of bought units. Its steps are order changes (each one event in the order's sequence).
 */
export const unitReturns = sqliteTable(
  "unit_returns",
  {
    id: integer("id").primaryKey(),
    tenantId: integer("tenant_id").notNull(),
    orderId: integer("order_id").notNull(),
    lineId: integer("line_id").notNull(),
    vendorId: integer("vendor_id").notNull(),
    facilityId: integer("facility_id").notNull(),
    kind: text("kind").$type<ReturnKind>().notNull(),
    status: text("status").notNull(),
    quantity: integer("quantity").notNull(),
    rmaNumber: text("rma_number"),
    reason: text("reason"),
    note: text("note"),
    serial: text("serial"),
    dueAt: text("due_at"),
    returnTo: text("return_to"),
    /** Per kind: a core's charge per unit, a loaner's late fee per unit and day, a return's restocking fee, a repair's price. */
    chargeCents: integer("charge_cents"),
    /** A repair's price beyond its flat rate, while the buyer decides. */
    proposedPriceCents: integer("proposed_price_cents"),
    /** What Medparts billed for it (a core charge, late fees), on invoice `invoiceId`. */
    billedCents: integer("billed_cents"),
    invoiceId: integer("invoice_id"),
    /** The unit's way to the vendor, and (a repair) back. */
    inbound: text("inbound", { mode: "json" }).$type<ReturnShipment>(),
    outbound: text("outbound", { mode: "json" }).$type<ReturnShipment>(),
    receivedAt: text("received_at"),
    outcome: text("outcome"),
    outcomeReason: text("outcome_reason"),
    /** When the due-soon warning went out: it goes once. */
    dueSoonAt: text("due_soon_at"),
    /** The buyer's Idempotency-Key of a return's request: the same key answers the same return. */
    requestKey: text("request_key"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("unit_returns_line").on(t.lineId), index("unit_returns_tenant").on(t.tenantId, t.id)],
);

export type ReturnKind = "core" | "loaner" | "repair" | "rma";

/** A parcel of a return: who carries it, its tracking number, when it left, and the unit's UDI when scanned. */
export interface ReturnShipment {
  carrierName: string;
  trackingNumber: string;
  shippedAt: string;
  udi?: { agency: string; deviceId: string; lot: string | null; serial: string | null; expiry: string | null } | null;
  repaired?: boolean;
}

export const shippingDocuments = sqliteTable("shipping_documents", {
  id: integer("id").primaryKey(),
  orderId: integer("order_id").notNull(),
  attentionTo: text("attention_to"),
  address1: text("address1").notNull(),
  city: text("city").notNull(),
  state: text("state").notNull(),
  zip: text("zip").notNull(),
  country: text("country").notNull(),
  carrierName: text("carrier_name").notNull(),
  serviceLevel: text("service_level").notNull(),
  /** Set when the parcel ships (order lifecycle); null before. */
  trackingNumber: text("tracking_number"),
  shippedAt: text("shipped_at"),
  /** The vendor whose parcel this is; null for the document made with the order (what is still to ship). */
  vendorId: integer("vendor_id"),
});

export const shippingDocumentLines = sqliteTable(
  "shipping_document_lines",
  {
    shippingDocumentId: integer("shipping_document_id").notNull(),
    lineId: integer("line_id").notNull(),
    /** How much of the line is in this parcel; null on the order's own document (what is left to ship). */
    quantity: integer("quantity"),
  },
  (t) => [primaryKey({ columns: [t.shippingDocumentId, t.lineId] })],
);

/** The UDIs of the units shipped in a parcel (migrations/0017): what a recall searches by lot or serial. */
export const shippedUnits = sqliteTable("shipped_units", {
  id: integer("id").primaryKey(),
  orderId: integer("order_id").notNull(),
  lineId: integer("line_id").notNull(),
  shippingDocumentId: integer("shipping_document_id").notNull(),
  agency: text("agency").notNull(),
  deviceId: text("device_id").notNull(),
  lot: text("lot"),
  serial: text("serial"),
  expiry: text("expiry"),
  units: integer("units").notNull(),
});

/** A recall that touches the tenant's units, as its store matched it (tenant-migrations/0011, docs/recalls.md). */
export const tenantRecalls = sqliteTable("tenant_recalls", {
  recallId: integer("recall_id").primaryKey(),
  source: text("source").notNull(),
  vendorId: integer("vendor_id"),
  productNumber: text("product_number").notNull(),
  classification: text("classification"),
  status: text("status").notNull(),
  firm: text("firm"),
  productDescription: text("product_description"),
  reason: text("reason"),
  codeInfo: text("code_info").notNull(),
  initiatedOn: text("initiated_on"),
  classifiedOn: text("classified_on"),
  terminatedOn: text("terminated_on"),
  revision: integer("revision").notNull(),
  matchedAt: text("matched_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  acknowledgedAt: text("acknowledged_at"),
  acknowledgedBy: text("acknowledged_by"),
  affectedUnits: integer("affected_units").notNull(),
  reviewUnits: integer("review_units").notNull(),
});

/** A delivered unit a recall touches, and what the hospital found of it. */
export const recallUnits = sqliteTable(
  "recall_units",
  {
    recallId: integer("recall_id").notNull(),
    unitId: integer("unit_id").notNull(),
    outcome: text("outcome").notNull(),
    reason: text("reason").notNull(),
    disposition: text("disposition", { enum: ["found", "not_found", "used"] }),
    dispositionAt: text("disposition_at"),
    dispositionBy: text("disposition_by"),
    returnId: integer("return_id"),
    matchedAt: text("matched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recallId, t.unitId] })],
);

export const outboxEvents = sqliteTable("outbox_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  tenantId: integer("tenant_id").notNull(),
  aggregateId: text("aggregate_id").notNull(),
  payload: text("payload", { mode: "json" }).notNull(),
  createdAt: text("created_at").notNull(),
  deliveredAt: text("delivered_at"),
  /** The order's version after the change: 1 for order.created, then 2, 3... per order. */
  sequence: integer("sequence"),
  /** When the event was handed to the delivery queue; null until then. */
  dispatchedAt: text("dispatched_at"),
});

/** A stored HTTP response, replayed to a retry of the same idempotent request. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const idempotencyResults = sqliteTable(
  "idempotency_results",
  {
    tenantId: integer("tenant_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    response: text("response", { mode: "json" }).$type<StoredResponse>().notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.idempotencyKey] }), index("idempotency_results_expiry").on(t.expiresAt)],
);

/** Always empty: a write batch inserts a NULL here to abort itself when a precondition fails (migration 0008). */
export const writePreconditions = sqliteTable("write_preconditions", {
  mustHold: integer("must_hold").notNull(),
});

export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  tenantId: integer("tenant_id").notNull(),
  url: text("url").notNull(),
  eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
  secretSalt: text("secret_salt").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  disabledReason: text("disabled_reason"),
  failingSince: text("failing_since"),
  createdAt: text("created_at").notNull(),
  /** The API version its events are rendered at (migrations/0027; docs/api.md, "Versions"). */
  apiVersion: text("api_version").notNull(),
  /** A procurement connection's endpoint: its deliveries are cXML documents (migrations/0034). */
  connectionId: integer("connection_id"),
});

export const webhookDeliveries = sqliteTable("webhook_deliveries", {
  id: integer("id").primaryKey(),
  endpointId: text("endpoint_id").notNull(),
  eventId: text("event_id").notNull(),
  attempt: integer("attempt").notNull(),
  outcome: text("outcome", { enum: ["succeeded", "failed", "dead-lettered"] }).notNull(),
  statusCode: integer("status_code"),
  error: text("error"),
  latencyMs: integer("latency_ms").notNull(),
  createdAt: text("created_at").notNull(),
});

/** A delivery still owed to an endpoint (migrations/0014): sent again by the sweep when `dueAt` passes untouched. */
export const webhookDeliveriesOwed = sqliteTable(
  "webhook_deliveries_owed",
  {
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attempts: integer("attempts").notNull().default(0),
    dueAt: text("due_at").notNull(),
    /** 1 while held behind an earlier event of its order (migrations/0025): that event's success sends it on. */
    held: integer("held").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.endpointId] }), index("webhook_deliveries_owed_due").on(t.dueAt)],
);

/**
 * The codes that name a catalog product, copied from the catalog database (migrations/0024): its device identifiers
 * by agency, its normalized part number under agency "" (src/shared/catalog/product-codes.ts). A bulk import rebuilds
 * the table beside the live one and renames it, so its index is named `product_codes_product` or
 * `product_codes_product__next` (src/operator/imports/next-catalog/scan-codes.ts): a migration names neither.
 */
export const productCodes = sqliteTable(
  "product_codes",
  {
    agency: text("agency").notNull(),
    code: text("code").notNull(),
    productId: text("product_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agency, t.code, t.productId] }), index("product_codes_product").on(t.productId)],
);

/**
 * Where each tenant's data lives (migrations/0028; docs/tenant-stores.md): while `state` is 'copying', and once it is
 * 'store', the database refuses every write of the tenant's rows; 'copied' says its stores hold a verified copy.
 */
export const tenantStores = sqliteTable("tenant_stores", {
  tenantId: integer("tenant_id").primaryKey(),
  state: text("state", { enum: ["database", "copying", "copied", "store"] }).notNull(),
  moveId: text("move_id"),
  startedAt: text("started_at"),
  finishedAt: text("finished_at"),
  totalRows: integer("total_rows"),
  copiedRows: integer("copied_rows"),
  verification: text("verification", { mode: "json" }),
  switchAfter: integer("switch_after", { mode: "boolean" }).notNull().default(false),
});
