import type { Bindings } from "../../env";

/** What a catalog import's Workflow instance is given: its job. */
export interface ImportParams {
  jobId: string;
}

/** What catalog imports use (the admin Worker's bindings, admin/wrangler.toml). */
export interface ImportBindings {
  /** The main database: offer jobs write the vendor's offers there. */
  DB: D1Database;
  CATALOG: D1Database;
  IMPORTS: R2Bucket;
  CATALOG_IMPORTS: Workflow<ImportParams>;
  /** The tenant stores: a recall import offers them its recalls. */
  TENANT_STORE: Bindings["TENANT_STORE"];
}
