import type { VendorOrderLine } from "../lines";
import type { Attention } from "./schema";
import type { LineCondition } from "./search";

/** One line as a store publishes it to its vendor's projection. */
export interface LineChange {
  lineId: number;
  /** The store's revision of the line: the projection keeps the newest it has seen. */
  revision: number;
  /** When the line last changed (epoch ms): the projection's lag is measured from it. */
  changedAt: number;
  /** The line as its vendor reads it; null once the store deleted it. */
  line: VendorOrderLine | null;
}

/** A message of the medparts-vendor-lines queue: changed lines of one vendor in one tenant's store. */
export interface LineChangesMessage {
  tenantId: number;
  vendorId: number;
  changes: LineChange[];
}

/** What a projection holds of one store, compared with the store's own account (TenantStore.publishedLines). */
export interface HeldLines {
  lines: number;
  ids: number;
  revisions: number;
}

/** A line's place in a vendor's list: oldest order first, its lines in order (src/api/vendors/lines.ts). */
export interface ListedKey {
  lineId: number;
  orderDate: string;
}

/** A page of a shard of a vendor's projection, or only the keys of its lines. */
export interface ListQuery {
  statuses: readonly string[];
  /** Instead of the statuses: the lines in a list of what waits for the vendor (schema.ts, ATTENTION_COLUMNS). */
  attention?: Attention | undefined;
  /** With the statuses (and order): the condition of a q query (search.ts), compiled in the API Worker. */
  where?: LineCondition | undefined;
  orderNumber?: string | undefined;
  limit: number;
  offset: number;
  keysOnly?: boolean;
}

/** A page, the keys of a window or given lines of a shard of a vendor's projection. */
export type ProjectionQuery = ListQuery | { lineIds: readonly number[] };

export interface ProjectionPage {
  /** Sorted as the list is; `line` is the VendorOrderLine's JSON (absent for keys only). */
  rows: (ListedKey & { line?: string })[];
  /** Lines of the shard matching the filter (0 when given lines were asked). */
  total: number;
}
