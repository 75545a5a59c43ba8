import type { Bindings } from "../../../env";
import { errorMessage } from "../../../platform/errors";
import { logEvent } from "../../../platform/logging";
import { storedTenantIds } from "../../../shared/tenants/registry";
import { tenantStore } from "../../../shared/tenants/stub";
import { retentionCutoff } from "./retention";
import { vendorProjection } from "./stub";

type SweepEnv = Pick<Bindings, "DB" | "TENANT_STORE" | "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS" | "VENDOR_LIST_RETENTION_DAYS">;

export interface ReconciliationReport {
  stores: number;
  /** Vendors whose projection was compared with a store's account. */
  compared: number;
  /** Of those, the ones whose projection differed: their lines of that store are sent again. */
  republished: { tenantId: number; vendorId: number }[];
}

/**
 * The reconciliation sweep of the vendors' projections (every 15 minutes; docs/tenant-stores.md, "Vendors' lines"): for
 * each tenant, its store publishes (again, harmlessly, if it did: a tenant whose creation could not start its
 * publishing converges here), and for each vendor with nothing left to publish there, the count and checksums of that
 * store's lines in the shard of the vendor's projection that holds the tenant (stub.ts) are compared with the store's
 * own; where they differ (a message lost for good, a consumer killed mid-apply), that shard forgets the lines the store
 * no longer has, the store sends that vendor's lines again, and the shard keeps the newest revision of each. Both sides
 * leave out the closed lines last changed before one cutoff, taken when the sweep starts (retention.ts): a projection
 * forgets them.
 */
export async function reconcileVendorProjections(env: SweepEnv): Promise<ReconciliationReport> {
  const cutoff = retentionCutoff(env, Date.now());
  const tenantIds = await storedTenantIds(env.DB);
  const report: ReconciliationReport = { stores: tenantIds.length, compared: 0, republished: [] };
  for (const tenantId of tenantIds) {
    // One store or projection failing leaves the others to be compared; the next sweep tries it again.
    await reconcileStore(env, tenantId, cutoff, report).catch((error: unknown) =>
      logEvent("warn", { event: "vendor.projection.reconcile", tenantId, message: errorMessage(error) }),
    );
  }
  return report;
}

async function reconcileStore(env: SweepEnv, tenantId: number, cutoff: number, report: ReconciliationReport): Promise<void> {
  const store = tenantStore(env, tenantId);
  await store.startPublishing();
  const accounts = (await store.publishedLines(cutoff)).filter((account) => !account.pending);
  report.compared += accounts.length;
  await Promise.all(
    accounts.map(async (account) => {
      const projection = vendorProjection(env, account.vendorId, tenantId);
      const held = await projection.held(tenantId, cutoff);
      if (held.lines === account.lines && held.ids === account.ids && held.revisions === account.revisions) return;
      // Those the store no longer has go first (a line lost and one too many count the same).
      await projection.retain(tenantId, await store.publishedLineIds(account.vendorId, cutoff));
      await store.republish(account.vendorId, cutoff);
      report.republished.push({ tenantId, vendorId: account.vendorId });
    }),
  );
}
