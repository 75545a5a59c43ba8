import type { MiddlewareHandler } from "hono";
import { decodeJwt } from "jose";
import type { AppEnv } from "../env";
import { setResponseHeaders } from "./responses";

/**
 * Test mode (docs/api.md, "Sandbox"): a buyer client whose id starts with TEST_CLIENT_PREFIX is a test-mode client.
 * Its tokens read the tenant's directory (users, facilities, addresses) and the catalog as a live client does, and get
 * quotes the same way; everything it creates (orders, their events, webhook endpoints and deliveries, idempotency
 * records) belongs to the tenant's sandbox twin: the tenants row -T of tenant T. Every query of those tables is already
 * scoped by tenant, so test and live data never meet, and vendors' views leave out orders of sandbox tenants (id < 0).
 */

export const TEST_CLIENT_PREFIX = "mpc_test";

export type Mode = "live" | "test";

export const modeOfClient = (clientId: string): Mode => (clientId.startsWith(`${TEST_CLIENT_PREFIX}_`) ? "test" : "live");

/** A new client id of the prefix; a live one whose random part happens to start with "test_" is drawn again. */
export function newClientId(prefix: string, testMode: boolean, randomPart: () => string): string {
  for (;;) {
    const id = `${prefix}_${randomPart()}`;
    if ((modeOfClient(id) === "test") === testMode) return id;
  }
}

/** The tenant a principal's orders, events and webhooks belong to: the tenant itself, or its sandbox twin. */
export const dataTenantOf = (tenantId: number, mode: Mode) => (mode === "test" ? -tenantId : tenantId);

/** Whether a stored tenant id is a sandbox twin's. */
export const isSandboxTenant = (tenantId: number) => tenantId < 0;

/** Makes tenant T's sandbox twin (-T) if missing: before its first test-mode client. */
export function sandboxTenantStatement(db: D1Database, tenantId: number): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO tenants (id, name, created_at) SELECT -id, name || ' (sandbox)', ?2 FROM tenants WHERE id = ?1 AND id > 0 " +
        "ON CONFLICT (id) DO NOTHING",
    )
    .bind(tenantId, new Date().toISOString());
}

/**
 * Marks every customer API answer with its mode, `Medparts-Mode: test` or `live`: the verified token's; where none was
 * verified (401, 429), the mode of the client the presented token names, a label that grants nothing; with no bearer
 * token, live (the key decides, and only a test key makes a test request).
 */
export const markMode: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const mode = c.get("principal")?.mode ?? presentedMode(c.req.header("Authorization")) ?? "live";
  setResponseHeaders(c, { [MODE_HEADER]: mode });
};

function presentedMode(authorization: string | undefined): Mode | null {
  const token = /^Bearer +(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!token) return null;
  try {
    const { sub } = decodeJwt(token);
    return typeof sub === "string" ? modeOfClient(sub) : null;
  } catch {
    return null;
  }
}

export const MODE_HEADER = "Medparts-Mode";
