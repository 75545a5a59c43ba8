import type { Context, MiddlewareHandler } from "hono";
import { database } from "../../db/client";
import { type AppEnv, appConfig } from "../../env";
import { ProblemError } from "../../platform/errors";
import type { OperatorScope, RequestLogOwner, Scope, VendorScope } from "../../platform/principal";
import { limitApiClient } from "../../platform/ratelimit/middleware";
import type { ApiVersion } from "../../platform/versions/calendar";
import { storeKeyLocks } from "../tenants/key-locks";
import { tenantStoreDatabase } from "../tenants/store-database";
import { clientStatus } from "./client-status";
import { InvalidTokenError, verifyAccessToken, verifyOperatorAccessToken, verifyVendorAccessToken } from "./tokens";

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/i;
const MAX_TOKEN_LENGTH = 4096;

/** The JWT of an `Authorization: Bearer <token>` header of at most MAX_TOKEN_LENGTH; undefined for any other. */
const bearerToken = (header: string): string | undefined => (header.length <= MAX_TOKEN_LENGTH + 16 ? BEARER.exec(header)?.[1] : undefined);

function unauthorized(detail: string, error?: "invalid_token" | "invalid_request"): ProblemError {
  const challenge = error ? `Bearer realm="medparts", error="${error}", error_description="${detail}"` : `Bearer realm="medparts"`;
  return new ProblemError(401, "unauthorized", "Unauthorized", detail, { headers: { "WWW-Authenticate": challenge } });
}

/** The client of a verified token, and whose request log its requests go to (none for the operator's). */
interface BearerCaller {
  clientId: string;
  owner: RequestLogOwner | undefined;
}

/**
 * One API's tokens: `verify` checks their audience and owner claim, `logOwner` names the request log of the caller's
 * requests, and `caller` does both (for a check of the token outside the API's own bearer check).
 */
function bearerApi<P extends { clientId: string }>(
  verify: (env: AppEnv["Bindings"], token: string) => Promise<P>,
  logOwner: (principal: P) => RequestLogOwner | undefined,
) {
  const caller = async (env: AppEnv["Bindings"], token: string): Promise<BearerCaller> => {
    const principal = await verify(env, token);
    return { clientId: principal.clientId, owner: logOwner(principal) };
  };
  return { verify, logOwner, caller };
}

/** A buyer's requests go to its data tenant's log (its sandbox twin's in test mode), a vendor's to the vendor's. */
const BUYER_TOKENS = bearerApi(verifyAccessToken, (principal) => ({ tenantId: principal.dataTenantId }));
const VENDOR_TOKENS = bearerApi(verifyVendorAccessToken, (principal) => ({ vendorId: principal.vendorId }));
const OPERATOR_TOKENS = bearerApi(verifyOperatorAccessToken, () => undefined);

/** The caller of the request's bearer token when one of `apis` verifies it; undefined without one, never throws. */
async function verifiedBearer(
  c: Context<AppEnv>,
  apis: readonly { caller: (env: AppEnv["Bindings"], token: string) => Promise<BearerCaller> }[],
): Promise<BearerCaller | undefined> {
  const token = bearerToken(c.req.header("Authorization") ?? "");
  if (token === undefined) return undefined;
  for (const api of apis) {
    const caller = await api.caller(c.env, token).catch(() => undefined);
    if (caller !== undefined) return caller;
  }
  return undefined;
}

/**
 * Middleware that requires a valid access token of one API from an enabled client, and hands the verified caller to
 * `accept`.
 */
function bearerFor<P extends { clientId: string }>(
  { verify, logOwner }: ReturnType<typeof bearerApi<P>>,
  accept: (c: Context<AppEnv>, principal: P) => void,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("Authorization");
    if (!header) throw unauthorized("An access token is required: send Authorization: Bearer <token>.");
    const token = bearerToken(header);
    if (token === undefined) throw unauthorized("The Authorization header is not a Bearer JWT.", "invalid_request");
    let principal: P;
    try {
      principal = await verify(c.env, token);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw unauthorized(err.message, "invalid_token");
      throw err;
    }
    c.set("verifiedClientId", principal.clientId);
    c.set("requestLogOwner", logOwner(principal));
    // The signature proves the client id, so the limiter can run before the database is asked anything:
    // a throttled client costs no D1 read.
    await limitApiClient(c, principal.clientId, async () => {
      const ttlSeconds = appConfig(c.env).CLIENT_STATUS_CACHE_SECONDS;
      const client = await clientStatus.enabledClient(database(c.env.DB), principal.clientId, ttlSeconds);
      if (client === null) throw unauthorized("The client of this access token is disabled.", "invalid_token");
      c.set("clientVersion", client.version);
      // The version is known now: a body sent at an older one is the latest version's from here on.
      await c.get("walkRequestForward")?.();
      accept(c, principal);
      const buyer = c.get("principal");
      if (buyer) {
        c.set("tenantDb", tenantStoreDatabase(c.env, buyer.dataTenantId));
        c.set("keyLocks", storeKeyLocks(c.env, buyer.dataTenantId));
      }
      await next();
    });
  };
}

