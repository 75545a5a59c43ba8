/**
 * The local runtime's route that seeds the demo tenants' stores (src/dev/seed/stores.ts): `POST /__dev/seed-stores`,
 * served by scripts/dev/worker.ts, called by every local runtime once it answers (local-platform.ts, `prepareWhenLive`),
 * after the seed wrote `DB` and the catalog. The stores belong to the running Worker, so their seed runs inside it.
 */
export const DEV_SEED_STORES_PATH = "/__dev/seed-stores";

/**
 * The local runtime's route for tenants a script wrote into `DB` itself rather than through the operator plane (the
 * clones of `npm run bench -- --tenants`): `POST /__dev/tenants-created?tenants=1001,1002`, served by
 * scripts/dev/worker.ts, does what the operator plane does after it creates a tenant: the directory changes pushed to
 * the stores (src/operator/tenant-stores/directory-mirror.ts) and each tenant's store publishing its lines to the
 * vendors' projections. Answers `{ "pushed": n }`, the directory changes pushed.
 */
export const DEV_TENANTS_CREATED_PATH = "/__dev/tenants-created";
