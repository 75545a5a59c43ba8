import { LATEST_VERSION } from "../versions/calendar";
/** Title, description and tags of the OpenAPI document: the prose an integrator reads first on /docs. */

/** The document's info.version: the API version it describes (an older one when rendered at it: docs/api.md, "Versions"). */
export const API_VERSION = LATEST_VERSION;

/** The answers' envelope and money, as the latest version has them (src/versions/changes/2026-12-07-*.ts undo them). */
export const SUCCESS_AND_MONEY = `**Success bodies** are \`{ success: true, data, correlationId, timestamp }\`, the one envelope of every answer with a
body that is not an error. **Money** is a decimal string (\`"1249.50"\`, two places in answers, at most two in
requests) with the ISO 4217 \`currency\` of its order, offer or invoice beside it: never a JSON number.`;

/** The one error form of the latest version. */
export const ERROR_FORM = `**Errors** are RFC 9457 problem details (\`application/problem+json\`, schema \`Problem\`) whatever the status:
\`type\` (the URI of the error's page), \`title\`, \`status\`, \`detail\`, \`instance\`, \`correlationId\`, \`timestamp\`,
\`service\`, and \`errors\`, an entry per message with the \`field\` it concerns (a 400's fields, a 422's lines).
The token endpoint answers every error (429 and 5xx included) in the RFC 6749 5.2 form instead: \`application/json\`
\`{ error, error_description }\` (\`OAuthError\`). Do not retry a 4xx unchanged, except the 409
\`idempotency-conflict\` "the request is currently being processed"; retry 5xx with exponential backoff and jitter,
honouring \`Retry-After\`.`;

export const API_INFO = {
  title: "Medparts Customer API",
  version: API_VERSION,
  description: `Parts catalog and ordering API for hospital buyers, machine to machine.

**Flow**: (1) get a token with your client credentials at \`POST /auth/oauth2/token\`;
(2) \`GET /customer/api/users/lookup\` for the buyer's contact id (\`requesterId\`), facilities and addresses;
(3) \`POST /customer/api/catalog/search\`; (4) \`POST /customer/api/catalog/detail\` for price options,
each with a \`priceOptionId\` (a quote valid 30 days); (5) \`POST /customer/api/orders\` with an \`Idempotency-Key\`;
then find orders with \`GET /customer/api/orders/search?include=lineItems,shippingInfo\`.

${SUCCESS_AND_MONEY}

${ERROR_FORM}

**Headers**: every response carries \`X-Correlation-Id\` (send your own to trace a call); rate-limited
operations carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and, on 429, \`Retry-After\`.
Order creation requires \`Idempotency-Key\` (a UUID with dashes); replays carry \`X-Idempotency-Cached: true\`.

**Vendors** fulfil order lines through \`/vendor/api\` with their own clients (security scheme \`vendorOAuth2\`):
list their open lines, then acknowledge, backorder, ship (with a tracking number), deliver or reject them. Buyers
follow the result through \`GET /customer/api/orders/{orderNumber}\`.

**The operator** (the marketplace itself) loads the catalog through \`/admin/api\` with an operator client (security
scheme \`operatorOAuth2\`): create an import job, upload its file, start it, and follow its progress and errors.`,
};

/** Tags more than one route file names (every route file takes its tag from here, never from another route file). */
export const OFFERS_TAG = "Vendor offers and contract prices";
export const ONBOARDING_TAG = "Onboarding";
export const SCIM_TAG = "SCIM";
export const SANDBOX_TAG = "Sandbox";
export const PROCUREMENT_TAG = "Procurement systems (cXML)";
export const EDI_TAG = "Vendors over X12 EDI";

/** The operator plane Worker's own document (GET /admin/api/openapi.json): its operations only. */
export const OPERATOR_PLANE_INFO = {
  title: "Medparts Operator Plane API",
  version: API_VERSION,
  description: `The operations of the operator plane's Worker alone: \`/admin/api\` (the marketplace's operator clients: catalog
import, onboarding, price tiers, API clients, SCIM tokens, the audit log), the vendor API's publishing (offers, price
agreements, price files) and SCIM 2.0 (\`/scim/v2\`). The whole contract, with the customer and vendor APIs and these
operations, is \`GET /customer/api/openapi.json\`; generate clients from that one.`,
};

