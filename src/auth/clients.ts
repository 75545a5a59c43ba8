import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiClients } from "../db/schema";
import { SCOPES } from "../platform/principal";
import { DECOY_HASH, hashSecret, randomToken, verifySecret } from "./secrets";
import { recentlyVerified, rememberVerified } from "./verified-secrets";

export interface AuthenticatedClient {
  clientId: string;
  tenantId: number;
  scopes: string[];
}

/** Checks a client id and secret. Unknown ids cost the same hash work as known ones. */
export async function authenticateClient(db: Database, clientId: string, secret: string): Promise<AuthenticatedClient | null> {
  const client = await db.query.apiClients.findFirst({ where: eq(apiClients.clientId, clientId) });
  const storedHash = client?.secretHash ?? DECOY_HASH;
  const matches = (client !== undefined && (await recentlyVerified(storedHash, secret))) || (await verifySecret(secret, storedHash));
  if (!client || !matches || !client.enabled) return null;
  await rememberVerified(storedHash, secret);
  return { clientId: client.clientId, tenantId: client.tenantId, scopes: client.scopes.split(" ").filter(Boolean) };
}

export async function isClientEnabled(db: Database, clientId: string): Promise<boolean> {
  const row = await db.select({ enabled: apiClients.enabled }).from(apiClients).where(eq(apiClients.clientId, clientId)).get();
  return row?.enabled === true;
}

export interface NewClient {
  tenantId: number;
  name: string;
  scopes?: readonly string[];
  /** Fixed id and secret, for the local demo client only; otherwise both are random. */
  clientId?: string;
  clientSecret?: string;
}

/** Creates (or, for a fixed id, replaces) an API client. The secret is returned once and stored only as a hash. */
export async function createApiClient(db: Database, input: NewClient): Promise<{ clientId: string; clientSecret: string }> {
  const clientId = input.clientId ?? `mpc_${randomToken(12)}`;
  const clientSecret = input.clientSecret ?? randomToken(32);
  const row = {
    clientId,
    secretHash: await hashSecret(clientSecret),
    tenantId: input.tenantId,
    name: input.name,
    scopes: (input.scopes ?? SCOPES).join(" "),
    enabled: true,
    createdAt: new Date().toISOString(),
  };
  await db
    .insert(apiClients)
    .values(row)
    .onConflictDoUpdate({
      target: apiClients.clientId,
      set: { secretHash: row.secretHash, tenantId: row.tenantId, scopes: row.scopes, enabled: true },
    });
  return { clientId, clientSecret };
}

export async function setClientEnabled(db: Database, clientId: string, enabled: boolean): Promise<void> {
  await db.update(apiClients).set({ enabled }).where(eq(apiClients.clientId, clientId));
}
