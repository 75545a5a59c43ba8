import { asc } from "drizzle-orm";
import { database } from "../../db/client";
import { vendors } from "../../db/schema";
import type { Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import type { RequestLogOwner } from "../../platform/principal";
import { storedTenantsAndTwins } from "../tenants/registry";
import { modeOfOwner, REQUEST_LOG_RETENTION_DAYS, requestLog } from "./owners";

/** Every request log there can be: each tenant's, live and sandbox twin, and each vendor's. */
async function everyOwner(env: Pick<Bindings, "DB">): Promise<RequestLogOwner[]> {
  const stores = await storedTenantsAndTwins(env.DB);
  const vendorRows = await database(env.DB).select({ id: vendors.id }).from(vendors).orderBy(asc(vendors.id));
  return [...stores.map((tenantId) => ({ tenantId })), ...vendorRows.map(({ id }) => ({ vendorId: id }))];
}

/**
 * The housekeeping cron's purge of the request logs (src/api/index.ts): each log drops what is past its retention (7 days
 * live, 30 in test mode) and what is beyond its row cap. One failing log is logged and the others go on. Returns the rows
 * purged.
 */
export async function purgeRequestLogs(env: Pick<Bindings, "DB" | "REQUEST_LOGS">, now: number): Promise<number> {
  let purged = 0;
  for (const owner of await everyOwner(env)) {
    try {
      purged += await requestLog(env, owner).purge(now, REQUEST_LOG_RETENTION_DAYS[modeOfOwner(owner)]);
    } catch (error) {
      logEvent("warn", { housekeeping: "request-logs", owner, message: errorMessage(error) });
    }
  }
  if (purged > 0) logEvent("info", { event: "housekeeping", purged: { requestLogs: purged } });
  return purged;
}
