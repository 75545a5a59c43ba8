import { describe, expect, it } from "vitest";
import { recentlyVerified, rememberVerified } from "../../src/shared/auth/verified-secrets";
import { newClient, requestToken, TENANT_A } from "../helpers/api";

describe("memory of recently verified client secrets", () => {
  it("remembers only the exact (stored hash, secret) pair, and only for five minutes", async () => {
    const now = Date.now();
    await rememberVerified("hash-1", "secret-1", now);
    expect(await recentlyVerified("hash-1", "secret-1", now + 1000)).toBe(true);
    expect(await recentlyVerified("hash-1", "secret-2", now + 1000)).toBe(false);
    expect(await recentlyVerified("hash-2", "secret-1", now + 1000)).toBe(false);
    expect(await recentlyVerified("hash-1", "secret-1", now + 5 * 60 * 1000 + 1)).toBe(false);
  });

  it("a wrong secret is refused even right after the right one was accepted", async () => {
    const creds = await newClient(TENANT_A);
    expect((await requestToken(creds)).status).toBe(200);
    expect((await requestToken(creds)).status).toBe(200);
    expect((await requestToken({ ...creds, clientSecret: `${creds.clientSecret}x` })).status).toBe(401);
  });
});
