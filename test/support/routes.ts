import { createRoute, z } from "@hono/zod-openapi";
import { requireBearer } from "../../src/auth/bearer";
import { envelope } from "../../src/http/responses";
import { createRouter } from "../../src/http/router";

/**
 * A JSON endpoint that only the test entry worker mounts, built like a real route, so the platform tests
 * (415, body limits) have a POST JSON endpoint whatever endpoints the branch has. The 415 test also
 * walks every real POST route of the customer API.
 */
export const TEST_ECHO_PATH = "/__test/echo";

const echo = createRoute({
  method: "post",
  path: TEST_ECHO_PATH,
  middleware: [requireBearer] as const,
  request: { body: { required: true, content: { "application/json": { schema: z.object({ text: z.string().max(2_000_000) }) } } } },
  responses: { 200: { description: "The text back", content: { "application/json": { schema: z.object({}).passthrough() } } } },
});

export const testRoutes = createRouter().openapi(echo, (c) => c.json(envelope(c, { length: c.req.valid("json").text.length }), 200));