/**
 * The version of the enabled client whose valid access token (of any of the three APIs) the request carries, for an
 * answer given before the bearer check learnt it: a body refused by the platform's checks, a 429. Undefined without
 * one; never throws (the answer then stays at the latest version).
 */
export async function pinOfBearer(c: Context<AppEnv>): Promise<ApiVersion | undefined> {
  try {
    const clientId = c.get("verifiedClientId") ?? (await verifiedBearer(c, [BUYER_TOKENS, VENDOR_TOKENS, OPERATOR_TOKENS]))?.clientId;
    if (clientId === undefined) return undefined;
    const ttlSeconds = appConfig(c.env).CLIENT_STATUS_CACHE_SECONDS;
    return (await clientStatus.enabledClient(database(c.env.DB), clientId, ttlSeconds))?.version;
  } catch {
    return undefined;
  }
}

/**
 * The request log's owner and client of the valid customer (or, on the vendor API, vendor) token the request carries,
 * for an answer given before the bearer check (a 413, a 415, an unknown version): undefined without one, never throws.
 */
export async function requestLogCallerOfBearer(
  c: Context<AppEnv>,
  api: "customer" | "vendor",
): Promise<{ owner: RequestLogOwner; clientId: string } | undefined> {
  const caller = await verifiedBearer(c, [api === "vendor" ? VENDOR_TOKENS : BUYER_TOKENS]);
  return caller?.owner === undefined ? undefined : { owner: caller.owner, clientId: caller.clientId };
}

/** Requires a customer API access token from an enabled client; sets the `principal` for the request. */
export const requireBearer = bearerFor(BUYER_TOKENS, (c, principal) => c.set("principal", principal));

/** Requires a vendor API access token from an enabled vendor client; sets the `vendorPrincipal` for the request. */
export const requireVendorBearer = bearerFor(VENDOR_TOKENS, (c, principal) => c.set("vendorPrincipal", principal));

/** Requires an operator API access token from an enabled operator client; sets the `operatorPrincipal`. */
export const requireOperatorBearer = bearerFor(OPERATOR_TOKENS, (c, principal) => c.set("operatorPrincipal", principal));

/** 403 unless the token carries the scope. */
export function requireScope(scope: Scope | VendorScope | OperatorScope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal") ?? c.get("vendorPrincipal") ?? c.get("operatorPrincipal");
    if (!principal?.scopes.has(scope)) {
      throw new ProblemError(403, "insufficient-scope", "Forbidden", `This operation needs the ${scope} scope.`, {
        headers: { "WWW-Authenticate": `Bearer realm="medparts", error="insufficient_scope", scope="${scope}"` },
      });
    }
    await next();
  };
}

/**
 * A route's access rule from one scope name: the OpenAPI security requirement it documents and the
 * middleware that enforces it (bearer token, then scope, then `after`), so the two never disagree.
 */
export function scopedAccess(scope: Scope, ...after: MiddlewareHandler<AppEnv>[]) {
  return { security: [{ oauth2: [scope] }], middleware: [requireBearer, requireScope(scope), ...after] };
}

/** The same for a vendor API route: a vendor token (security scheme vendorOAuth2) with the vendor scope. */
export function vendorScopedAccess(scope: VendorScope, ...after: MiddlewareHandler<AppEnv>[]) {
  return { security: [{ vendorOAuth2: [scope] }], middleware: [requireVendorBearer, requireScope(scope), ...after] };
}

/** The same for an operator API route (`/admin/api`): an operator token (security scheme operatorOAuth2) with the scope. */
export function operatorScopedAccess(scope: OperatorScope, ...after: MiddlewareHandler<AppEnv>[]) {
  return { security: [{ operatorOAuth2: [scope] }], middleware: [requireOperatorBearer, requireScope(scope), ...after] };
}
