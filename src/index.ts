import { createApp } from "./app";
import type { Bindings } from "./env";
import { housekeeping } from "./platform/housekeeping";

export { IdempotencyStore } from "./platform/idempotency/store";
export { RateLimiter } from "./platform/ratelimit/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => ctx.waitUntil(housekeeping(env, new Date(controller.scheduledTime))),
} satisfies ExportedHandler<Bindings>;
