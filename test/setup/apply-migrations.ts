import { clientStatus } from "../../src/auth/client-status";
import { forgetGrantedAccess } from "../../src/users/access";
import { forgetUserProfiles } from "../../src/users/lookup";
import { forgetCachedTokens } from "../helpers/api";
import { resetDatabases } from "../helpers/databases";

/**
 * Runs before each test file. Test files share one Worker per vitest worker (`isolate: false`, which saves a
 * workerd start per file), so both D1 databases are reset here: every table is dropped, then the schemas come
 * from migrations/ (DB) and catalog-migrations/ (CATALOG), and the deterministic demo data set is seeded. Each file
 * starts from the same database.
 */
forgetCachedTokens();
clientStatus.clear(); // the demo clients' ids repeat in every file's fresh database
forgetGrantedAccess();
forgetUserProfiles();
await resetDatabases();
