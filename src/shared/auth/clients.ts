import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiClients } from "../../db/schema";
import { OPERATOR_SCOPES, SCOPES, VENDOR_SCOPES } from "../../platform/principal";
import { modeOfClient, newClientId, sandboxTenantStatement, TEST_CLIENT_PREFIX } from "../../platform/test-mode";
import { type ApiVersion, LATEST_VERSION, servedVersion } from "../../platform/versions/calendar";
import { DECOY_HASH, hashSecret, randomToken, verifySecret } from "./secrets";
import { recentlyVerified, rememberVerified } from "./verified-secrets";

/** Whose client it is: a buyer tenant's (customer API), a vendor's (vendor API) or the operator's (/admin/api); one only. */
export type ClientOwner =
  | { tenantId: number; vendorId?: undefined; operator?: undefined }
  | { vendorId: number; tenantId?: undefined; operator?: undefined }
  | { operator: true; tenantId?: undefined; vendorId?: undefined };

/** The client's kind, from its owner. */
export const clientKind = (owner: ClientOwner) => (owner.operator ? "operator" : owner.vendorId !== undefined ? "vendor" : "tenant");

export type AuthenticatedClient = ClientOwner & {
  clientId: string;
  scopes: string[];
};

export function ownerOf(row: { tenantId: number | null; vendorId: number | null; operator: boolean }): ClientOwner | null {
  if (row.tenantId !== null) return { tenantId: row.tenantId };
  if (row.vendorId !== null) return { vendorId: row.vendorId };
  if (row.operator) return { operator: true };
  return null;
}

/** Every scope a client of each kind can hold; a new client gets them all unless it names fewer. */
export const SCOPES_OF_KIND = { tenant: SCOPES, vendor: VENDOR_SCOPES, operator: OPERATOR_SCOPES } as const;
/** Client ids start with their kind: mpc_ (a buyer tenant's), mpv_ (a vendor's), mpo_ (the operator's). */
export const CLIENT_ID_PREFIX = { tenant: "mpc", vendor: "mpv", operator: "mpo" } as const;

export type StoredClient = typeof apiClients.$inferSelect;

/** The stored client of an id, if any; the token endpoint reads it alongside its rate limits (one round trip). */
export async function findClient(db: Database, clientId: string): Promise<StoredClient | undefined> {
  return db.select().from(apiClients).where(eq(apiClients.clientId, clientId)).get();
}

/** Which of a client's secrets a token request used. */
export type SecretSlot = "current" | "previous";

/** The previous secret is live until its expiry (exclusive). */
export const previousSecretLive = (client: Pick<StoredClient, "previousSecretHash" | "previousSecretExpiresAt">, now: Date) =>
  client.previousSecretHash !== null && client.previousSecretExpiresAt !== null && now.toISOString() < client.previousSecretExpiresAt;

/**
 * Checks a secret against the client found for its id: its current secret, then its previous one while that is live
 * (a rotation's overlap). Unknown ids cost the same hash work as known ones; a wrong secret of a client in its
 * overlap costs a second hash.
 */
export async function authenticateClient(
  client: StoredClient | undefined,
  secret: string,
  now = new Date(),
): Promise<(AuthenticatedClient & { secretSlot: SecretSlot }) | null> {
  const live = client !== undefined && previousSecretLive(client, now);
  const currentHash = client?.secretHash ?? DECOY_HASH;
  // Remembered successes first, for both live secrets: a client in its overlap that still uses the previous secret
  // pays the slow hash once per isolate and window, like any other.
  let slot: SecretSlot | null = null;
  if (client && (await recentlyVerified(currentHash, secret))) slot = "current";
  else if (live && (await recentlyVerified(client.previousSecretHash!, secret))) slot = "previous";
  else if (await verifySecret(secret, currentHash)) slot = "current";
  else if (live && (await verifySecret(secret, client.previousSecretHash!))) slot = "previous";
  const owner = client ? ownerOf(client) : null;
  if (!client || !owner || !slot || !client.enabled) return null;
  await rememberVerified(slot === "current" ? currentHash : client.previousSecretHash!, secret);
  return { ...owner, clientId: client.clientId, scopes: client.scopes.split(" ").filter(Boolean), secretSlot: slot };
}

/** How stale a secret's lastUsedAt may get before a token request writes it again: at most one write an hour. */
export const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

