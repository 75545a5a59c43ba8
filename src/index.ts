import { createApp } from "./app";
import type { Bindings } from "./env";

export { IdempotencyStore } from "./platform/idempotency/store";
export { RateLimiter } from "./platform/ratelimit/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
