import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOSED_LINE_STATUSES, LINE_STATUSES, type LineStatus } from "../../src/api/orders/lifecycle";
import type { LineChange } from "../../src/api/vendors/projection/messages";
import { PURGE_INTERVAL_MS, PURGE_LIMIT, type VendorLines } from "../../src/api/vendors/projection/projection";
import { reconcileVendorProjections } from "../../src/api/vendors/projection/reconcile";
import { CLOSED_ROW, REMOVAL_SLACK_MS, removalDelayMs, retentionCutoff, retentionMs } from "../../src/api/vendors/projection/retention";
import { vendorProjection, vendorProjectionShards } from "../../src/api/vendors/projection/stub";
import { appConfig, DEFAULT_VENDOR_LIST_RETENTION_DAYS, MIN_VENDOR_LIST_RETENTION_DAYS } from "../../src/env";
import { migrationKey, type TenantMigrations } from "../../src/shared/tenants/migration-files";
import { TENANT_MIGRATIONS } from "../../src/shared/tenants/migrations.generated";
import { ID_CHECKSUM_MODULUS } from "../../src/shared/tenants/statements";
import type { TenantStore } from "../../src/shared/tenants/store";
import { tenantStore } from "../../src/shared/tenants/stub";
import { json, TENANT_A } from "../helpers/api";
import { freshOrder, putLineIn } from "../helpers/orders";
import { eventually } from "../helpers/platform";
import { emptyProjection, storeRows } from "../helpers/stores";
import { listAllVendorLines, madeUpLine, projectionFollows, vendorCall } from "../helpers/vendors";

/**
 * A vendor's projection keeps open lines, and closed lines (Delivered, Cancelled, Rejected) and tombstones for
 * VENDOR_LIST_RETENTION_DAYS (W) after their last change (docs/tenant-stores.md, "Vendors' lines"; retention.ts): its
 * alarm purges older ones in batches, `apply` refuses them, and the reconciliation sweep's two accounts leave them out
 * alike. Time is made to pass by moving the lines' change times back, in the projection and in the store.
 */

const DAY_MS = 86_400_000;
const W = retentionMs(env);
/** Past the retention and its removal slack: the purge's. */
const LONG_AGO = W + 2 * DAY_MS;
const MADE_UP_VENDOR = 800_000 + Math.floor(Math.random() * 90_000);
const BATCH_VENDOR = MADE_UP_VENDOR + 1;
/** A tenant of made-up lines. */
const TENANT = 5;
const ORDER = { orderNumber: "RT-1-0", orderDate: "2026-03-01T10:00:00.000Z" };
const OPEN_STATUSES = LINE_STATUSES.filter((status) => !CLOSED_LINE_STATUSES.includes(status));

let nextLineId = 8_100_000;
const newLine = (status: LineStatus) => madeUpLine(nextLineId++, ORDER, status);
const changeOf = (line: ReturnType<typeof newLine>, changedAt: number, revision = 1): LineChange => ({
  lineId: line.lineId,
  revision,
  changedAt,
  line,
});

/** The line ids a shard holds, tombstones included. */
const heldIds = (shard: DurableObjectStub<VendorLines>) =>
  runInDurableObject(shard, (_, state) =>
    state.storage.sql
      .exec<{ id: number }>("SELECT line_id AS id FROM vendor_lines ORDER BY line_id")
      .toArray()
      .map((row) => row.id),
  );

/** Moves the shard's change time of these lines `ms` back, as if that long had passed since they changed. */
const ageInShard = (shard: DurableObjectStub<VendorLines>, lineIds: readonly number[], ms: number) =>
  runInDurableObject(shard, (_, state) => {
    state.storage.sql.exec(
      "UPDATE vendor_lines SET changed_at = changed_at - ? WHERE line_id IN (SELECT value FROM json_each(?))",
      ms,
      JSON.stringify(lineIds),
    );
  });

const alarmOf = (shard: DurableObjectStub<VendorLines>) => runInDurableObject(shard, (_, state) => state.storage.getAlarm());

/** The shard's counts per status, beside its live lines counted one by one. */
const countsOf = (shard: DurableObjectStub<VendorLines>) =>
  runInDurableObject(shard, (_, state) => ({
    kept: state.storage.sql.exec("SELECT status_name, lines FROM vendor_line_counts WHERE lines <> 0 ORDER BY status_name").toArray(),
    counted: state.storage.sql
      .exec("SELECT status_name, count(*) AS lines FROM vendor_lines WHERE deleted = 0 GROUP BY status_name ORDER BY status_name")
      .toArray(),
  }));

