/**
 * The local runtime's route that seeds the demo tenants' stores (src/dev/seed/stores.ts): `POST /__dev/seed-stores`,
 * served by scripts/dev/worker.ts, called by every local runtime once it answers (local-platform.ts, `prepareWhenLive`),
 * after the seed wrote `DB` and the catalog. The stores belong to the running Worker, so their seed runs inside it.
 */
export const DEV_SEED_STORES_PATH = "/__dev/seed-stores";
