/** wrangler.toml [[queues.consumers]]: event deliveries, and the dead letters of deliveries that exhausted their retries. */
export const EVENTS_QUEUE = "medparts-events";
export const EVENTS_DEAD_LETTER_QUEUE = "medparts-events-dlq";
/** wrangler.toml [triggers]: this Cron Trigger runs the webhook sweep alone; the other, the whole housekeeping. */
export const WEBHOOK_SWEEP_CRON = "* * * * *";
