import { and, desc, eq, getTableColumns, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { notFound, ProblemError } from "../../platform/errors";
import { randomToken } from "../../shared/auth/secrets";
import { signingSecret } from "./signing";

/** A tenant's webhook endpoints (docs/api.md, "Webhooks"). */

export const MAX_ENDPOINTS_PER_TENANT = 16;
/** `["*"]`: every event type. */
export const ALL_EVENT_TYPES = "*";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function endpointView(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    createdAt: row.createdAt,
    apiVersion: row.apiVersion,
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

export const endpointNotFound = () => notFound("The tenant has no webhook endpoint with that id.");

const endpointLimit = () =>
  new ProblemError(
    409,
    "endpoint-limit",
    "Too many webhook endpoints",
    `A tenant has at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first.`,
  );

/** The row's values as a SELECT list in the table's column order, which INSERT ... SELECT requires. */
function selectedValues(row: EndpointRow) {
  const columns = getTableColumns(webhookEndpoints);
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, sql`${sql.param(row[key as keyof EndpointRow], column)}`.as(column.name)]),
  ) as Record<keyof EndpointRow, SQL.Aliased>;
}

/**
 * Registers the endpoint unless the tenant already has the most allowed. Count and insert are one statement, so
 * concurrent registrations cannot both see room for the last one.
 */
export async function createEndpoint(
  db: Database,
  secretKey: string,
  tenantId: number,
  input: { url: string; eventTypes: string[]; apiVersion: string },
): Promise<{ endpoint: EndpointView; secret: string }> {
  const row: EndpointRow = {
    id: `we_${randomToken(16)}`,
    tenantId,
    url: input.url,
    eventTypes: input.eventTypes,
    secretSalt: randomToken(24),
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: new Date().toISOString(),
    apiVersion: input.apiVersion,
    connectionId: null,
  };
  const inserted = await db
    .insert(webhookEndpoints)
    .select(
      // One row, unless the tenant has its most endpoints already; no other table, so that it runs on a tenant's store as
      // on DB (whose foreign key still requires the tenant).
      db
        .select(selectedValues(row))
        .from(sql`(select 1)`)
        .where(lt(db.$count(webhookEndpoints, eq(webhookEndpoints.tenantId, tenantId)), MAX_ENDPOINTS_PER_TENANT)),
    )
    .returning({ id: webhookEndpoints.id });
  if (inserted.length === 0) throw endpointLimit();
  return { endpoint: endpointView(row), secret: await signingSecret(secretKey, row.secretSalt) };
}

export async function listEndpoints(db: Database, tenantId: number): Promise<EndpointView[]> {
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId)).orderBy(webhookEndpoints.createdAt);
  return rows.map(endpointView);
}

export async function findEndpointRow(db: Database, tenantId: number, id: string): Promise<EndpointRow | null> {
  const row = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
    .get();
  return row ?? null;
}

/** Deletes the endpoint; deliveries already queued for it are dropped when they come up. */
export async function deleteEndpoint(db: Database, tenantId: number, id: string): Promise<boolean> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/** The endpoint's most recent delivery attempts, newest first (the endpoint's tenant already checked). */
export async function listDeliveries(db: Database, endpointId: string, limit: number) {
  return db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      attempt: webhookDeliveries.attempt,
      outcome: webhookDeliveries.outcome,
      statusCode: webhookDeliveries.statusCode,
      error: webhookDeliveries.error,
      latencyMs: webhookDeliveries.latencyMs,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
}
