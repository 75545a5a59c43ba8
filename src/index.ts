import { createApp } from "./app";
import type { Bindings } from "./env";

export { IdempotencyStore } from "./durable/idempotency-store";
export { RateLimiter } from "./durable/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
