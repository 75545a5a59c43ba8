/**
 * The operator plane's crons (admin/wrangler.toml `[triggers]`) its scheduled handler tells apart. The every-minute one
 * runs only the tenants' directory changes a crash or a failed push left, so that a user deprovisioned by SCIM
 * reaches the tenant's stores within a minute whatever failed; the rest of the housekeeping runs every 5 minutes (the
 * other cron), the push with it. Not in the entry module: a Worker's entry exports handlers and classes only.
 */
export const DIRECTORY_PUSH_CRON = "* * * * *";
