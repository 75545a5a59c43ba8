import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { raiseDueReturns } from "../../src/api/returns/due";
import { database } from "../../src/db/client";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { TENANT_A } from "../helpers/api";
import { afterBatchCommits, FAULTS, withMethods } from "../helpers/faults";
import { eventuallyFound } from "../helpers/platform";
import { EXCHANGE, eventCounts, LOAN, optionWith, orderOf, returnsOf, shipLine } from "../helpers/returns";
import { storeRows } from "../helpers/stores";

/**
 * The daily due steps across crashes (docs/api.md, "Cores and loaners"): a run killed right after one of its commits,
 * or failing before one, and run again (the old run even coming back to life meanwhile), raises each due-soon and
 * overdue event exactly once, and charges each overdue core once. The runs take the steps in the tenant's store, as
 * its housekeeping does; the kill is injected at the commit boundary of a batch (test/helpers/faults.ts), the same point
 * the crash harnesses kill the runtime at.
 */

const DAY = 86_400_000;
const TYPES = ["core.due_soon", "core.overdue", "core.charged", "loaner.due_soon", "loaner.overdue"];

/** Tenant A's store, where its returns are. */
const store = () => tenantStoreDatabase(env, TENANT_A);

/** A run of the due steps in the tenant's store (through `db`, the store itself unless given), at `now`. */
const runDue = (db = store(), now = new Date()) => raiseDueReturns(database(db), now, 100);

/** Moves the due day of the order's returns to `dueAt`, as time passing would. */
const setDue = (orderNumber: string, dueAt: number) =>
  storeRows(
    TENANT_A,
    "UPDATE unit_returns SET due_at = ? WHERE order_id = (SELECT id FROM orders WHERE order_number = ?)",
    new Date(dueAt).toISOString(),
    orderNumber,
  );

/** Three overdue cores, two overdue loaners, two cores due within the warning days: 3×2 + 2 + 2 = 10 steps due. */
async function dueReturns(): Promise<void> {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  for (const [terms, due] of [
    [EXCHANGE, today - 2 * DAY],
    [EXCHANGE, today - 5 * DAY],
    [EXCHANGE, today - DAY],
    [LOAN, today - 3 * DAY],
    [LOAN, today - DAY],
    [EXCHANGE, today + 2 * DAY],
    [EXCHANGE, today + DAY],
  ] as const) {
    const { orderNumber, lineId } = await orderOf(await optionWith(terms), 1);
    await shipLine(lineId);
    await setDue(orderNumber, due);
  }
}

/** A run of the due steps that stops dead right after its `killAfter`-th commit; `release` lets it go on later. */
function killedRun(killAfter: number) {
  let commits = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const db = afterBatchCommits(store(), async () => {
    if (++commits === killAfter) await held;
  });
  const run = runDue(db);
  return { run, release, commits: () => commits };
}

describe("the due steps across kills and retries", () => {
  it("killed after a commit, run again, then the old run back to life: each event once, each core charged once", async () => {
    await dueReturns();
    const killed = killedRun(4);
    // The first run is "killed" after its 4th commit: it never gets past it while the next run goes through. How soon it
    // gets there depends on the machine's load (CI's clean clone took over 300 ms), so it is awaited, not timed.
    await eventuallyFound(async () => (killed.commits() >= 4 ? true : null), "the first run's 4th commit");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(killed.commits()).toBe(4);
    await runDue();
    // The cron again, as its next tick would.
    await runDue();
    killed.release();
    await killed.run;
    expect(await eventCounts(TYPES)).toEqual({
      "core.overdue": 3,
      "core.charged": 3,
      "loaner.overdue": 2,
      "core.due_soon": 2,
    });
    const charges = await storeRows(TENANT_A, "SELECT count(*) AS n, sum(total_cents) AS total FROM invoices WHERE origin = 'core_charge'");
    expect(charges).toEqual([{ n: 3, total: 3 * 30_000 }]);
    expect((await returnsOf("kind:core AND status:charged")).length).toBe(3);
  });

  it("a run failing before a commit writes nothing of that step; the next run takes it, once", async () => {
    const before = await eventCounts(TYPES);
    const { orderNumber, lineId } = await orderOf(await optionWith(LOAN), 2);
    await shipLine(lineId);
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    await setDue(orderNumber, today - 4 * DAY);
    const failing = withMethods(store(), {
      batch: () => () => Promise.reject(FAULTS["d1-unavailable"]()),
      withSession:
        (withSession) =>
        (...args: unknown[]) =>
          withMethods(withSession(...args), { batch: () => () => Promise.reject(FAULTS["d1-unavailable"]()) }),
    });
    await runDue(failing);
    expect(await eventCounts(TYPES)).toEqual(before);
    await runDue();
    await runDue();
    const after = await eventCounts(TYPES);
    expect(after["loaner.overdue"]).toBe((before["loaner.overdue"] ?? 0) + 1);
    expect((await returnsOf(`orderNumber:"${orderNumber}"`))[0]).toMatchObject({ status: "overdue", accruedLateFees: "100.00" });
  });
});
