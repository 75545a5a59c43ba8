import type { Bindings } from "../../env";
import type { RequestLogOwner } from "../../platform/principal";
import { StoreDatabase } from "../tenants/store-database";
import type { RequestLog } from "./store";

/** How long a log keeps a request: 30 days in test mode, 7 live (docs/api.md, "Request logs"). */
export const REQUEST_LOG_RETENTION_DAYS = { test: 30, live: 7 } as const;

/** Test mode is a buyer's sandbox twin; vendors have no test mode. */
export const modeOfOwner = (owner: RequestLogOwner): "live" | "test" => ("tenantId" in owner && owner.tenantId < 0 ? "test" : "live");

export const requestLogName = (owner: RequestLogOwner): string =>
  "tenantId" in owner ? `tenant:${owner.tenantId}` : `vendor:${owner.vendorId}`;

export function requestLog(env: Pick<Bindings, "REQUEST_LOGS">, owner: RequestLogOwner): DurableObjectStub<RequestLog> {
  return env.REQUEST_LOGS.get(env.REQUEST_LOGS.idFromName(requestLogName(owner))) as DurableObjectStub<RequestLog>;
}

/** The owner's log as D1, for the search code written for D1 (drizzle, the q language): one call a batch. */
export function requestLogDatabase(env: Pick<Bindings, "REQUEST_LOGS">, owner: RequestLogOwner): D1Database {
  const log = requestLog(env, owner);
  return new StoreDatabase(async (statements) => log.execute(statements)).asD1();
}