const checksumOf = (changes: readonly LineChange[]) => ({
  lines: changes.length,
  ids: changes.reduce((sum, change) => sum + (change.lineId % ID_CHECKSUM_MODULUS), 0),
  revisions: changes.reduce((sum, change) => sum + change.revision, 0),
});

afterAll(async () => {
  for (const vendorId of [MADE_UP_VENDOR, BATCH_VENDOR]) {
    for (const shard of vendorProjectionShards(env, vendorId)) await emptyProjection(shard);
  }
});

describe("VENDOR_LIST_RETENTION_DAYS", () => {
  it("is 30 days unless set, and never under the queue's message retention of 4 days", () => {
    expect(appConfig(env).VENDOR_LIST_RETENTION_DAYS).toBe(30);
    expect(W).toBe(30 * DAY_MS);
    expect(appConfig({ VENDOR_LIST_RETENTION_DAYS: "45" }).VENDOR_LIST_RETENTION_DAYS).toBe(45);
    expect(appConfig({ VENDOR_LIST_RETENTION_DAYS: "2" }).VENDOR_LIST_RETENTION_DAYS).toBe(MIN_VENDOR_LIST_RETENTION_DAYS);
    expect(MIN_VENDOR_LIST_RETENTION_DAYS).toBe(4);
    for (const unset of [undefined, "", "thirty", "-3"]) {
      expect(appConfig({ VENDOR_LIST_RETENTION_DAYS: unset }).VENDOR_LIST_RETENTION_DAYS).toBe(DEFAULT_VENDOR_LIST_RETENTION_DAYS);
    }
  });
});

