import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { call, json } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";

describe("health endpoints", () => {
  it("live answers without a token", async () => {
    const res = await call(null, "/health/live");
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "GET", "/health/live");
    expect(await json(res)).toEqual({ status: "ok" });
  });

  it("ready checks D1 without a token", async () => {
    const res = await call(null, "/health/ready");
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "GET", "/health/ready");
    expect(await json(res)).toEqual({ status: "ok", checks: { d1: "ok" } });
  });

  it("ready reports 503 with Retry-After when D1 fails", async () => {
    const brokenDb = { prepare: () => ({ first: () => Promise.reject(new Error("D1_ERROR: down")) }) } as unknown as D1Database;
    const res = await createApp().request("/health/ready", {}, { ...env, DB: brokenDb });
    expect(res.status).toBe(503);
    await expectMatchesContract(res, "GET", "/health/ready");
    expect(res.headers.get("Retry-After")).toBe("5");
    expect(await json(res)).toEqual({ status: "unavailable", checks: { d1: "unavailable" } });
  });
});
