import { ADMIN_API_BASE } from "../../platform/planes";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { importJobRoutes } from "../imports/routes";

/**
 * The FDA's device recalls as import jobs (docs/recalls.md, "Loading recalls"): /admin/api/recalls/imports, the catalog
 * import's routes for jobs of the kind `recalls`. Upsert only: a recall the file lacks stays as it is (openFDA
 * publishes in weekly slices; a recall ends when the FDA terminates it, which a later file says).
 */
export const recallImportRoutes = importJobRoutes({
  kind: "recalls",
  path: "/recalls/imports",
  base: ADMIN_API_BASE,
  tag: "Recalls",
  schemaName: "RecallImport",
  access: operatorScopedAccess("recalls:import"),
  formats: ["openfda", "ndjson"],
  modes: ["upsert"],
  formatDescription:
    "openfda (an openFDA device/enforcement or device/recall JSON document: the API's answer or the bulk download's { meta, results }) " +
    "or ndjson (one openFDA record per line)",
  caller: (c) => ({ clientId: c.get("operatorPrincipal").clientId, vendorId: null }),
});
