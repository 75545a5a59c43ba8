import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { cronMatches, dueCalls, localSchedules, runScheduledCalls, startLocalCrons } from "../../scripts/dev/local-crons";
import { DEV_SCHEDULED_PATH } from "../../scripts/dev/scheduled";
import { WEBHOOK_SWEEP_CRON } from "../../src/api/webhooks/queues";

/** npm start runs every Worker's Cron Trigger on its schedule (scripts/dev/local-crons.ts), as production does. */

const at = (iso: string) => new Date(iso);

describe("local Cron Triggers (npm start)", () => {
  it("read cron expressions as Cloudflare runs them, in UTC", () => {
    expect(cronMatches("* * * * *", at("2026-03-02T10:07:00Z"))).toBe(true);
    expect(cronMatches("*/5 * * * *", at("2026-03-02T10:05:00Z"))).toBe(true);
    expect(cronMatches("*/5 * * * *", at("2026-03-02T10:07:00Z"))).toBe(false);
    expect(cronMatches("*/15 * * * *", at("2026-03-02T10:45:59Z"))).toBe(true);
    expect(cronMatches("0 3 * * 1", at("2026-03-02T03:00:00Z"))).toBe(true); // a Monday
    expect(cronMatches("0 3 * * 1", at("2026-03-03T03:00:00Z"))).toBe(false);
    expect(cronMatches("0 0 * * 7", at("2026-03-01T00:00:00Z"))).toBe(true); // Sunday as 7
    expect(cronMatches("10-20/5,59 2 1 1-3 *", at("2026-02-01T02:15:00Z"))).toBe(true);
    expect(cronMatches("10-20/5,59 2 1 1-3 *", at("2026-02-01T02:16:00Z"))).toBe(false);
    // Day of month and day of week both restricted: either one (cron's rule).
    expect(cronMatches("0 0 15 * 1", at("2026-03-02T00:00:00Z"))).toBe(true);
    expect(() => cronMatches("@daily", at("2026-03-02T00:00:00Z"))).toThrow(/Unsupported/);
  });

  it("take each Worker's crons from its own wrangler.toml: the operator plane's run over the API Worker's ADMIN binding", () => {
    expect(localSchedules()).toEqual([
      { worker: "medparts", crons: expect.arrayContaining(["*/15 * * * *", WEBHOOK_SWEEP_CRON]) },
      { worker: "medparts-admin", binding: "ADMIN", crons: expect.arrayContaining(["*/5 * * * *", "* * * * *"]) },
    ]);
  });

  it("run at a minute every cron of every Worker that matches it, at that minute's start", () => {
    const schedules = localSchedules();
    const calls = (iso: string) => dueCalls(schedules, at(iso)).map(({ binding, cron, time }) => [binding ?? "api", cron, time]);
    const quarter = Date.parse("2026-03-02T10:15:00Z");
    expect(calls("2026-03-02T10:15:02Z")).toEqual(
      expect.arrayContaining([
        ["api", "*/15 * * * *", quarter],
        ["api", WEBHOOK_SWEEP_CRON, quarter],
        ["ADMIN", "*/5 * * * *", quarter],
        ["ADMIN", "* * * * *", quarter],
      ]),
    );
    expect(calls("2026-03-02T10:16:00Z").map(([binding, cron]) => [binding, cron])).toEqual([
      ["api", WEBHOOK_SWEEP_CRON],
      ["ADMIN", "* * * * *"],
    ]);
  });

  it("call the local runtime's scheduled route for each, and report one that fails without stopping the others", async () => {
    const received: string[] = [];
    const server = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.statusCode = request.url?.includes("binding=GONE") ? 404 : 202;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const reported: string[] = [];
    try {
      await runScheduledCalls(
        baseUrl,
        [
          { cron: "* * * * *", time: 60_000 },
          { cron: "*/5 * * * *", time: 60_000, binding: "ADMIN" },
          { cron: "* * * * *", time: 60_000, binding: "GONE" },
        ],
        (message) => reported.push(message),
      );
    } finally {
      server.close();
    }
    expect(received.sort()).toEqual(
      [
        `POST ${DEV_SCHEDULED_PATH}?cron=*+*+*+*+*&time=60000`,
        `POST ${DEV_SCHEDULED_PATH}?cron=*%2F5+*+*+*+*&time=60000&binding=ADMIN`,
        `POST ${DEV_SCHEDULED_PATH}?cron=*+*+*+*+*&time=60000&binding=GONE`,
      ].sort(),
    );
    expect(reported).toEqual([expect.stringMatching(/^Could not run GONE's scheduled handler \(\* \* \* \* \*\): 404/)]);
  });

  it("fire at the start of each minute until stopped", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: at("2026-03-02T10:14:30Z") });
    try {
      const ran: [string, number][] = [];
      const crons = startLocalCrons("http://local", localSchedules(), async (_base, calls) => {
        for (const call of calls) ran.push([call.cron, call.time]);
      });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(ran).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(ran).toContainEqual(["*/15 * * * *", Date.parse("2026-03-02T10:15:00Z")]);
      const firstMinute = ran.length;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(ran.slice(firstMinute)).toEqual([
        [WEBHOOK_SWEEP_CRON, Date.parse("2026-03-02T10:16:00Z")],
        ["* * * * *", Date.parse("2026-03-02T10:16:00Z")],
      ]);
      crons.stop();
      await vi.advanceTimersByTimeAsync(300_000);
      expect(ran).toHaveLength(firstMinute + 2);
    } finally {
      vi.useRealTimers();
    }
  });
});
