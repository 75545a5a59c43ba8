import { createApp } from "./app";
import { purgeExpiredQuotes } from "./catalog/quotes";
import type { Bindings } from "./env";
import { housekeeping } from "./platform/housekeeping";
import { purgeExpiredResults } from "./platform/idempotency/results";

export { IdempotencyStore } from "./platform/idempotency/store";
export { RateLimiter } from "./platform/ratelimit/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(
      housekeeping(env, new Date(controller.scheduledTime), { idempotencyResults: purgeExpiredResults, quotes: purgeExpiredQuotes }),
    ),
} satisfies ExportedHandler<Bindings>;
