import type { Context } from "hono";
import type { AppEnv } from "../env";
import { assembleApp } from "../platform/app-frame";
import { bodyLimit } from "../platform/body-limit";
import { requireJsonBody } from "../platform/content-type";
import { healthRoutes } from "../platform/health";
import type { OpenApiDocument } from "../platform/openapi/document";
import { openApiDocumentRoute } from "../platform/openapi/route";
import { d1Sessions } from "../platform/read-replicas";
import { createRouter } from "../platform/router";
import { markMode } from "../platform/test-mode";
import type { VersionChange } from "../platform/versions/change";
import { apiVersioning } from "../platform/versions/middleware";
import type { SearchResource } from "../query/fields";
import { pinOfBearer, requireBearer } from "../shared/auth/bearer";
import { authRoutes, oauthErrorForm, wellKnownMetadataRoutes } from "../shared/auth/routes";
import { catalogRoutes } from "../shared/catalog/routes";
import { recordRequests } from "../shared/request-logs/record";
import { resolveRoutes } from "../shared/udi/routes";
import { userRoutes } from "../shared/users/lookup-routes";
import { userSearch } from "../shared/users/search-fields";
import { userSearchRoutes } from "../shared/users/search-routes";
import { VERSION_CHANGES } from "../versions";
import { confirmationBuyerRoutes, confirmationVendorRoutes } from "./confirmations/routes";
import { eventRoutes } from "./events/routes";
import { invoiceBuyerRoutes, invoiceVendorRoutes } from "./invoices/routes";
import { invoiceSearch } from "./invoices/search-fields";
import { manufacturerRoutes } from "./manufacturers/routes";
import { manufacturerSearch } from "./manufacturers/search-fields";
import { orderCancelRoutes } from "./orders/cancel-routes";
import { orderRoutes } from "./orders/create-routes";
import { orderRetrieveRoutes } from "./orders/retrieve-routes";
import { orderSearch } from "./orders/search-fields";
import { orderSearchRoutes } from "./orders/search-routes";
import { purchasingSettingsRoutes } from "./purchasing/routes";
import { recallBuyerRoutes, recallVendorRoutes } from "./recalls/routes";
import { requestLogBuyerRoutes, requestLogVendorRoutes } from "./request-logs/routes";
import { requestLogSearch } from "./request-logs/search-fields";
import { returnBuyerRoutes, returnVendorRoutes } from "./returns/routes";
import { returnSearch } from "./returns/search-fields";
import { hiddenTestHelper, sandboxRoutes } from "./sandbox/routes";
import { scheduleSandboxOrders } from "./sandbox/schedule";
import { VENDOR_API_BASE, VENDOR_WRITE_ROUTE, vendorOrderLineRoutes } from "./vendors/routes";
import { eventWebhooks } from "./webhooks/openapi";
import { WEBHOOK_WRITE_ROUTES, webhookRoutes } from "./webhooks/routes";

export const API_BASE = "/customer/api";

/** The operator plane's document (its own Worker, over the ADMIN binding), merged into this one: one contract. */
async function operatorPlaneDocument(c: Context<AppEnv>): Promise<OpenApiDocument | null> {
  try {
    const res = await c.env.ADMIN.fetch(new Request(new URL("/admin/api/openapi.json", c.req.url)));
    return res.ok ? ((await res.json()) as OpenApiDocument) : null;
  } catch {
    return null;
  }
}

/** Every resource with GET search (the q language), in the order docs/api.md lists their fields. */
export const SEARCH_RESOURCES: readonly SearchResource[] = [
  manufacturerSearch,
  userSearch,
  orderSearch,
  invoiceSearch,
  returnSearch,
  requestLogSearch,
];

