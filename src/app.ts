import { bodyLimit } from "./http/body-limit";
import { requireJsonBody } from "./http/content-type";
import { handleError } from "./http/error-handler";
import { methodNotAllowedOrNotFound } from "./http/method-not-allowed";
import { requestContext } from "./http/request-context";
import { createRouter } from "./http/router";
import { openApiDocumentRoute } from "./openapi/route";
import { limitTokenRequests } from "./ratelimit/middleware";
import { authRoutes } from "./routes/auth";
import { catalogRoutes } from "./routes/catalog";
import { healthRoutes } from "./routes/health";
import { manufacturerRoutes } from "./routes/manufacturers";
import { orderSearchRoutes } from "./routes/order-search";
import { orderRoutes } from "./routes/orders";
import { userSearchRoutes } from "./routes/user-search";
import { userRoutes } from "./routes/users";

export const API_BASE = "/customer/api";

/** The customer API, mounted at /customer/api. Exported for the OpenAPI document. */
export const customerApi = createRouter()
  .route("/", userRoutes)
  .route("/", userSearchRoutes)
  .route("/", catalogRoutes)
  .route("/", orderRoutes)
  .route("/", orderSearchRoutes)
  .route("/", manufacturerRoutes);

/**
 * The whole Worker is one OpenAPIHono: every route declared with createRoute in the modules mounted
 * here lands in its registry, and GET /customer/api/openapi.json is generated from that registry.
 */
export function createApp() {
  const app = createRouter();
  app.use("*", requestContext);
  // Platform protections (docs/architecture.md); the per-client rate limit runs in requireBearer.
  app.use("*", bodyLimit);
  app.use("/auth/oauth2/token", limitTokenRequests);
  app.use(`${API_BASE}/*`, requireJsonBody);
  app.route("/", healthRoutes);
  app.route("/auth", authRoutes);
  app.route(API_BASE, customerApi);
  openApiDocumentRoute(app, API_BASE);
  app.notFound(methodNotAllowedOrNotFound(app.router));
  app.onError(handleError);
  return app;
}
