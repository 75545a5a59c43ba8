import { createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { database } from "../../db/client";
import type { AppEnv, Bindings } from "../../env";
import { inBackground } from "../../platform/background";
import { basicCredentials } from "../../platform/basic-credentials";
import { limitTokenRequest } from "../../platform/ratelimit/middleware";
import { createRouter } from "../../platform/router";
import { sideBySide } from "../../platform/side-by-side";
import { authenticateClient, findClient, recordSecretUse, SCOPES_OF_KIND } from "./clients";
import { keyring } from "./keys";
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from "./tokens";

/** Every scope a client of any kind can hold (discovery's `scopes_supported`). */
const ALL_SCOPES = Object.values(SCOPES_OF_KIND).flat();

type OAuthErrorCode = "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope";

const TokenRequestSchema = z
  .object({
    grant_type: z
      .string()
      .optional()
      .openapi({ enum: ["client_credentials"], example: "client_credentials" }),
    client_id: z.string().optional().openapi({ example: "demo-stmarys" }),
    client_secret: z.string().optional().openapi({ format: "password" }),
    scope: z.string().optional().openapi({ description: "Space-separated subset of the client's scopes" }),
  })
  // Optional in the schema so that a missing field gets the RFC 6749 error body, not a validation problem.
  .openapi("TokenRequest", {
    required: ["grant_type"],
    description: "`client_id` and `client_secret` are required unless the client authenticates with HTTP Basic.",
  });

const TokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    scope: z.string(),
  })
  .openapi("TokenResponse", {
    example: {
      access_token: "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImxvY2FsLTEifQ...",
      token_type: "Bearer",
      expires_in: 3600,
      scope: "users:read catalog:read orders:read orders:write manufacturers:read",
    },
  });

const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string() }).openapi("OAuthError", {
  description:
    "RFC 6749 section 5.2 error, `application/json`: every error of the token endpoint has this form, including those the platform " +
    "answers (413, 415, 429, 5xx), because OAuth clients (openid-client among them) read no other",
  example: { error: "invalid_client", error_description: "Client authentication failed." },
});

/** A documented error answer of the token endpoint (one form for all; the description names the codes). */
const documentedOAuthError = (description: string) => ({ description, content: { "application/json": { schema: OAuthErrorSchema } } });

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
const PUBLIC_CACHE = { "Cache-Control": "public, max-age=300" };
/** No client id is this long (ours have 16 characters): a longer one is refused before any storage is asked. */
const MAX_CLIENT_ID_LENGTH = 128;

function oauthError(c: Context<AppEnv>, error: OAuthErrorCode, description: string, basicUsed = false) {
  const status = error === "invalid_client" ? 401 : 400;
  const headers: Record<string, string> = { ...NO_STORE };
  // RFC 6749 section 5.2: a challenge only answers HTTP Basic client authentication, with its own scheme.
  if (status === 401 && basicUsed) headers["WWW-Authenticate"] = `Basic realm="medparts"`;
  return c.json({ error, error_description: description }, status, headers);
}

/**
 * Mounted on the token endpoint before every platform layer: its errors, whichever layer answers them (body limit,
 * media type, rate limit, storage), are RFC 6749 5.2 bodies (src/platform/responses.ts), not problem details.
 */
export const oauthErrorForm: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST") c.set("errorForm", "oauth");
  await next();
};

const tokenRoute = createRoute({
  method: "post",
  path: "/oauth2/token",
  security: [],
  tags: ["Authentication"],
  summary: "Get an access token",
  description:
    "OAuth 2.0 client credentials grant: issues an RS256 JWT access token valid 3600 s. RFC 6749 4.4. Client authentication by `client_id`/`client_secret` in the body (client_secret_post) or " +
    "HTTP Basic (client_secret_basic), not both. The body is form-encoded as RFC 6749 prescribes; JSON is accepted too.",
  request: {
    body: {
      required: true,
      content: {
        "application/x-www-form-urlencoded": { schema: TokenRequestSchema },
        "application/json": { schema: TokenRequestSchema },
      },
    },
  },
  responses: {
    200: { description: "Access token", content: { "application/json": { schema: TokenResponseSchema } } },
    400: documentedOAuthError(
      "invalid_request (a parameter missing or malformed, or a JSON body that does not parse), unsupported_grant_type or invalid_scope",
    ),
    401: documentedOAuthError("invalid_client: unknown client, wrong secret, disabled client, or no client authentication"),
    413: documentedOAuthError("invalid_request: the body is larger than the limit (1 MiB by default)"),
    415: documentedOAuthError("invalid_request: the body is neither application/x-www-form-urlencoded nor JSON"),
    429: documentedOAuthError(
      "temporarily_unavailable: too many token requests for this client_id, or too many client ids failing authentication from " +
        "this address; wait Retry-After seconds",
    ),
    500: documentedOAuthError("server_error: unexpected error; nothing internal is disclosed"),
    503: documentedOAuthError("temporarily_unavailable: a storage service is unavailable; retry after Retry-After seconds"),
    504: documentedOAuthError("temporarily_unavailable: a storage service did not answer in time; retry with backoff"),
  },
});

