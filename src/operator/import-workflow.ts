import { CATALOG_IMPORT } from "./imports/catalog-kind";
import { ImportWorkflow } from "./imports/workflow";
import { PRICE_FILES } from "./offers/price-files";
import { RECALL_IMPORTS } from "./recalls/imports";

/** The import Workflow (admin/wrangler.toml) with the kinds of job it runs: the operator's catalog, vendors' price files, the FDA's recalls. */
export class CatalogImportWorkflow extends ImportWorkflow {
  protected override readonly kinds = { catalog: CATALOG_IMPORT, offers: PRICE_FILES, recalls: RECALL_IMPORTS };
}
