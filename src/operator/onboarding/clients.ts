import { ProblemError } from "../../platform/errors";
import { modeOfClient, newClientId, sandboxTenantStatement, TEST_CLIENT_PREFIX } from "../../platform/test-mode";
import { LATEST_VERSION } from "../../platform/versions/calendar";
import { CLIENT_ID_PREFIX, clientKind, ownerOf, previousSecretLive, SCOPES_OF_KIND } from "../../shared/auth/clients";
import { hashSecret, randomToken } from "../../shared/auth/secrets";
import { type AuditEntry, auditStatement } from "./audit";

/**
 * API clients as the operator manages them (docs/api.md, "Onboarding"): created for a tenant, a vendor or the operator,
 * listed, disabled, and their secrets rotated with an overlap: a new secret (shown once) becomes current, the old one
 * stays valid until a chosen time 0 to 7 days away, so that every instance of an integration can switch over. Each
 * change and its audit entry commit in one batch.
 */

export const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60;
/** The operator is told this long before a previous secret expires (an operator event). */
export const EXPIRY_WARNING_MS = 24 * 60 * 60 * 1000;

type ClientRow = {
  client_id: string;
  tenant_id: number | null;
  vendor_id: number | null;
  operator: number;
  name: string;
  scopes: string;
  enabled: number;
  created_at: string;
  secret_hash: string;
  secret_created_at: string | null;
  secret_last_used_at: string | null;
  previous_secret_hash: string | null;
  previous_secret_created_at: string | null;
  previous_secret_expires_at: string | null;
  previous_secret_last_used_at: string | null;
  api_version: string;
};

const owner = (row: ClientRow) => ownerOf({ tenantId: row.tenant_id, vendorId: row.vendor_id, operator: row.operator === 1 })!;

/** A client as the admin API shows it: never a secret or its hash; its live secrets' dates. */
export function presentClient(row: ClientRow, now = new Date()) {
  const previousLive = previousSecretLive(
    { previousSecretHash: row.previous_secret_hash, previousSecretExpiresAt: row.previous_secret_expires_at },
    now,
  );
  return {
    clientId: row.client_id,
    kind: clientKind(owner(row)) as "tenant" | "vendor" | "operator",
    mode: modeOfClient(row.client_id),
    tenantId: row.tenant_id,
    vendorId: row.vendor_id,
    name: row.name,
    scopes: row.scopes.split(" ").filter(Boolean),
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    apiVersion: row.api_version,
    secrets: [
      {
        slot: "current" as const,
        createdAt: row.secret_created_at ?? row.created_at,
        expiresAt: null,
        lastUsedAt: row.secret_last_used_at,
      },
      ...(previousLive
        ? [
            {
              slot: "previous" as const,
              createdAt: row.previous_secret_created_at ?? row.created_at,
              expiresAt: row.previous_secret_expires_at,
              lastUsedAt: row.previous_secret_last_used_at,
            },
          ]
        : []),
    ],
  };
}

export type ClientView = ReturnType<typeof presentClient>;

/** What the audit log keeps of a client: its view without the secrets' last use (not a change). */
const audited = (view: ClientView) => ({
  ...view,
  secrets: view.secrets.map(({ lastUsedAt: _, ...secret }) => secret),
});

export async function readClientRow(db: D1Database, clientId: string): Promise<ClientRow | null> {
  return db.prepare("SELECT * FROM api_clients WHERE client_id = ?").bind(clientId).first<ClientRow>();
}

export async function clientOr404(db: D1Database, clientId: string): Promise<ClientRow> {
  const row = await readClientRow(db, clientId);
  if (!row) throw new ProblemError(404, "not-found", "Not Found", `No API client ${clientId}.`);
  return row;
}

export interface NewClientInput {
  kind: "tenant" | "vendor" | "operator";
  tenantId?: number | undefined;
  vendorId?: number | undefined;
  name: string;
  scopes?: string[] | undefined;
  /** test: a test-mode buyer client (docs/api.md, "Sandbox"); kind tenant only. */
  mode?: "live" | "test" | undefined;
}

