import { afterAll } from "vitest";
import { clientStatus } from "../../src/shared/auth/client-status";
import { forgetQuotedReferences } from "../../src/shared/catalog/quoted-references";
import { forgetGrantedAccess } from "../../src/shared/users/access";
import { forgetUserProfiles } from "../../src/shared/users/lookup";
import { forgetCachedTokens } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
import { emptyEdiFiles, resetDatabases } from "../helpers/databases";
import { forgetStores } from "../helpers/stores";

/**
 * Runs before each test file. Test files share one Worker per vitest worker (`isolate: false`, which saves a
 * workerd start per file), so both D1 databases are reset here: every table is dropped, then the schemas come
 * from migrations/ (DB) and catalog-migrations/ (CATALOG), and the deterministic demo data set is seeded. Each file
 * starts from the same database; the X12 files in R2 (edi/: outboxes and files received, keyed by partner ids that
 * restart with the database) are deleted too. A file ends only when the work its requests left in the background has settled, so
 * none of it reaches the next file's database or logs after the last file.
 */
forgetCachedTokens();
clientStatus.clear(); // the demo clients' ids repeat in every file's fresh database
forgetGrantedAccess();
forgetUserProfiles();
forgetQuotedReferences(); // offer ids repeat in every file's fresh database
await resetDatabases();
await emptyEdiFiles();

afterAll(async () => {
  await backgroundSettled();
  await forgetStores(); // tenants the file switched, or created (born in their stores), leave nothing to the next file
});