/** Records that a secret was used, when its lastUsedAt is older than the resolution (run after the answer). */
export async function recordSecretUse(db: Database, client: StoredClient, slot: SecretSlot, now = new Date()): Promise<void> {
  const last = slot === "current" ? client.secretLastUsedAt : client.previousSecretLastUsedAt;
  if (last !== null && now.getTime() - Date.parse(last) < LAST_USED_RESOLUTION_MS) return;
  const at = now.toISOString();
  const usedHash = slot === "current" ? client.secretHash : client.previousSecretHash!;
  // By the hash that matched, not the slot: a rotation committed meanwhile moved that secret to the previous slot.
  await db
    .update(apiClients)
    .set({
      secretLastUsedAt: sql`CASE WHEN ${apiClients.secretHash} = ${usedHash} THEN ${at} ELSE ${apiClients.secretLastUsedAt} END`,
      previousSecretLastUsedAt: sql`CASE WHEN ${apiClients.previousSecretHash} = ${usedHash} THEN ${at} ELSE ${apiClients.previousSecretLastUsedAt} END`,
    })
    .where(eq(apiClients.clientId, client.clientId));
}

/** What a request learns of its enabled client: the version it is pinned to. */
export interface EnabledClient {
  version: ApiVersion;
}

/**
 * An enabled client's version (docs/api.md, "Versions"), in the one read the request spends on its client; null for a
 * disabled or unknown client.
 */
export async function enabledClient(db: Database, clientId: string): Promise<EnabledClient | null> {
  const row = await db
    .select({
      enabled: apiClients.enabled,
      apiVersion: apiClients.apiVersion,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId))
    .get();
  return row?.enabled === true ? { version: servedVersion(row.apiVersion) } : null;
}

export type NewClient = ClientOwner & {
  name: string;
  /** Default: every scope of the owner's API (SCOPES for a tenant, VENDOR_SCOPES for a vendor, OPERATOR_SCOPES for the operator). */
  scopes?: readonly string[];
  /** A test-mode buyer client (src/platform/test-mode.ts): its id starts with `mpc_test_`; its data is its tenant's sandbox twin's. */
  testMode?: boolean;
  /** Fixed id and secret, for the local demo clients only; otherwise both are random. */
  clientId?: string;
  clientSecret?: string;
  /** The version its requests are answered in (default: the latest, as for every client the operator creates). */
  apiVersion?: ApiVersion;
};

/** Creates (or, for a fixed id, replaces) an API client. The secret is returned once and stored only as a hash. */
export async function createApiClient(db: Database, input: NewClient): Promise<{ clientId: string; clientSecret: string }> {
  const kind = clientKind(input);
  const testMode = input.testMode === true;
  if (testMode && input.tenantId === undefined) throw new Error("Only buyer clients have a test mode.");
  const clientId = input.clientId ?? newClientId(testMode ? TEST_CLIENT_PREFIX : CLIENT_ID_PREFIX[kind], testMode, () => randomToken(12));
  if ((modeOfClient(clientId) === "test") !== testMode)
    throw new Error(`Test-mode client ids, and only they, start with ${TEST_CLIENT_PREFIX}_.`);
  if (testMode) await sandboxTenantStatement(db.$client, input.tenantId!).run();
  const clientSecret = input.clientSecret ?? randomToken(32);
  const owner = { tenantId: input.tenantId ?? null, vendorId: input.vendorId ?? null, operator: input.operator === true };
  const row = {
    clientId,
    secretHash: await hashSecret(clientSecret),
    ...owner,
    name: input.name,
    scopes: (input.scopes ?? SCOPES_OF_KIND[kind]).join(" "),
    enabled: true,
    createdAt: new Date().toISOString(),
    secretCreatedAt: new Date().toISOString(),
    apiVersion: input.apiVersion ?? LATEST_VERSION,
  };
  await db
    .insert(apiClients)
    .values(row)
    .onConflictDoUpdate({
      target: apiClients.clientId,
      // A client made again with its id has this secret only: a rotation's previous secret does not survive it.
      set: {
        secretHash: row.secretHash,
        ...owner,
        scopes: row.scopes,
        enabled: true,
        secretCreatedAt: row.secretCreatedAt,
        secretLastUsedAt: null,
        previousSecretHash: null,
        previousSecretCreatedAt: null,
        previousSecretExpiresAt: null,
        previousSecretLastUsedAt: null,
        previousSecretWarnedAt: null,
      },
    });
  return { clientId, clientSecret };
}

export async function setClientEnabled(db: Database, clientId: string, enabled: boolean): Promise<void> {
  await db.update(apiClients).set({ enabled }).where(eq(apiClients.clientId, clientId));
}