describe("a shard's purge of closed lines past the retention", () => {
  const shard = vendorProjection(env, MADE_UP_VENDOR, TENANT);
  const start = Date.now();
  const closedOld = CLOSED_LINE_STATUSES.map((status) => changeOf(newLine(status), start));
  // A tombstone of a line the shard had live, and one of a line it never had.
  const deletedLine = newLine("Acknowledged");
  const tombstones: LineChange[] = [
    { lineId: deletedLine.lineId, revision: 2, changedAt: start, line: null },
    { lineId: nextLineId++, revision: 1, changedAt: start, line: null },
  ];
  const openOld = OPEN_STATUSES.map((status) => changeOf(newLine(status), start - LONG_AGO));
  const closedRecent = CLOSED_LINE_STATUSES.map((status, index) => changeOf(newLine(status), start - DAY_MS - index * 60_000));
  // Past the sweep's cutoff, not yet past the removal's: counted by neither account, not yet purged.
  const closedInSlack = changeOf(newLine("Delivered"), start);
  const SLACK_AGE = W + REMOVAL_SLACK_MS / 2;
  const ids = (changes: readonly LineChange[]) => changes.map((change) => change.lineId);

  beforeAll(async () => {
    await shard.apply(TENANT, [changeOf(deletedLine, start)]);
    await shard.apply(TENANT, [...closedOld, ...tombstones, ...openOld, ...closedRecent, closedInSlack]);
    await ageInShard(shard, ids([...closedOld, ...tombstones]), LONG_AGO);
    await ageInShard(shard, ids([closedInSlack]), SLACK_AGE);
  });

  it("is armed by a write, within the purge interval", async () => {
    const alarm = await alarmOf(shard);
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeGreaterThanOrEqual(start + PURGE_INTERVAL_MS);
    expect(alarm!).toBeLessThanOrEqual(Date.now() + PURGE_INTERVAL_MS);
  });

  it("leaves closed lines past the sweep's cutoff out of what the shard holds, before the purge too", async () => {
    const cutoff = retentionCutoff(env, Date.now());
    expect(await heldIds(shard)).toEqual(expect.arrayContaining(ids([...closedOld, ...tombstones, closedInSlack])));
    expect(await shard.held(TENANT, cutoff)).toEqual(checksumOf([...openOld, ...closedRecent]));
    // The slack's line is still counted by a sweep whose cutoff is older than its change.
    expect(await shard.held(TENANT, cutoff - REMOVAL_SLACK_MS)).toEqual(checksumOf([...openOld, ...closedRecent, closedInSlack]));
  });

  it("deletes closed lines and tombstones past the retention, keeps open ones of any age and recent closed ones, counts exact", async () => {
    const before = await countsOf(shard);
    expect(before.kept).toEqual(before.counted);
    expect(await runDurableObjectAlarm(shard)).toBe(true);
    const held = await heldIds(shard);
    for (const lineId of ids([...closedOld, ...tombstones])) expect(held).not.toContain(lineId);
    expect(held).toEqual(ids([...openOld, ...closedRecent, closedInSlack]).sort((a, b) => a - b));
    const { kept, counted } = await countsOf(shard);
    expect(kept).toEqual(counted);
    expect(kept).not.toEqual(before.kept);
    const page = await shard.query({ statuses: LINE_STATUSES, limit: 100, offset: 0 });
    expect(page.total).toBe(openOld.length + closedRecent.length + 1);
    expect(page.rows.map((row) => row.lineId).sort((a, b) => a - b)).toEqual(held);
  });

  it("arms its next alarm when the oldest closed line left is due, an interval away at the soonest", async () => {
    // The slack's line is due within the interval: the next purge waits for the interval.
    const armedAt = Date.now();
    const alarm = await alarmOf(shard);
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeGreaterThanOrEqual(armedAt - 5_000 + PURGE_INTERVAL_MS);
    expect(alarm!).toBeLessThanOrEqual(armedAt + PURGE_INTERVAL_MS);
    // Without it, the oldest closed line left is a recent one: the next purge is when it is due.
    await runInDurableObject(shard, (_, state) => {
      state.storage.sql.exec("DELETE FROM vendor_lines WHERE line_id = ?", closedInSlack.lineId);
    });
    expect(await runDurableObjectAlarm(shard)).toBe(true);
    const oldestRecent = Math.min(...closedRecent.map((change) => change.changedAt));
    expect(await alarmOf(shard)).toBe(oldestRecent + removalDelayMs(env));
  });

  it("refuses a closed change past the retention: a late or repeated message cannot bring a line back", async () => {
    const [purged] = closedOld;
    expect(await shard.apply(TENANT, [{ ...purged!, changedAt: start - LONG_AGO }])).toEqual({ applied: 0 });
    expect(await shard.apply(TENANT, [{ ...purged!, revision: 5, changedAt: start - LONG_AGO }])).toEqual({ applied: 0 });
    const neverHad = { lineId: nextLineId++, revision: 1, changedAt: Date.now() - LONG_AGO, line: null };
    expect(await shard.apply(TENANT, [neverHad])).toEqual({ applied: 0 });
    // A line held open, whose closing change comes late: it leaves with its older revision.
    const late = newLine("Shipped");
    expect(await shard.apply(TENANT, [changeOf(late, Date.now() - LONG_AGO)])).toEqual({ applied: 1 });
    expect(await heldIds(shard)).toContain(late.lineId);
    expect(await shard.apply(TENANT, [changeOf({ ...late, statusName: "Delivered" }, Date.now() - LONG_AGO, 2)])).toEqual({ applied: 0 });
    // A closed change within the retention is kept.
    const recent = changeOf(newLine("Cancelled"), Date.now() - W + DAY_MS);
    expect(await shard.apply(TENANT, [recent])).toEqual({ applied: 1 });
    const held = await heldIds(shard);
    for (const lineId of [purged!.lineId, neverHad.lineId, late.lineId]) expect(held).not.toContain(lineId);
    expect(held).toContain(recent.lineId);
    const { kept, counted } = await countsOf(shard);
    expect(kept).toEqual(counted);
  });

  it("finds closed lines past a cutoff by their own index", async () => {
    const plan = await runInDurableObject(shard, (_, state) =>
      state.storage.sql
        .exec<{ detail: string }>(
          `EXPLAIN QUERY PLAN SELECT line_id FROM vendor_lines WHERE ${CLOSED_ROW} AND changed_at < ? LIMIT ?`,
          Date.now(),
          PURGE_LIMIT,
        )
        .toArray()
        .map((row) => row.detail)
        .join("\n"),
    );
    expect(plan).toMatch(/SEARCH vendor_lines USING (COVERING )?INDEX vendor_lines_closed \(changed_at<\?\)/);
  });
});

