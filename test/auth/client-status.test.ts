import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { ClientStatusCache } from "../../src/shared/auth/client-status";
import { setClientEnabled } from "../../src/shared/auth/clients";
import { newClient, TENANT_A } from "../helpers/api";

describe("ClientStatusCache: the per-isolate memory of enabled clients", () => {
  it("trusts an enabled client for the TTL, then asks D1 again; never remembers a disabled or unknown one", async () => {
    let now = 1_000_000;
    const cache = new ClientStatusCache(() => now);
    const db = database(env.DB);
    const { clientId } = await newClient(TENANT_A);
    expect(await cache.isEnabled(db, clientId, 30)).toBe(true);
    await setClientEnabled(db, clientId, false);
    now += 29_999;
    expect(await cache.isEnabled(db, clientId, 30)).toBe(true);
    now += 1;
    expect(await cache.isEnabled(db, clientId, 30)).toBe(false);
    await setClientEnabled(db, clientId, true);
    expect(await cache.isEnabled(db, clientId, 30)).toBe(true);
    expect(await cache.isEnabled(db, "mpc_unknown", 30)).toBe(false);
  });

  it("a TTL of 0 asks D1 every time", async () => {
    const cache = new ClientStatusCache(() => 5);
    const db = database(env.DB);
    const { clientId } = await newClient(TENANT_A);
    expect(await cache.isEnabled(db, clientId, 0)).toBe(true);
    await setClientEnabled(db, clientId, false);
    expect(await cache.isEnabled(db, clientId, 0)).toBe(false);
  });
});