/**
 * Creates a client (its secret returned once) with its audit entry, in one batch; `also` adds statements of a record that
 * stands on the client (a procurement connection), committed with it or not at all.
 */
export async function createClient(
  db: D1Database,
  input: NewClientInput,
  actor: string,
  now = new Date(),
  also: (clientId: string, at: string) => D1PreparedStatement[] = () => [],
) {
  const testMode = input.kind === "tenant" && input.mode === "test";
  const clientId = newClientId(testMode ? TEST_CLIENT_PREFIX : CLIENT_ID_PREFIX[input.kind], testMode, () => randomToken(12));
  const secret = randomToken(32);
  const at = now.toISOString();
  const scopes = (input.scopes ?? [...SCOPES_OF_KIND[input.kind]]).join(" ");
  const row: ClientRow = {
    client_id: clientId,
    tenant_id: input.kind === "tenant" ? input.tenantId! : null,
    vendor_id: input.kind === "vendor" ? input.vendorId! : null,
    operator: input.kind === "operator" ? 1 : 0,
    name: input.name,
    scopes,
    enabled: 1,
    created_at: at,
    secret_hash: await hashSecret(secret),
    secret_created_at: at,
    secret_last_used_at: null,
    previous_secret_hash: null,
    previous_secret_created_at: null,
    previous_secret_expires_at: null,
    previous_secret_last_used_at: null,
    api_version: LATEST_VERSION,
  };
  const view = presentClient(row, now);
  await db.batch([
    db
      .prepare(
        "INSERT INTO api_clients (client_id, secret_hash, tenant_id, vendor_id, operator, name, scopes, enabled, created_at, secret_created_at, api_version) " +
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?8, ?9)",
      )
      .bind(clientId, row.secret_hash, row.tenant_id, row.vendor_id, row.operator, row.name, scopes, at, row.api_version),
    auditStatement(db, entry(actor, "client.created", clientId, null, audited(view)), at),
    ...(testMode ? [sandboxTenantStatement(db, input.tenantId!)] : []),
    ...also(clientId, at),
  ]);
  return { client: view, secret };
}

const entry = (actor: string, action: string, clientId: string, before: unknown, after: unknown): AuditEntry => ({
  actor,
  action,
  targetType: "api_client",
  targetId: clientId,
  before,
  after,
});

/**
 * Rotates a client's secret: a new one becomes current, the old one stays valid `overlapSeconds` more (0: refused at
 * once). A client keeps at most two live secrets: while the previous one is live, another rotation is a 409. The
 * update is conditional on the row being as read, so that of concurrent rotations exactly one wins.
 */
export async function rotateSecret(db: D1Database, clientId: string, overlapSeconds: number, actor: string, now = new Date()) {
  const row = await clientOr404(db, clientId);
  if (previousSecretLive({ previousSecretHash: row.previous_secret_hash, previousSecretExpiresAt: row.previous_secret_expires_at }, now)) {
    throw twoLiveSecrets(row);
  }
  const secret = randomToken(32);
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + overlapSeconds * 1000).toISOString();
  const rotated: ClientRow = {
    ...row,
    secret_hash: await hashSecret(secret),
    secret_created_at: at,
    secret_last_used_at: null,
    previous_secret_hash: row.secret_hash,
    previous_secret_created_at: row.secret_created_at ?? row.created_at,
    previous_secret_expires_at: expiresAt,
    previous_secret_last_used_at: row.secret_last_used_at,
  };
  const after = presentClient(rotated, now);
  const [update] = await db.batch([
    db
      .prepare(
        "UPDATE api_clients SET previous_secret_hash = secret_hash, previous_secret_created_at = coalesce(secret_created_at, created_at), " +
          "previous_secret_last_used_at = secret_last_used_at, previous_secret_expires_at = ?3, previous_secret_warned_at = NULL, " +
          "secret_hash = ?4, secret_created_at = ?5, secret_last_used_at = NULL WHERE client_id = ?1 AND secret_hash = ?2",
      )
      .bind(clientId, row.secret_hash, expiresAt, rotated.secret_hash, at),
    auditStatement(db, entry(actor, "client.secret.rotated", clientId, audited(presentClient(row, now)), audited(after)), at),
  ]);
  if (update!.meta.changes === 0) throw twoLiveSecrets((await readClientRow(db, clientId)) ?? row);
  return { client: after, secret };
}

