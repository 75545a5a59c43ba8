import { OFFERS_TAG } from "../../platform/openapi/info";
import { VENDOR_API_BASE } from "../../platform/planes";
import { vendorScopedAccess } from "../../shared/auth/bearer";
import { importJobRoutes } from "../imports/routes";

/**
 * A vendor's price files (docs/api.md, "Price files"): import jobs of offers at /vendor/api/offer-imports, the catalog
 * import's routes scoped to the calling vendor (another vendor's job is not found). Upsert only: withdrawing stays
 * explicit (DELETE, or a batch), so that a partial file can never withdraw a vendor's catalog.
 */
export const OFFER_IMPORTS_PATH = "/offer-imports";

export const offerImportRoutes = importJobRoutes({
  kind: "offers",
  path: OFFER_IMPORTS_PATH,
  base: VENDOR_API_BASE,
  tag: OFFERS_TAG,
  schemaName: "OfferImport",
  access: vendorScopedAccess("offers:write"),
  formats: ["ndjson", "csv"],
  modes: ["upsert"],
  formatDescription: "ndjson (one OfferBatchRow per line) or csv (a header row of OfferBatchRow's fields)",
  caller: (c) => {
    const vendor = c.get("vendorPrincipal");
    return { clientId: vendor.clientId, vendorId: vendor.vendorId };
  },
});