export const TAGS = [
  { name: "Authentication", description: "OAuth 2.0 authorization server ({auth_url} = {base_url}/auth)" },
  { name: "Users", description: "Buyer users of your tenant: lookup and search (the q language)" },
  { name: "Catalog", description: "Global parts catalog; detail issues price options (quotes)" },
  { name: "Orders", description: "Order creation (idempotent) and order search" },
  { name: "Manufacturers", description: "Manufacturer search (the q language)" },
  { name: "Events", description: "The tenant's order events: the feed (cursor paging), the same events webhooks deliver" },
  { name: "Webhooks", description: "Endpoints that receive order events, signed, through Cloudflare Queues" },
  {
    name: "Vendor fulfilment",
    description:
      "For vendors (vendor clients only): the order lines they fulfil, confirmed with X12 855 codes and moved along the lifecycle",
  },
  {
    name: "Invoices",
    description:
      "Vendors' invoices and credit memos, three-way matched against the order and what shipped; the buyer's search, accept and dispute, and the tenant's purchasing settings",
  },
  {
    name: "Returns",
    description:
      "What goes back to a vendor: an exchange's core, a loaner, a unit sent in for repair, a return of bought units (RMA); their steps, due dates and charges",
  },
  {
    name: "Recalls",
    description:
      "FDA device recalls and vendors' field safety notices matched against the units each hospital received (device identifier, lot, serial): the hospital's recalls and their units, acknowledgement, what was found, returns; the vendor's counts and notices; the operator's recall imports",
  },
  {
    name: "Request logs",
    description:
      "What Medparts received from a client and answered: method, path, status, latency, correlation id, idempotency key, an error's problem document and, in test mode, both bodies (redacted); 30 days in test mode, 7 live",
  },
  {
    name: OFFERS_TAG,
    description:
      "For vendors: the offers they publish (by their own SKU) and their price agreements with buyer tenants, facilities or tiers; catalog detail quotes each buyer its eligible price",
  },
  {
    name: "Catalog import",
    description:
      "For the operator (operator clients only, /admin/api): load the catalog from NDJSON, CSV or the FDA AccessGUDID release through durable import jobs",
  },
  { name: "Price tiers", description: "For the operator: tiers of buyer tenants that vendors' price agreements can name" },
  {
    name: ONBOARDING_TAG,
    description:
      "For the operator: health systems, their companies, facilities and addresses, vendors, API clients of every kind (secrets rotated with an overlap), SCIM tokens, and the audit log of every change",
  },
  {
    name: SCIM_TAG,
    description:
      "SCIM 2.0 (RFC 7643, 7644) for a health system's identity provider (Entra ID, Okta), with the tenant's SCIM token: users, and groups that grant facility access. Bodies and errors are application/scim+json",
  },
  {
    name: PROCUREMENT_TAG,
    description:
      "Hospitals' procurement suites (SAP Ariba, Coupa, Oracle, Workday) over cXML: the operator's connections, the one cXML endpoint (ProfileRequest, PunchOutSetupRequest, OrderRequest) and the PunchOut shop",
  },
  {
    name: EDI_TAG,
    description:
      "For the operator: vendors that trade in ASC X12 (850, 855, 856, 810, 832, 997/999) over AS2 or an HTTPS mailbox, each a trading partner with its identities, version, delimiters and documents",
  },
  { name: "Operator events", description: "For the operator: what happened on the operator plane (an import finished)" },
  {
    name: SANDBOX_TAG,
    description:
      "Test mode: test-mode clients (ids mpc_test_...) place test orders, which a simulated vendor fulfils with the real events and webhooks; answers carry Medparts-Mode",
  },
  { name: "Health", description: "Liveness and readiness, no token" },
  { name: "Contract", description: "This document" },
];
