/**
 * Which Worker serves a path (docs/architecture.md, "The operator plane"): the API Worker serves the buyer and vendor
 * APIs; the operator plane's Worker (admin/wrangler.toml, behind the API Worker's ADMIN binding) serves the write side
 * of the marketplace that weighs on no buyer request: the operator API, vendors' publishing (offers, agreements) and
 * SCIM provisioning, and the procurement gateway (cXML and the PunchOut shop), so that no buyer request loads XML code.
 */
export const ADMIN_API_BASE = "/admin/api";
export const VENDOR_API_BASE = "/vendor/api";
/** SCIM 2.0 for the tenants' identity providers (src/operator/scim). */
export const SCIM_API_BASE = "/scim/v2";
/** The vendor API's publishing: offers, price files and price agreements. */
export const VENDOR_PUBLISHING_PATHS = [
  `${VENDOR_API_BASE}/offers`,
  `${VENDOR_API_BASE}/offer-imports`,
  `${VENDOR_API_BASE}/agreements`,
] as const;

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** /scim/v2 and below: answered in SCIM's forms, and outside the dated API versions. */
export const isScimPath = (pathname: string) => under(pathname, SCIM_API_BASE);

/** The cXML endpoint and the PunchOut shop (src/operator/procurement): cXML and HTML, outside the dated API versions. */
export const CXML_PATH = "/cxml";
export const PUNCHOUT_BASE = "/punchout";
export const isProcurementPath = (pathname: string) => pathname === CXML_PATH || under(pathname, PUNCHOUT_BASE);

/** X12 EDI's transports (src/operator/edi): AS2 (outside the dated API versions, as cXML is) and the vendors' mailbox. */
export const AS2_PATH = "/as2";
export const EDI_MAILBOX_BASE = `${VENDOR_API_BASE}/edi`;
/**
 * Internal: the vendor-lines consumer hands a message of a vendor with an X12 partner to the operator plane here
 * (src/operator/edi/outbound/handoff-route.ts), over the ADMIN binding only: no public path leads to it.
 */
export const EDI_HANDOFF_PATH = "/__edi/vendor-lines";

/** The vendor order desk (src/operator/desk): server-rendered pages for a vendor's people, outside the dated API versions. */
export const DESK_BASE = "/desk";

/** True for the paths the operator plane's Worker serves. */
export const isOperatorPlanePath = (pathname: string) =>
  under(pathname, ADMIN_API_BASE) ||
  isScimPath(pathname) ||
  isProcurementPath(pathname) ||
  pathname === AS2_PATH ||
  under(pathname, DESK_BASE) ||
  under(pathname, EDI_MAILBOX_BASE) ||
  VENDOR_PUBLISHING_PATHS.some((base) => under(pathname, base));
