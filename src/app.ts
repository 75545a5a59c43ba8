import { Hono } from "hono";
import type { AppEnv } from "./env";
import { handleError, handleNotFound } from "./http/error-handler";
import { requestContext } from "./http/request-context";
import { createRouter } from "./http/router";
import { authRoutes } from "./routes/auth";
import { catalogRoutes } from "./routes/catalog";
import { healthRoutes } from "./routes/health";
import { manufacturerRoutes } from "./routes/manufacturers";
import { orderSearchRoutes } from "./routes/order-search";
import { userSearchRoutes } from "./routes/user-search";
import { orderRoutes } from "./routes/orders";
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

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use("*", requestContext);
  app.route("/", healthRoutes);
  app.route("/auth", authRoutes);
  app.route(API_BASE, customerApi);
  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}
