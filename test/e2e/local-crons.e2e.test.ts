import { describe, expect, inject, it } from "vitest";
import { dueCalls, localSchedules, runScheduledCalls } from "../../scripts/dev/local-crons";
import { clientToken } from "./chromium";

/**
 * The local runtime runs the operator plane's Cron Trigger (scripts/dev/local-crons.ts through scripts/dev/worker.ts), which
 * wrangler dev never fires and its /__scheduled does not reach: here its housekeeping tells the operator of a client
 * secret about to expire, as it does in production.
 */

const baseUrl = inject("baseUrl");
const operator = inject("operator");

const admin = async (token: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}/admin/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { data: any }).data;
};

describe("the local runtime's Cron Triggers", () => {
  it("run the operator plane's scheduled handler: a secret about to expire reaches the operator's feed", async () => {
    const token = await clientToken(baseUrl, operator);
    const { client } = await admin(token, "/clients", { kind: "tenant", tenantId: 1, name: "Local crons e2e" });
    await admin(token, `/clients/${client.clientId}/secrets`, { previousExpiresInSeconds: 3600 });
    const warned = async () => {
      for (let after = "0"; ; ) {
        const { items, nextCursor } = await admin(token, `/events?limit=100&after=${after}`);
        const page = items as { type: string; data: { clientId?: string } }[];
        if (page.some((event) => event.type === "client.secret.expiring" && event.data.clientId === client.clientId)) return true;
        if (page.length === 0) return false;
        after = nextCursor;
      }
    };
    expect(await warned()).toBe(false);
    // The operator plane's crons due at a 5-minute mark, as the local scheduler runs them then.
    const operatorPlane = localSchedules().filter((schedule) => schedule.binding === "ADMIN");
    const reported: string[] = [];
    await runScheduledCalls(baseUrl, dueCalls(operatorPlane, new Date("2026-03-02T10:05:00Z")), (message) => reported.push(message));
    expect(reported).toEqual([]);
    const deadline = Date.now() + 20_000;
    while (!(await warned()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await warned()).toBe(true);
  });
});
