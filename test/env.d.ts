import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/env";
import type { ImportBindings } from "../src/operator/imports/bindings";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings, ImportBindings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_CATALOG_MIGRATIONS: D1Migration[];
    }
  }
}