const jwksRoute = createRoute({
  method: "get",
  path: "/.well-known/jwks.json",
  security: [],
  tags: ["Authentication"],
  summary: "Public keys that verify access tokens",
  description:
    "The RS256 public keys (JWK Set) whose kid an access token names; cache them and refetch when a token names a kid you do not have (keys rotate).",
  responses: {
    200: {
      description: "JSON Web Key Set",
      content: { "application/json": { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("JWKS") } },
    },
  },
});

const AuthorizationServerMetadataSchema = z
  .object({
    issuer: z.string().url(),
    token_endpoint: z.string().url(),
    jwks_uri: z.string().url().openapi({ description: "The keys that verify access tokens (RS256)" }),
    grant_types_supported: z.array(z.literal("client_credentials")),
    response_types_supported: z
      .array(z.string())
      .max(0)
      .openapi({ description: "None: there is no authorization endpoint (RFC 8414 requires the member)" }),
    token_endpoint_auth_methods_supported: z.array(z.enum(["client_secret_post", "client_secret_basic"])),
    scopes_supported: z.array(z.enum(ALL_SCOPES)),
    access_token_audiences: z
      .object({
        customer_api: z.string().openapi({ description: "`aud` of a buyer (tenant) client's tokens; /customer/api accepts only it" }),
        vendor_api: z.string().openapi({ description: "`aud` of a vendor client's tokens; /vendor/api accepts only it" }),
        operator_api: z.string().openapi({ description: "`aud` of an operator client's tokens; /admin/api accepts only it" }),
      })
      .openapi({
        description: "Not a standard member: the `aud` of access tokens, decided by the client's kind (a request cannot ask for one)",
      }),
  })
  .openapi("AuthorizationServerMetadata", {
    description:
      "RFC 8414 metadata, exactly what this server does: the client credentials grant at the token endpoint with a client secret; " +
      "no authorization endpoint, no ID tokens, no signed client authentication. The discovery document is the same",
    example: {
      issuer: "https://api.medparts.example/auth",
      token_endpoint: "https://api.medparts.example/auth/oauth2/token",
      jwks_uri: "https://api.medparts.example/auth/.well-known/jwks.json",
      grant_types_supported: ["client_credentials"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      scopes_supported: ALL_SCOPES,
      access_token_audiences: {
        customer_api: "medparts-customer-api",
        vendor_api: "medparts-vendor-api",
        operator_api: "medparts-admin-api",
      },
    },
  });

type MetadataEnv = Pick<Bindings, "ISSUER" | "AUDIENCE" | "VENDOR_AUDIENCE" | "OPERATOR_AUDIENCE">;

/** RFC 8414 authorization server metadata, also served as the discovery document. */
function authorizationServerMetadata(env: MetadataEnv): z.infer<typeof AuthorizationServerMetadataSchema> {
  return {
    issuer: env.ISSUER,
    token_endpoint: `${env.ISSUER}/oauth2/token`,
    jwks_uri: `${env.ISSUER}/.well-known/jwks.json`,
    grant_types_supported: ["client_credentials"],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    scopes_supported: ALL_SCOPES,
    access_token_audiences: { customer_api: env.AUDIENCE, vendor_api: env.VENDOR_AUDIENCE, operator_api: env.OPERATOR_AUDIENCE },
  };
}

const metadataRoute = (path: string, summary: string, description: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Authentication"],
    summary,
    description,
    security: [],
    responses: {
      200: {
        description: "Authorization server metadata (RFC 8414)",
        content: { "application/json": { schema: AuthorizationServerMetadataSchema } },
      },
    },
  });

