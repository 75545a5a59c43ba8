import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";
import { ProblemError } from "./errors";
import { requireWellFormedText } from "./well-formed-text";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * The customer API's request bodies are JSON of well-formed Unicode text: a body of another (or no) media type is
 * 415, a lone surrogate anywhere in it is 400. Runs only when
 * a route matches, so a wrong method or path still gets 405 or 404. Requests without a body pass through
 * (the route's validation reports a missing body).
 */
export const requireJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.raw.body && matchedRoutes(c).some((route) => route.method !== "ALL")) {
    const mediaType = c.req.header("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new ProblemError(
        415,
        "unsupported-media-type",
        "Unsupported Media Type",
        `Request bodies must be JSON: send Content-Type: application/json${mediaType ? `, not ${mediaType}` : ""}.`,
        { headers: { "Accept-Post": "application/json" } },
      );
    }
    await requireWellFormedText(c);
  }
  await next();
};
