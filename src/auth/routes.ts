import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { basicCredentials } from "../platform/basic-credentials";
import { SCOPES, VENDOR_SCOPES } from "../platform/principal";
import { createRouter } from "../platform/router";
import { platformErrorResponses, ValidationProblemSchema } from "../platform/schemas";
import { authenticateClient } from "./clients";
import { keyring } from "./keys";
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from "./tokens";

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
  description: "RFC 6749 section 5.2 error",
  example: { error: "invalid_client", error_description: "Client authentication failed." },
});

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
const PUBLIC_CACHE = { "Cache-Control": "public, max-age=300" };

function oauthError(c: Context<AppEnv>, error: OAuthErrorCode, description: string, basicUsed = false) {
  const status = error === "invalid_client" ? 401 : 400;
  const headers: Record<string, string> = { ...NO_STORE };
  // RFC 6749 section 5.2: a challenge only answers HTTP Basic client authentication, with its own scheme.
  if (status === 401 && basicUsed) headers["WWW-Authenticate"] = `Basic realm="medparts"`;
  return c.json({ error, error_description: description }, status, headers);
}

const tokenRoute = createRoute({
  method: "post",
  path: "/oauth2/token",
  security: [],
  tags: ["Authentication"],
  summary: "OAuth 2.0 client credentials grant: issues an RS256 JWT access token valid 3600 s",
  description:
    "RFC 6749 4.4. Client authentication by `client_id`/`client_secret` in the body (client_secret_post) or " +
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
    400: {
      description:
        "invalid_request, unsupported_grant_type or invalid_scope (RFC 6749 5.2); a JSON body that does not parse is a validation problem",
      content: {
        "application/json": { schema: OAuthErrorSchema },
        "application/problem+json": { schema: ValidationProblemSchema },
      },
    },
    401: { description: "invalid_client", content: { "application/json": { schema: OAuthErrorSchema } } },
    ...platformErrorResponses,
  },
});

const jwksRoute = createRoute({
  method: "get",
  path: "/.well-known/jwks.json",
  security: [],
  tags: ["Authentication"],
  summary: "Public keys that verify access tokens",
  responses: {
    200: {
      description: "JSON Web Key Set",
      content: { "application/json": { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("JWKS") } },
    },
  },
});

/** RFC 8414 authorization server metadata: what the OIDC discovery document says that applies to OAuth 2.0. */
function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    token_endpoint: `${issuer}/oauth2/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    grant_types_supported: ["client_credentials"],
    response_types_supported: ["token"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    scopes_supported: [...SCOPES, ...VENDOR_SCOPES],
  };
}

const metadataRoute = (path: string, summary: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Authentication"],
    summary,
    security: [],
    responses: {
      200: {
        description: "Authorization server metadata (RFC 8414)",
        content: { "application/json": { schema: z.record(z.string(), z.unknown()).openapi("AuthorizationServerMetadata") } },
      },
    },
  });

/** RFC 8414 section 3: for the issuer `{origin}/auth` the metadata lives at `{origin}/.well-known/oauth-authorization-server/auth`. */
export const wellKnownMetadataRoutes = createRouter().openapi(
  metadataRoute("/.well-known/oauth-authorization-server/auth", "Authorization server metadata (RFC 8414 location for the /auth issuer)"),
  (c) => c.json(authorizationServerMetadata(c.env.ISSUER), 200, PUBLIC_CACHE),
);

const discoveryRoute = createRoute({
  method: "get",
  path: "/.well-known/openid-configuration",
  security: [],
  tags: ["Authentication"],
  summary: "OpenID Connect discovery document",
  responses: {
    200: {
      description: "Discovery document",
      content: { "application/json": { schema: z.record(z.string(), z.unknown()).openapi("OpenIdConfiguration") } },
    },
  },
});

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
      const client = await authenticateClient(database(c.env.DB), clientId, clientSecret);
      if (!client) return oauthError(c, "invalid_client", "Client authentication failed.", !!basic);

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
  .openapi(discoveryRoute, (c) =>
    c.json(
      {
        ...authorizationServerMetadata(c.env.ISSUER),
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_signing_alg_values_supported: ["RS256"],
      },
      200,
      PUBLIC_CACHE,
    ),
  )
  .openapi(
    metadataRoute("/.well-known/oauth-authorization-server", "Authorization server metadata (RFC 8414), beside the OIDC discovery"),
    (c) => c.json(authorizationServerMetadata(c.env.ISSUER), 200, PUBLIC_CACHE),
  );
