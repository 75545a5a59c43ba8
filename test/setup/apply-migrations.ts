import { applyD1Migrations, env } from "cloudflare:test";
import { seedDemoData } from "../../src/db/seed/seed";

// Runs before each test file: schema from migrations/, then the deterministic demo data set.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedDemoData(env.DB, { products: 600 });
