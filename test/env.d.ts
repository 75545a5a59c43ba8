import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/env";
import type { ImportBindings } from "../src/operator/imports/bindings";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings, ImportBindings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_CATALOG_MIGRATIONS: D1Migration[];
      /** Medparts' AS2 identity, and a trading partner's (vitest.config.mts), PEM. */
      AS2_PRIVATE_KEY: string;
      AS2_CERTIFICATE: string;
      TEST_AS2_PARTNER_KEY: string;
      TEST_AS2_PARTNER_CERTIFICATE: string;
    }
  }
}
