/**
 * What the tenant store's handlers run, in one module the store loads on its first use (src/api/stores/tenant-store.ts)
 * rather than at the Worker's start: the cold start evaluates the Durable Object classes only (docs/benchmarks.md,
 * "Cold start"). The test Worker hands its store this module statically (test/helpers/worker.ts): the vitest pool does
 * not support a dynamic import inside a Durable Object's handler.
 */
export { database } from "../../db/client";
export { envWith } from "../../env";
export { housekeeping } from "../../platform/housekeeping";
export { purgeExpiredResults } from "../../platform/idempotency/results";
export { logEvent } from "../../platform/logging";
export { purgeExpiredQuotes } from "../../shared/catalog/quotes";
export { purgeOldEvents } from "../events/feed";
export { placeOrderInStore } from "../orders/create";
export { raiseDueReturns } from "../returns/due";
export { publishLineChanges } from "../vendors/projection/publish";
export { purgeOldDeliveries } from "../webhooks/delivery";
export { resendLostDeliveries, sweepUndispatched } from "../webhooks/dispatch";
