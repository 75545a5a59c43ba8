import { handleError, handleNotFound } from "./http/error-handler";
import { requestContext } from "./http/request-context";
import { createRouter } from "./http/router";
import { openApiDocumentRoute } from "./openapi/route";
import { authRoutes } from "./routes/auth";
import { healthRoutes } from "./routes/health";
import { userRoutes } from "./routes/users";

export const API_BASE = "/customer/api";

/** The customer API, mounted at /customer/api. Exported for the OpenAPI document. */
export const customerApi = createRouter().route("/", userRoutes);

/**
 * The whole Worker is one OpenAPIHono: every route declared with createRoute in the modules mounted
 * here lands in its registry, and GET /customer/api/openapi.json is generated from that registry.
 */
export function createApp() {
  const app = createRouter();
  app.use("*", requestContext);
  app.route("/", healthRoutes);
  app.route("/auth", authRoutes);
  app.route(API_BASE, customerApi);
  openApiDocumentRoute(app, API_BASE);
  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}
