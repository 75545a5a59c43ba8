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

/**
 * Middleware that requires a valid access token of one API (`verify` checks its audience and owner claim) from an
 * enabled client, and hands the verified caller to `accept`.
 */
function bearerFor<P extends { clientId: string }>(
  verify: (env: AppEnv["Bindings"], token: string) => Promise<P>,
  accept: (c: Context<AppEnv>, principal: P) => void,
  logOwner: (principal: P) => RequestLogOwner | undefined,
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
    let clientId = c.get("verifiedClientId");
    if (clientId === undefined) {
      const token = bearerToken(c.req.header("Authorization") ?? "");
      if (token === undefined) return undefined;
      for (const verify of [verifyAccessToken, verifyVendorAccessToken, verifyOperatorAccessToken]) {
        clientId = await verify(c.env, token).then(
          (principal) => principal.clientId,
          () => undefined,
        );
        if (clientId !== undefined) break;
      }
      if (clientId === undefined) return undefined;
    }
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
  const token = bearerToken(c.req.header("Authorization") ?? "");
  if (token === undefined) return undefined;
  try {
    if (api === "vendor") {
      const vendor = await verifyVendorAccessToken(c.env, token);
      return { owner: { vendorId: vendor.vendorId }, clientId: vendor.clientId };
    }
    const buyer = await verifyAccessToken(c.env, token);
    return { owner: { tenantId: buyer.dataTenantId }, clientId: buyer.clientId };
  } catch {
    return undefined;
  }
}

/** Requires a customer API access token from an enabled client; sets the `principal` for the request. */
export const requireBearer = bearerFor(
  verifyAccessToken,
  (c, principal) => c.set("principal", principal),
  (principal) => ({ tenantId: principal.dataTenantId }),
);

/** Requires a vendor API access token from an enabled vendor client; sets the `vendorPrincipal` for the request. */
export const requireVendorBearer = bearerFor(
  verifyVendorAccessToken,
  (c, principal) => c.set("vendorPrincipal", principal),
  (principal) => ({ vendorId: principal.vendorId }),
);

/** Requires an operator API access token from an enabled operator client; sets the `operatorPrincipal`. */
export const requireOperatorBearer = bearerFor(
  verifyOperatorAccessToken,
  (c, principal) => c.set("operatorPrincipal", principal),
  () => undefined,
);

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