const twoLiveSecrets = (row: ClientRow) =>
  new ProblemError(
    409,
    "conflict",
    "Conflict",
    `Client ${row.client_id} already has two live secrets: the previous one expires at ${row.previous_secret_expires_at}. Rotate again after that.`,
  );

/** Disables a client (its tokens are refused within the client status cache's delay); again changes nothing. */
export async function disableClient(db: D1Database, clientId: string, actor: string, now = new Date()) {
  const row = await clientOr404(db, clientId);
  if (clientId === actor) {
    throw new ProblemError(409, "conflict", "Conflict", "A client cannot disable itself: use another operator client.");
  }
  const at = now.toISOString();
  const after = presentClient({ ...row, enabled: 0 }, now);
  await db.batch([
    db.prepare("UPDATE api_clients SET enabled = 0 WHERE client_id = ? AND enabled = 1").bind(clientId),
    auditStatement(db, entry(actor, "client.disabled", clientId, audited(presentClient(row, now)), audited(after)), at),
  ]);
  return after;
}

/**
 * Moves the version a client is pinned to (docs/api.md, "Versions"), with its audit entry; the same version again
 * changes nothing. Its requests see the new version within the client status cache's delay.
 */
export async function pinVersion(db: D1Database, clientId: string, apiVersion: string, actor: string, now = new Date()) {
  const row = await clientOr404(db, clientId);
  const after = presentClient({ ...row, api_version: apiVersion }, now);
  if (row.api_version === apiVersion) return after;
  const at = now.toISOString();
  await db.batch([
    db.prepare("UPDATE api_clients SET api_version = ?2 WHERE client_id = ?1").bind(clientId, apiVersion),
    auditStatement(db, entry(actor, "client.version.pinned", clientId, audited(presentClient(row, now)), audited(after)), at),
  ]);
  return after;
}

/** Clients whose previous secret expires within EXPIRY_WARNING_MS and whose operator was not told yet. */
export async function expiringSecrets(db: D1Database, now: Date) {
  const { results } = await db
    .prepare(
      "SELECT client_id, previous_secret_expires_at FROM api_clients WHERE previous_secret_hash IS NOT NULL " +
        "AND previous_secret_expires_at > ?1 AND previous_secret_expires_at <= ?2 AND previous_secret_warned_at IS NULL",
    )
    .bind(now.toISOString(), new Date(now.getTime() + EXPIRY_WARNING_MS).toISOString())
    .all<{ client_id: string; previous_secret_expires_at: string }>();
  return results;
}

export const SECRET_EXPIRING_EVENT = "client.secret.expiring";

/**
 * Tells the operator of each previous secret about to expire (the operator plane's Cron Trigger): an operator event
 * (idempotent by client and expiry), then the client marked as told.
 */
export async function warnExpiringSecrets(env: { DB: D1Database; CATALOG: D1Database }, now = new Date()): Promise<number> {
  const expiring = await expiringSecrets(env.DB, now);
  for (const { client_id: clientId, previous_secret_expires_at: expiresAt } of expiring) {
    await env.CATALOG.prepare(
      "INSERT INTO operator_events (id, type, created_at, data) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING",
    )
      .bind(
        `evt_secret_${clientId}_${expiresAt}`,
        SECRET_EXPIRING_EVENT,
        now.toISOString(),
        JSON.stringify({ clientId, slot: "previous", expiresAt }),
      )
      .run();
    await env.DB.prepare("UPDATE api_clients SET previous_secret_warned_at = ?2 WHERE client_id = ?1 AND previous_secret_expires_at = ?3")
      .bind(clientId, now.toISOString(), expiresAt)
      .run();
  }
  return expiring.length;
}