const serveMetadata = (c: Context<AppEnv>) => c.json(authorizationServerMetadata(c.env), 200, PUBLIC_CACHE);

/** RFC 8414 section 3: for the issuer `{origin}/auth` the metadata lives at `{origin}/.well-known/oauth-authorization-server/auth`. */
export const wellKnownMetadataRoutes = createRouter().openapi(
  metadataRoute(
    "/.well-known/oauth-authorization-server/auth",
    "Get the authorization server metadata at the RFC 8414 path",
    "Authorization server metadata at the RFC 8414 location for the /auth issuer. Where RFC 8414 clients look for the issuer {base_url}/auth; the same metadata as the other two locations.",
  ),
  serveMetadata,
);

export const authRoutes = createRouter()
  .openapi(
    tokenRoute,
    async (c) => {
      // Only the validator matching the request's Content-Type sees the body; the other yields {}.
      const form = { ...c.req.valid("json"), ...c.req.valid("form") };
      const basic = basicCredentials(c.req.header("Authorization"));
      if (basic === "malformed") return oauthError(c, "invalid_client", "Malformed HTTP Basic client credentials.", true);
      if (!form.grant_type) return oauthError(c, "invalid_request", "grant_type is required.");
      if (form.grant_type !== "client_credentials") {
        return oauthError(c, "unsupported_grant_type", "Only the client_credentials grant is supported.");
      }
      if (basic && (form.client_id || form.client_secret)) {
        return oauthError(c, "invalid_request", "Use one client authentication method, not both.");
      }
      const clientId = basic?.id ?? form.client_id;
      const clientSecret = basic?.secret ?? form.client_secret;
      if (!clientId || !clientSecret) return oauthError(c, "invalid_client", "Client authentication is required.", !!basic);
      if (clientId.length > MAX_CLIENT_ID_LENGTH) return oauthError(c, "invalid_client", "Client authentication failed.", !!basic);
      // One round trip: the client's row is read while its rate limits decide. A refusal (429, the address's first)
      // wins over whatever the read found, a storage failure included.
      const limits = limitTokenRequest(c, clientId);
      const [, stored] = await sideBySide([limits.admitted, findClient(database(c.env.DB), clientId)]);
      const client = await authenticateClient(stored, clientSecret);
      if (!client) {
        await limits.failed();
        return oauthError(c, "invalid_client", "Client authentication failed.", !!basic);
      }
      // lastUsedAt of the secret used, after the answer and at most hourly (src/shared/auth/clients.ts).
      inBackground(c, recordSecretUse(database(c.env.DB), stored!, client.secretSlot));

      let scopes = client.scopes;
      if (form.scope !== undefined) {
        const requested = form.scope.split(" ").filter(Boolean);
        const notAllowed = requested.filter((s) => !client.scopes.includes(s));
        if (requested.length === 0 || notAllowed.length > 0) {
          return oauthError(c, "invalid_scope", `Scopes not granted to this client: ${notAllowed.join(" ") || "(none requested)"}.`);
        }
        scopes = requested;
      }
      const accessToken = await issueAccessToken(c.env, { ...client, scopes });
      return c.json(
        { access_token: accessToken, token_type: "Bearer" as const, expires_in: ACCESS_TOKEN_TTL_SECONDS, scope: scopes.join(" ") },
        200,
        NO_STORE,
      );
    },
    (result, c) => {
      if (!result.success) return oauthError(c, "invalid_request", "The token request parameters are malformed.");
    },
  )
  .openapi(jwksRoute, async (c) => c.json((await keyring(c.env)).jwks, 200, PUBLIC_CACHE))
  .openapi(
    metadataRoute(
      "/.well-known/openid-configuration",
      "Get the discovery document",
      "The RFC 8414 metadata (no OpenID Connect: no ID tokens). Where OAuth client libraries (openid-client's discovery) look first: the token endpoint, the keys, the scopes and the audience of each kind of client.",
    ),
    serveMetadata,
  )
  .openapi(
    metadataRoute(
      "/.well-known/oauth-authorization-server",
      "Get the authorization server metadata",
      "RFC 8414 metadata beside the discovery document: the same metadata, for clients that look for RFC 8414's name under the issuer.",
    ),
    serveMetadata,
  );
