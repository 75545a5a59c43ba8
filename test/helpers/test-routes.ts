import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import type { AppEnv } from "../../src/env";
import { envelope } from "../../src/platform/responses";
import { requireBearer } from "../../src/shared/auth/bearer";

/**
 * A JSON endpoint that only the test entry worker mounts, so the platform tests (415, body limits) can show
 * exactly how many bytes reached a handler. A plain Hono route, not `createRoute`: it stays out of the
 * OpenAPI document, which describes the production Worker. The 415 test also walks every real POST route.
 */
export const TEST_ECHO_PATH = "/__test/echo";

const EchoBody = z.object({ text: z.string().max(2_000_000) });

export const testRoutes = new Hono<AppEnv>().post(TEST_ECHO_PATH, requireBearer, async (c) => {
  const { text } = EchoBody.parse(await c.req.json());
  return c.json(envelope(c, { length: text.length }), 200);
});
