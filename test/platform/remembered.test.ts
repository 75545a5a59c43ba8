import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { Remembered } from "../../src/platform/remembered";
import { forgetGrantedAccess, requireRememberedFacilityAccess } from "../../src/shared/users/access";

describe("Remembered: per-isolate memory of positive answers", () => {
  it("keeps what `keep` accepts for the TTL, asks again after it, and never keeps the rest", async () => {
    let now = 0;
    const memo = new Remembered<boolean>(() => now);
    let answer = true;
    let asked = 0;
    const load = async () => {
      asked++;
      return answer;
    };
    expect(await memo.get("a", 10, load, (v) => v)).toBe(true);
    answer = false;
    now = 9_999;
    expect(await memo.get("a", 10, load, (v) => v)).toBe(true);
    expect(asked).toBe(1);
    now = 10_000;
    expect(await memo.get("a", 10, load, (v) => v)).toBe(false);
    expect(await memo.get("a", 10, load, (v) => v)).toBe(false);
    expect(asked).toBe(3);
  });

  it("never trusts a value past its own expiry, even within the TTL", async () => {
    let now = 0;
    const memo = new Remembered<{ until: number }>(
      () => now,
      10,
      (value) => value.until,
    );
    let asked = 0;
    const load = async () => ({ until: ++asked * 1_000 + 5_000 });
    expect(await memo.get("t", 60, load)).toEqual({ until: 6_000 });
    now = 5_999;
    expect(await memo.get("t", 60, load)).toEqual({ until: 6_000 });
    now = 6_000;
    expect(await memo.get("t", 60, load)).toEqual({ until: 7_000 });
    expect(asked).toBe(2);
  });

  it("forgets the oldest entry past its bound, and remembers nothing with a TTL of 0", async () => {
    const memo = new Remembered<number>(() => 0, 2);
    let asked = 0;
    const load = async () => ++asked;
    await memo.get("a", 60, load);
    await memo.get("b", 60, load);
    await memo.get("c", 60, load);
    expect(await memo.get("b", 60, load)).toBe(2);
    expect(await memo.get("a", 60, load)).toBe(4);
    await memo.get("z", 0, load);
    await memo.get("z", 0, load);
    expect(asked).toBe(6);
  });
});

describe("remembered facility access (catalog search, ACCESS_CACHE_SECONDS)", () => {
  const db = () => database(env.DB);
  const revoke = () => env.DB.prepare("DELETE FROM user_facilities WHERE user_id = 1 AND facility_id = 1002").run();
  const restore = () => env.DB.prepare("INSERT OR IGNORE INTO user_facilities (user_id, facility_id) VALUES (1, 1002)").run();

  it("a granted access is trusted for the TTL after a revocation, and checked again after it", async () => {
    forgetGrantedAccess();
    try {
      expect((await requireRememberedFacilityAccess(db(), 1, 50001, 1002, 30)).companyId).toBeGreaterThan(0);
      await revoke();
      expect((await requireRememberedFacilityAccess(db(), 1, 50001, 1002, 30)).facilityId).toBe(1002);
      await expect(requireRememberedFacilityAccess(db(), 1, 50001, 1002, 0)).rejects.toMatchObject({ status: 403 });
    } finally {
      await restore();
      forgetGrantedAccess();
    }
  });

  it("a refusal is never remembered: access granted after it counts at once", async () => {
    forgetGrantedAccess();
    await revoke();
    try {
      await expect(requireRememberedFacilityAccess(db(), 1, 50001, 1002, 30)).rejects.toMatchObject({ status: 403 });
      await restore();
      expect((await requireRememberedFacilityAccess(db(), 1, 50001, 1002, 30)).facilityId).toBe(1002);
    } finally {
      await restore();
      forgetGrantedAccess();
    }
  });
});
