import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { appConfig, envWith } from "../../src/env";
import { responseWithHeaders, setResponseHeaders } from "../../src/platform/responses";

describe("setResponseHeaders (headers added after the handler)", () => {
  it("sets them on the handler's own response in place, with no copy", async () => {
    let handlerResponse: Response | undefined;
    let finalResponse: Response | undefined;
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      setResponseHeaders(c as never, { "X-One": "1", "X-Two": "2" });
      finalResponse = c.res;
    });
    app.get("/", (c) => {
      handlerResponse = c.json({ ok: true });
      return handlerResponse;
    });
    const res = await app.request("/");
    expect(res.headers.get("X-One")).toBe("1");
    expect(res.headers.get("X-Two")).toBe("2");
    expect(await res.json()).toEqual({ ok: true });
    expect(finalResponse).toBe(handlerResponse);
  });

  it("copies a response whose headers are immutable once, keeping its status, headers and body", async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      setResponseHeaders(c as never, { "X-Added": "yes" });
    });
    app.get("/", () => Response.redirect("https://example.com/elsewhere", 302));
    const immutable = Response.redirect("https://example.com/elsewhere", 302);
    expect(() => immutable.headers.set("X-Added", "yes")).toThrow(TypeError);

    const res = await app.request("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://example.com/elsewhere");
    expect(res.headers.get("X-Added")).toBe("yes");
  });
});

describe("responseWithHeaders", () => {
  it("returns the same response when its headers are mutable, and one copy when they are not", async () => {
    const own = new Response("body", { status: 201 });
    expect(responseWithHeaders(own, { "X-One": "1" })).toBe(own);
    expect(own.headers.get("X-One")).toBe("1");

    const immutable = Response.redirect("https://example.com/elsewhere", 302);
    const copy = responseWithHeaders(immutable, { "X-One": "1" });
    expect(copy).not.toBe(immutable);
    expect(copy.status).toBe(302);
    expect(copy.headers.get("Location")).toBe("https://example.com/elsewhere");
    expect(copy.headers.get("X-One")).toBe("1");
  });
});

describe("envWith (bindings replaced per request)", () => {
  it("keeps the settings parsed for the original bindings, and the other bindings", () => {
    const original = { ...env, MAX_BODY_BYTES: "1234" };
    const copy = envWith(original, { DB: env.CATALOG });
    expect(copy.DB).toBe(env.CATALOG);
    expect(copy.QUOTES).toBe(env.QUOTES);
    expect(appConfig(copy)).toBe(appConfig(original));
    expect(appConfig(copy).MAX_BODY_BYTES).toBe(1234);
  });

  it("never changes the original, even behind a Proxy (the test runner's env is one)", () => {
    const target = { ...env };
    // Like the test runner's env: a set trap that writes to its target whatever the receiver.
    const original = new Proxy(target, { set: (t, key, value) => Reflect.set(t, key, value) });
    const copy = envWith(original, { DB: env.CATALOG });
    expect(copy.DB).toBe(env.CATALOG);
    expect(original.DB).toBe(env.DB);
    expect(target.DB).toBe(env.DB);
    expect(env.DB).not.toBe(env.CATALOG);
  });
});
