import type { Context } from "hono";

/**
 * A request from this site's own pages (the PunchOut shop's forms, the order desk's forms and scripts): the browser says
 * so (Sec-Fetch-Site: same-origin), or, from a browser that sends no fetch metadata, its Origin is this host. Anything
 * else (another site's form, a script without Origin, an Origin of "null") is not.
 */
export function fromOwnPages(c: Context): boolean {
  const site = c.req.header("Sec-Fetch-Site");
  if (site !== undefined) return site === "same-origin";
  return c.req.header("Origin") === new URL(c.req.url).origin;
}