/** Routes that write to D1: their D1 session starts on the primary (src/platform/read-replicas.ts). */
const WRITE_ROUTES = [
  /^POST \/customer\/api\/orders$/,
  /^POST \/customer\/api\/test-helpers\/orders\/[^/]+\/simulate$/,
  /^POST \/customer\/api\/orders\/[^/]+\/cancel$/,
  /^POST \/customer\/api\/orders\/[^/]+\/lines\/[^/]+\/change-decision$/,
  /^POST \/customer\/api\/invoices\/[^/]+\/(accept|dispute)$/,
  /^PUT \/customer\/api\/purchasing-settings$/,
  /^POST \/customer\/api\/orders\/[^/]+\/lines\/[^/]+\/returns$/,
  /^POST \/customer\/api\/returns\/[^/]+\/(ship|repair-decision)$/,
  /^POST \/vendor\/api\/returns\/[^/]+\/(authorize|decline|receive|diagnose|send-back)$/,
  /^POST \/vendor\/api\/(order-confirmations|invoices|credit-memos)$/,
  VENDOR_WRITE_ROUTE,
  ...WEBHOOK_WRITE_ROUTES,
];
export const isWriteRoute = (method: string, path: string) => WRITE_ROUTES.some((route) => route.test(`${method} ${path}`));

/** The customer API, mounted at /customer/api. Exported for the OpenAPI document. */
export const customerApi = createRouter()
  .route("/", userRoutes)
  .route("/", userSearchRoutes)
  .route("/", catalogRoutes)
  .route("/", resolveRoutes)
  .route("/", orderRoutes)
  .route("/", orderSearchRoutes)
  // After search: GET /orders/search must never be read as the order numbered "search".
  .route("/", orderRetrieveRoutes)
  .route("/", orderCancelRoutes)
  .route("/", confirmationBuyerRoutes)
  .route("/", invoiceBuyerRoutes)
  .route("/", purchasingSettingsRoutes)
  .route("/", returnBuyerRoutes)
  .route("/", recallBuyerRoutes)
  .route("/", manufacturerRoutes)
  .route("/", eventRoutes)
  .route("/", webhookRoutes)
  .route("/", requestLogBuyerRoutes)
  .route("/", sandboxRoutes);

/** The vendor API, mounted at /vendor/api (the offers' routes are the operator plane's Worker's). */
export const vendorApi = createRouter()
  .route("/", vendorOrderLineRoutes)
  .route("/", confirmationVendorRoutes)
  .route("/", invoiceVendorRoutes)
  .route("/", returnVendorRoutes)
  .route("/", recallVendorRoutes)
  .route("/", requestLogVendorRoutes);

/**
 * The whole Worker is one OpenAPIHono: every route declared with createRoute in the modules mounted
 * here lands in its registry, and GET /customer/api/openapi.json is generated from that registry.
 */
export function createApp(changes: readonly VersionChange[] = VERSION_CHANGES) {
  return assembleApp(
    (app) => {
      app.use("/auth/oauth2/token", oauthErrorForm);
      // The clients' request logs (src/shared/request-logs): outside the version middleware, the answers as sent.
      app.use("*", recordRequests);
      // Dated versions (docs/api.md, "Versions"): every answer in the caller's version, which every answer names.
      app.use("*", apiVersioning(changes, pinOfBearer));
      // Platform protections (docs/architecture.md); the rate limits run where the client is known: the per-client one in
      // requireBearer, the token endpoint's in its route (alongside its read of the client).
      app.use("*", bodyLimit);
      app.use(`${API_BASE}/*`, requireJsonBody);
      app.use(`${API_BASE}/*`, d1Sessions(isWriteRoute, new Set([`${API_BASE}/openapi.json`])));
      // Test mode (docs/api.md, "Sandbox"): every answer says its mode; a new test order goes on the simulated vendor's schedule.
      app.use(`${API_BASE}/*`, markMode);
      app.use(`${API_BASE}/orders`, scheduleSandboxOrders);
      app.use(`${VENDOR_API_BASE}/*`, requireJsonBody);
      app.use(`${VENDOR_API_BASE}/*`, d1Sessions(isWriteRoute));
      app.route("/", healthRoutes);
      app.route("/auth", authRoutes);
      app.route("/", wellKnownMetadataRoutes);
      app.route(API_BASE, customerApi);
      app.route(VENDOR_API_BASE, vendorApi);
      openApiDocumentRoute(app, API_BASE, operatorPlaneDocument);
      eventWebhooks(app);
    },
    // A token on an unknown path or method under /customer/api is authenticated and rate-limited as on a route.
    { unmatched: { authenticate: { prefix: `${API_BASE}/`, bearer: requireBearer }, hidden: hiddenTestHelper } },
  );
}