describe("a purge of more lines than a batch", () => {
  const shard = vendorProjection(env, BATCH_VENDOR, TENANT);
  const LINES = 2 * PURGE_LIMIT + 200;
  const closed = Array.from({ length: LINES }, (_, index) =>
    index % 10 === 0
      ? { lineId: nextLineId++, revision: 1, changedAt: Date.now(), line: null }
      : changeOf(newLine(CLOSED_LINE_STATUSES[index % CLOSED_LINE_STATUSES.length]!), Date.now()),
  );
  const open = OPEN_STATUSES.map((status) => changeOf(newLine(status), Date.now() - LONG_AGO));

  it("deletes at most PURGE_LIMIT lines an alarm, and arms the next one at once while more remain", async () => {
    await shard.apply(TENANT, [...closed, ...open]);
    await ageInShard(
      shard,
      closed.map((change) => change.lineId),
      LONG_AGO,
    );
    const closedLeft = (state: DurableObjectState) =>
      state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM vendor_lines WHERE ${CLOSED_ROW}`).one().n;
    const first = await runInDurableObject(shard, async (projection: VendorLines, state) => {
      await projection.alarm();
      return { left: closedLeft(state), alarm: await state.storage.getAlarm() };
    });
    expect(first.left).toBe(LINES - PURGE_LIMIT);
    expect(first.alarm).not.toBeNull();
    expect(first.alarm!).toBeLessThanOrEqual(Date.now());
    // The runtime runs the alarms it armed, one batch each, until none is left.
    const left = await eventually(
      () => runInDurableObject(shard, (_, state) => closedLeft(state)),
      (n) => n === 0,
      10_000,
    );
    expect(left).toBe(0);
    expect((await heldIds(shard)).sort((a, b) => a - b)).toEqual(open.map((change) => change.lineId).sort((a, b) => a - b));
    const { kept, counted } = await countsOf(shard);
    expect(kept).toEqual(counted);
    // Nothing closed is left: no alarm until the next write.
    expect(
      await eventually(
        () => alarmOf(shard),
        (alarm) => alarm === null,
        5_000,
      ),
    ).toBeNull();
  });
});

describe("a store's closed lines", () => {
  it("of a store made before its lines were marked closed are marked as they are, when it migrates", async () => {
    const before = TENANT_MIGRATIONS.journal.entries.findIndex((entry) => entry.tag === "0009_vendor_line_closed");
    expect(before).toBeGreaterThan(0);
    const entries = TENANT_MIGRATIONS.journal.entries.slice(0, before);
    const older: TenantMigrations = {
      journal: { entries },
      migrations: Object.fromEntries(
        entries.map((entry) => [migrationKey(entry.idx), TENANT_MIGRATIONS.migrations[migrationKey(entry.idx)]!]),
      ),
    };
    const stub = tenantStore(env, 100_000 + Math.floor(Math.random() * 900_000));
    const marked = await runInDurableObject(stub as unknown as DurableObjectStub, async (instance, state) => {
      const store = instance as unknown as TenantStore;
      const sql = state.storage.sql;
      await state.storage.deleteAll();
      await store.migrate(older);
      for (const statement of [
        "INSERT INTO companies (id, tenant_id, name) VALUES (7, 3, 'C')",
        "INSERT INTO addresses (id, company_id, kind, line1, city, state, zip) VALUES (1, 7, 'shipping', 'l', 'c', 's', 'z')",
        "INSERT INTO facilities (id, company_id, name) VALUES (1, 7, 'F')",
        "INSERT INTO users (id, tenant_id, contact_id, login_user_id, first_name, last_name, created_at) VALUES (1, 3, 1, 'u', 'f', 'l', 'now')",
        "INSERT INTO orders (id, order_number, tenant_id, company_id, facility_id, requester_contact_id, user_id, requester_name, payment_method, shipping_method, shipping_address_id, billing_address_id, status, total_cents, event_id, created_at, updated_at) VALUES (70, 'O-70', 3, 7, 1, 1, 1, 'n', 'p', 's', 1, 1, 'Ordered', 1, 'e', 'now', 'now')",
      ]) {
        sql.exec(statement);
      }
      LINE_STATUSES.forEach((status, index) => {
        sql.exec(
          "INSERT INTO quotes (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition, warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at) " +
            "VALUES ('q' || ?, 3, 1, 1, 'p', 1, 1, 1, 'n', 'w', 'b', 1, 'r', '[]', 'now', 'later')",
          index + 1,
        );
        sql.exec(
          "INSERT INTO order_lines (id, order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number, description, quantity, price_cents, extended_price_cents, status_name) " +
            "VALUES (?1, 70, ?1, 'q' || ?1, 'p', 1, 'pn', 'pn', 'd', 1, 1, 1, ?2)",
          index + 1,
          status,
        );
      });
      // Every line published, and one the store deleted since.
      for (const lineId of [...LINE_STATUSES.keys()].map((index) => index + 1).concat(99)) {
        sql.exec(
          "INSERT INTO vendor_line_changes (line_id, vendor_id, revision, published_revision, changed_at, published_at) VALUES (?1, 1, ?1, ?1, 1, 1)",
          lineId,
        );
      }
      await store.migrate();
      return sql
        .exec<{ lineId: number; closed: number }>("SELECT line_id AS lineId, closed FROM vendor_line_changes ORDER BY line_id")
        .toArray();
    });
    expect(marked).toEqual([
      ...LINE_STATUSES.map((status, index) => ({ lineId: index + 1, closed: CLOSED_LINE_STATUSES.includes(status) ? 1 : 0 })),
      { lineId: 99, closed: 1 },
    ]);
  });
});

describe("a store's closed lines past the retention, its account and its vendor's list", () => {
  let vendorId: number;
  let closedIds: number[];
  let openIds: number[];
  const shard = () => vendorProjection(env, vendorId, TENANT_A);
  const closedSql = `(SELECT value FROM json_each('${JSON.stringify(CLOSED_LINE_STATUSES)}'))`;
  /** The vendor's lines in tenant A's store: each line's id, its status (null once deleted) and the store's `closed`. */
  const storeLines = async () =>
    (await storeRows(
      TENANT_A,
      "SELECT c.line_id AS lineId, l.status_name AS status, c.closed FROM vendor_line_changes c " +
        "LEFT JOIN order_lines l ON l.id = c.line_id WHERE c.vendor_id = ? ORDER BY c.line_id",
      vendorId,
    )) as { lineId: number; status: string | null; closed: number }[];
  const isClosed = (status: string | null) => status === null || (CLOSED_LINE_STATUSES as readonly string[]).includes(status);

  beforeAll(async () => {
    // The vendor with the most lines in tenant A's store, some closed and some open.
    const [chosen] = (await storeRows(
      TENANT_A,
      `SELECT l.vendor_id AS vendorId FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.tenant_id > 0 GROUP BY l.vendor_id ` +
        `HAVING sum(l.status_name IN ${closedSql}) >= 2 AND sum(l.status_name NOT IN ${closedSql}) >= 2 ORDER BY count(*) DESC LIMIT 1`,
    )) as [{ vendorId: number }];
    expect(chosen).toBeDefined();
    vendorId = chosen.vendorId;
    await projectionFollows(vendorId, TENANT_A);
  });

  it("the store marks a line closed as CLOSED_LINE_STATUSES says, through every status and its deletion", async () => {
    const lines = await storeLines();
    expect(lines.some((line) => line.closed === 1)).toBe(true);
    expect(lines.some((line) => line.closed === 0)).toBe(true);
    for (const line of lines) expect(line.closed, JSON.stringify(line)).toBe(isClosed(line.status) ? 1 : 0);
    const [moved, deleted] = (await freshOrder(2)).lineIds as [number, number];
    const closedOf = async (lineId: number) =>
      (await storeRows(TENANT_A, "SELECT closed FROM vendor_line_changes WHERE line_id = ?", lineId))[0]!.closed;
    for (const status of [...LINE_STATUSES, "Ordered"]) {
      await putLineIn(moved, status);
      expect(await closedOf(moved), status).toBe(isClosed(status) ? 1 : 0);
    }
    expect(await closedOf(deleted)).toBe(0);
    await tenantStore(env, TENANT_A).execute([
      { sql: "DELETE FROM shipping_document_lines WHERE line_id = ?", params: [deleted] },
      { sql: "DELETE FROM order_line_revisions WHERE line_id = ?", params: [deleted] },
      { sql: "DELETE FROM order_lines WHERE id = ?", params: [deleted] },
    ]);
    expect(await closedOf(deleted)).toBe(1);
  });

  it("the sweep leaves out the same closed lines in the store's account and in the shard, before and after the purge", async () => {
    await projectionFollows(vendorId, TENANT_A);
    const lines = await storeLines();
    closedIds = lines.filter((line) => line.closed === 1).map((line) => line.lineId);
    openIds = lines.filter((line) => line.closed === 0).map((line) => line.lineId);
    // As if W days and more had passed since every line of the vendor changed, and since it was published.
    await storeRows(
      TENANT_A,
      "UPDATE vendor_line_changes SET changed_at = changed_at - ?, published_at = published_at - 120000 WHERE vendor_id = ?",
      LONG_AGO,
      vendorId,
    );
    await ageInShard(shard(), [...closedIds, ...openIds], LONG_AGO);
    expect(await heldIds(shard())).toEqual(expect.arrayContaining(closedIds));
    const account = async () => {
      const cutoff = retentionCutoff(env, Date.now());
      const [published, held] = await Promise.all([tenantStore(env, TENANT_A).publishedLines(cutoff), shard().held(TENANT_A, cutoff)]);
      const own = published.find((row) => row.vendorId === vendorId)!;
      return { store: { lines: own.lines, ids: own.ids, revisions: own.revisions }, held };
    };
    const before = await account();
    expect(before.store.lines).toBe(openIds.length);
    expect(before.held).toEqual(before.store);
    const sweep = await reconcileVendorProjections(env);
    expect(sweep.compared).toBeGreaterThan(0);
    expect(sweep.republished).not.toContainEqual({ tenantId: TENANT_A, vendorId });

    expect(await runDurableObjectAlarm(shard())).toBe(true);
    const held = await heldIds(shard());
    for (const lineId of closedIds) expect(held).not.toContain(lineId);
    expect(held).toEqual(expect.arrayContaining(openIds));
    const { kept, counted } = await countsOf(shard());
    expect(kept).toEqual(counted);
    expect((await account()).held).toEqual(before.store);
    const again = await reconcileVendorProjections(env);
    expect(again.republished).not.toContainEqual({ tenantId: TENANT_A, vendorId });
  });

  it("the vendor's list no longer shows a closed line past the retention, which still answers by id", async () => {
    const listed = (await listAllVendorLines(vendorId)).map((line) => line.lineId);
    for (const lineId of closedIds) expect(listed).not.toContain(lineId);
    expect(listed).toEqual(expect.arrayContaining(openIds));
    const stillInStore = (await storeLines()).filter((line) => line.closed === 1 && line.status !== null);
    expect(stillInStore.length).toBeGreaterThan(0);
    for (const { lineId, status } of stillInStore) {
      const res = await vendorCall(vendorId, `/order-lines/${lineId}`);
      expect(res.status).toBe(200);
      expect((await json(res)).data).toMatchObject({ lineId, statusName: status });
    }
  });

  it("the store sends again only the lines the shard keeps, and a closed line past the retention sent anyway stays out", async () => {
    const store = tenantStore(env, TENANT_A);
    // A lost line: the sweep finds the shard differs, and the store sends the vendor's open lines again.
    await runInDurableObject(shard(), (_, state) => {
      state.storage.sql.exec("DELETE FROM vendor_lines WHERE line_id = ?", openIds[0]!);
    });
    const sweep = await reconcileVendorProjections(env);
    expect(sweep.republished).toContainEqual({ tenantId: TENANT_A, vendorId });
    await projectionFollows(vendorId, TENANT_A);
    expect(await heldIds(shard())).toContain(openIds[0]);
    expect(await store.republish(vendorId, retentionCutoff(env, Date.now()))).toEqual({ lines: openIds.length });
    await projectionFollows(vendorId, TENANT_A);
    // Every line sent again, the old closed ones too (as a store did before the retention), in the same messages as
    // the open ones: once the open ones are applied again, the shard has refused the closed ones.
    const resentAt = Date.now();
    await storeRows(TENANT_A, "UPDATE vendor_line_changes SET published_revision = 0 WHERE vendor_id = ?", vendorId);
    const appliedAgain = () =>
      runInDurableObject(
        shard(),
        (_, state) =>
          state.storage.sql
            .exec<{ n: number }>(
              "SELECT count(*) AS n FROM vendor_lines WHERE applied_at >= ? AND line_id IN (SELECT value FROM json_each(?))",
              resentAt,
              JSON.stringify(openIds),
            )
            .one().n,
      );
    expect(await eventually(appliedAgain, (n) => n === openIds.length, 10_000)).toBe(openIds.length);
    await projectionFollows(vendorId, TENANT_A);
    const held = await heldIds(shard());
    for (const lineId of closedIds) expect(held).not.toContain(lineId);
    expect(held).toEqual(expect.arrayContaining(openIds));
  });
});
