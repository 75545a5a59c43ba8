import { describe, expect, it } from "vitest";
import { sideBySide } from "../../src/platform/side-by-side";

const later = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(new Error(String(value))) : resolve(value)), ms));

describe("sideBySide", () => {
  it("runs the steps together and returns their values in order", async () => {
    expect(await sideBySide([later(5, "a"), later(1, 2), Promise.resolve(true)])).toEqual(["a", 2, true]);
  });

  it("reports the failure of the first failing step in the written order, not the first in time", async () => {
    await expect(sideBySide([later(20, "access denied", true), later(1, "not found", true)])).rejects.toThrow("access denied");
  });

  it("waits for every step before reporting, so no step is left running unobserved", async () => {
    let finished = false;
    const slow = later(15, "x").then(() => {
      finished = true;
    });
    await expect(sideBySide([later(1, "boom", true), slow])).rejects.toThrow("boom");
    expect(finished).toBe(true);
  });
});
