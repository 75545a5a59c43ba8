import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { assembleApp } from "../platform/app-frame";
import { bodyLimit } from "../platform/body-limit";
import { requireJsonBody } from "../platform/content-type";
import { OPERATOR_PLANE_INFO } from "../platform/openapi/info";
import { openApiDocumentRoute } from "../platform/openapi/route";
import {
  ADMIN_API_BASE,
  AS2_PATH,
  CXML_PATH,
  DESK_BASE,
  EDI_MAILBOX_BASE,
  isScimPath,
  PUNCHOUT_BASE,
  VENDOR_API_BASE,
  VENDOR_PUBLISHING_PATHS,
} from "../platform/planes";
import { d1Sessions } from "../platform/read-replicas";
import { createRouter } from "../platform/router";
import { isVersionedPath } from "../platform/versions/calendar";
import { apiVersioning } from "../platform/versions/middleware";
import { pinOfBearer } from "../shared/auth/bearer";
import { recordRequests } from "../shared/request-logs/record";
import { VERSION_CHANGES } from "../versions";
import { deskInvitationRoutes } from "./desk/invitation-routes";
import { PRICE_FILES_PATH } from "./desk/offers";
import { deskRoutes } from "./desk/routes";
import { handoffRoutes } from "./edi/outbound/handoff-route";
import { partnerRoutes } from "./edi/partners/routes";
import { handleAs2 } from "./edi/transport/as2-route";
import { mailboxRoutes } from "./edi/transport/mailbox-routes";
import { operatorEventRoutes } from "./events";
import { importRoutes } from "./imports/routes";
import { agreementRoutes } from "./offers/agreement-routes";
import { offerRoutes } from "./offers/offer-routes";
import { offerImportRoutes } from "./offers/price-file-routes";
import { tierRoutes } from "./offers/tier-routes";
import { onboardingRoutes } from "./onboarding/client-routes";
import { addressRoutes, companyRoutes, facilityRoutes, tenantRoutes, vendorOrganizationRoutes } from "./onboarding/organizations";
import { connectionRoutes } from "./procurement/connection-routes";
import { documentRoutes } from "./procurement/documents";
import { gatewayRoutes } from "./procurement/routes";
import { shopRoutes } from "./procurement/shop/routes";
import { recallImportRoutes } from "./recalls/import-routes";
import { handleScimError, SCIM_BASE, ScimError } from "./scim/errors";
import { scimRoutes } from "./scim/routes";
import { requireScimToken, scimTokenRoutes } from "./scim/tokens";
import { pushDirectoryAfterWrites } from "./tenant-stores/directory-mirror";

/**
 * Uploads stream their bytes to R2, and the cXML, AS2 and EDI mailbox endpoints and the desk's price file form read
 * their documents themselves (up to their own limits, answering in their own forms): neither the 1 MiB body limit nor the JSON body rules apply to them.
 */
const isUpload = (method: string, path: string) =>
  (method === "PUT" &&
    /^\/(admin\/api\/catalog\/imports|admin\/api\/recalls\/imports|vendor\/api\/offer-imports)\/[^/]+\/files\//.test(path)) ||
  path === CXML_PATH ||
  path === AS2_PATH ||
  (method === "POST" && path.startsWith(`${EDI_MAILBOX_BASE}/`) && path.endsWith("/inbound")) ||
  (method === "POST" && path === PRICE_FILES_PATH);
const exceptUploads =
  (middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    isUpload(c.req.method, c.req.path) ? next() : middleware(c, next);

/** Every vendor publishing request but a read writes: its D1 session starts on the primary. */
const isPublishingWrite = (method: string) => method !== "GET" && method !== "HEAD";

/** The operator API, mounted at /admin/api (docs/api.md, "Catalog import", "Offers and contract prices"). */
export const adminApi = createRouter()
  .route("/", importRoutes)
  .route("/", recallImportRoutes)
  .route("/", operatorEventRoutes)
  .route("/", tierRoutes)
  .route("/", onboardingRoutes)
  .route("/", tenantRoutes)
  .route("/", vendorOrganizationRoutes)
  .route("/", companyRoutes)
  .route("/", facilityRoutes)
  .route("/", addressRoutes)
  .route("/", scimTokenRoutes)
  .route("/", connectionRoutes)
  .route("/", partnerRoutes)
  .route("/", deskInvitationRoutes);

/**
 * The operator plane's Worker app (docs/architecture.md, "The operator plane"): /admin/api, the vendors' publishing
 * (offers and price agreements, under /vendor/api) and its OpenAPI document.
 */
export function createAdminApp() {
  // /scim/v2 answers every error in SCIM's form (RFC 7644 3.12), the platform's and unknown paths' included.
  return assembleApp(
    (app) => {
      // The vendor API's routes served here log to the vendors' request logs (src/shared/request-logs), as sent.
      app.use("*", recordRequests);
      // Dated versions (docs/api.md, "Versions"); SCIM has its own (RFC 7643 schema URNs).
      const versioning = apiVersioning(VERSION_CHANGES, pinOfBearer);
      app.use("*", (c, next) => (isVersionedPath(c.req.path) ? versioning(c, next) : next()));
      app.use("*", exceptUploads(bodyLimit));
      // A tenant's directory, written here, reaches its stores before the answer (docs/tenant-stores.md).
      app.use(`${ADMIN_API_BASE}/*`, pushDirectoryAfterWrites);
      app.use(`${SCIM_BASE}/*`, pushDirectoryAfterWrites);
      app.use(`${ADMIN_API_BASE}/*`, exceptUploads(requireJsonBody));
      for (const base of VENDOR_PUBLISHING_PATHS) {
        app.use(`${base}/*`, exceptUploads(requireJsonBody));
        // The vendor API's, as on the API Worker: X-Session-Bookmark both ways (docs/architecture.md, "Consistency").
        app.use(`${base}/*`, d1Sessions(isPublishingWrite, undefined, { catalogReplicas: false }));
      }
      app.route(ADMIN_API_BASE, adminApi);
      app.route(VENDOR_API_BASE, offerRoutes);
      app.route(VENDOR_API_BASE, offerImportRoutes);
      app.route(VENDOR_API_BASE, agreementRoutes);
      app.route(VENDOR_API_BASE, mailboxRoutes);
      app.post(AS2_PATH, handleAs2);
      app.route("/", gatewayRoutes);
      // Internal: the API Worker's webhook delivery asks here for a procurement connection's documents (ADMIN binding only).
      app.route("/", documentRoutes);
      // Internal: the vendor-lines consumer hands vendors' lines here for their X12 partners' 850s (ADMIN binding only).
      app.route("/", handoffRoutes);
      app.route(PUNCHOUT_BASE, shopRoutes);
      app.route(DESK_BASE, deskRoutes);
      app.use(`${SCIM_BASE}/*`, requireScimToken);
      app.route(SCIM_BASE, scimRoutes);
      openApiDocumentRoute(app, ADMIN_API_BASE, undefined, OPERATOR_PLANE_INFO);
    },
    {
      notFound: (standard) => (c) =>
        isScimPath(c.req.path) ? handleScimError(new ScimError(404, `No SCIM endpoint ${c.req.method} ${c.req.path}.`), c) : standard(c),
      onError: (standard) => (err, c) => (isScimPath(c.req.path) ? handleScimError(err, c) : standard(err, c)),
    },
  );
}
