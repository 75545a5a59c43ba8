import { appConfig, type Bindings } from "../../../env";
import { CLOSED_LINE_STATUSES } from "../../orders/lifecycle";
import type { LineChange } from "./messages";

/**
 * How long a vendor's projection keeps a closed line (docs/tenant-stores.md, "Vendors' lines"): open lines stay whatever
 * their age; a closed line (Delivered, Cancelled, Rejected: src/api/orders/lifecycle.ts) or a tombstone (a line its
 * store deleted) stays VENDOR_LIST_RETENTION_DAYS (W) after its last change in its store (`changed_at`), then leaves the
 * projection, and with it the vendor's list. Its store still answers it by id.
 *
 * Two cutoffs. The reconciliation sweep's, `now - W` computed once when a sweep starts, is handed to both sides of its
 * comparison (the projection's `held`, the store's `publishedLines`, `publishedLineIds` and `republish`): neither
 * counts nor sends a closed line whose last change is older. The projection removes such a line (its alarm's purge,
 * `apply` refusing it) only once it is REMOVAL_SLACK_MS older than that: a sweep that started before a removal, and
 * takes less than REMOVAL_SLACK_MS, already left out every line removed since, so its counts agree.
 */

type RetentionEnv = Pick<Bindings, "VENDOR_LIST_RETENTION_DAYS">;

const DAY_MS = 86_400_000;

/** How much older than the sweep's cutoff a closed line must be for the projection to remove it. */
export const REMOVAL_SLACK_MS = 3_600_000;

/** W in milliseconds. */
export const retentionMs = (env: RetentionEnv) => appConfig(env).VENDOR_LIST_RETENTION_DAYS * DAY_MS;

/** The sweep's cutoff at `now` (epoch ms): closed lines last changed before it are in neither side's account. */
export const retentionCutoff = (env: RetentionEnv, now: number) => now - retentionMs(env);

/** How long after its last change the projection removes a closed line: W, and REMOVAL_SLACK_MS. */
export const removalDelayMs = (env: RetentionEnv) => retentionMs(env) + REMOVAL_SLACK_MS;

/** The projection's cutoff at `now`: closed lines last changed before it are removed, and refused when they arrive. */
export const removalCutoff = (env: RetentionEnv, now: number) => now - removalDelayMs(env);

/** Whether the change closes its line: a closed status, or the line deleted. */
export const closesLine = (change: LineChange) => change.line === null || CLOSED_LINE_STATUSES.includes(change.line.statusName);

/**
 * A row of `vendor_lines` that holds a closed line, as SQL: the condition of the partial index `vendor_lines_closed`
 * (schema.ts), which a statement must repeat as it is for SQLite to use the index.
 */
export const CLOSED_ROW = `(deleted = 1 OR status_name IN (${CLOSED_LINE_STATUSES.map((status) => `'${status}'`).join(", ")}))`;
