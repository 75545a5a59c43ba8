import type { MiddlewareHandler } from "hono";
import { type AppEnv, envWith } from "../env";
import { ValidationError } from "./errors";
import { setResponseHeaders } from "./responses";

/**
 * D1 read replication through the Sessions API (docs/architecture.md, "Consistency"). Every customer API request
 * runs in one D1 session: reads may be served by the nearest replica, writes always go to the primary. The session
 * bookmark goes back in `X-Session-Bookmark`; a client that sends it on its next request reads at least what that
 * request saw or wrote (read-your-writes across requests, e.g. create an order, then search for it).
 */
export const BOOKMARK_HEADER = "X-Session-Bookmark";

/** D1 bookmarks are opaque, short, hex-and-dash tokens; anything else is refused before it reaches D1. */
export const BOOKMARK_PATTERN = /^[0-9A-Za-z-]{1,256}$/;

/**
 * `isWrite` tells the requests that write: they start on the primary ("first-primary"), so that
 * their checks read current data. Reads start anywhere ("first-unconstrained"). A bookmark, when sent, wins.
 * Paths in `outside` (that never read D1, e.g. the OpenAPI document) get no session. `catalogReplicas: false` leaves
 * CATALOG the binding itself: for the operator plane, whose import jobs keep their bookkeeping there.
 */
export function d1Sessions(
  isWrite: (method: string, path: string) => boolean,
  outside: ReadonlySet<string> = new Set(),
  { catalogReplicas = true }: { catalogReplicas?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (outside.has(c.req.path)) return next();
    const bookmark = c.req.header(BOOKMARK_HEADER);
    if (bookmark !== undefined && !BOOKMARK_PATTERN.test(bookmark)) {
      throw new ValidationError(
        { [BOOKMARK_HEADER]: ["Must be a bookmark returned in the X-Session-Bookmark header of an earlier response."] },
        `Invalid ${BOOKMARK_HEADER} header.`,
      );
    }
    const writing = isWrite(c.req.method, c.req.path);
    const session = c.env.DB.withSession(bookmark ?? (writing ? "first-primary" : "first-unconstrained"));
    // Everything below reads c.env.DB: the session stands in for the database for the rest of the request. The
    // catalog is written by imports only, never by the API: its reads go to the nearest replica, with no bookmark.
    const catalog = catalogReplicas ? (c.env.CATALOG.withSession("first-unconstrained") as unknown as D1Database) : c.env.CATALOG;
    c.env = envWith(c.env, { DB: session as unknown as D1Database, CATALOG: catalog });
    await next();
    // A request that never read DB (e.g. a catalog-only read) hands the caller's bookmark back, so a chain of
    // requests that passes it along keeps its read-your-writes guarantee. So does a path without a route, whatever
    // its authentication read: a route that does not exist for the caller (a test helper) answers as an unknown path.
    const latest = (c.get("noRoute") ? undefined : session.getBookmark()) ?? bookmark;
    if (latest) setResponseHeaders(c, { [BOOKMARK_HEADER]: latest });
  };
}
