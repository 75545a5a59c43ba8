import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "./router";

const HealthSchema = z
  .object({ status: z.enum(["ok", "unavailable"]), checks: z.record(z.string(), z.string()).optional() })
  .openapi("Health", { example: { status: "ok", checks: { d1: "ok" } } });

const live = createRoute({
  method: "get",
  path: "/health/live",
  security: [],
  tags: ["Health"],
  summary: "Check that the Worker is live",
  description:
    "Liveness: the Worker is serving requests. No token. For load balancers and uptime checks: answers 200 without touching any storage, so it says nothing about the database (see /health/ready).",
  responses: { 200: { description: "Alive", content: { "application/json": { schema: HealthSchema } } } },
});

const ready = createRoute({
  method: "get",
  path: "/health/ready",
  security: [],
  tags: ["Health"],
  summary: "Check that the deployment is ready",
  description:
    "Readiness: the database answers. No token. Runs a trivial query against D1: 200 when it answers, 503 with Retry-After when it does not. Check it before sending traffic to a deployment.",
  responses: {
    200: { description: "Ready", content: { "application/json": { schema: HealthSchema } } },
    503: { description: "A dependency is unavailable", content: { "application/json": { schema: HealthSchema } } },
  },
});

export const healthRoutes = createRouter()
  .openapi(live, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(ready, async (c) => {
    try {
      await c.env.DB.prepare("SELECT 1").first();
      return c.json({ status: "ok" as const, checks: { d1: "ok" } }, 200);
    } catch {
      c.header("Retry-After", "5");
      return c.json({ status: "unavailable" as const, checks: { d1: "unavailable" } }, 503);
    }
  });
