import { describe, expect, it } from "vitest";
import { inSlices, letOthersIn } from "../../src/platform/let-others-in";

/** Long synchronous passes split so that other work runs in between (src/platform/let-others-in.ts). */

describe("inSlices", () => {
  it("passes the items in order, in slices of the size, and returns each slice's result in order", async () => {
    const seen: number[][] = [];
    const results = await inSlices([1, 2, 3, 4, 5, 6, 7], 3, (slice) => {
      seen.push(slice);
      return slice.reduce((a, b) => a + b, 0);
    });
    expect(seen).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(results).toEqual([6, 15, 7]);
    expect(await inSlices([], 3, () => expect.unreachable())).toEqual([]);
  });

  it("lets a timer that was due run between two slices, not after the last", async () => {
    const order: string[] = [];
    setTimeout(() => order.push("timer"), 0);
    await inSlices(["a", "b"], 1, ([item]) => order.push(item!));
    expect(order).toEqual(["a", "timer", "b"]);

    const alone: string[] = [];
    setTimeout(() => alone.push("timer"), 0);
    await inSlices(["a"], 1, ([item]) => alone.push(item!));
    expect(alone).toEqual(["a"]);
    await letOthersIn();
    expect(alone).toEqual(["a", "timer"]);
  });
});

describe("letOthersIn", () => {
  it("resolves after timers already due, not before", async () => {
    let ran = false;
    setTimeout(() => {
      ran = true;
    }, 0);
    await Promise.resolve();
    expect(ran).toBe(false);
    await letOthersIn();
    expect(ran).toBe(true);
  });
});
