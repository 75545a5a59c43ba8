import { env, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINE_STATUSES } from "../../src/api/orders/lifecycle";
import { linesById, OPEN_LINE_STATUSES, type VendorLineFilter, type VendorOrderLine } from "../../src/api/vendors/lines";
import { listLinesOfVendor } from "../../src/api/vendors/projection/list";
import type { HeldLines, LineChange } from "../../src/api/vendors/projection/messages";
import { migrateVendorLines, pageStatements, type VendorLines } from "../../src/api/vendors/projection/projection";
import { reconcileVendorProjections } from "../../src/api/vendors/projection/reconcile";
import { retentionCutoff } from "../../src/api/vendors/projection/retention";
import { lineCondition } from "../../src/api/vendors/projection/search";
import {
  projectionShardCount,
  shardOfTenant,
  vendorProjection,
  vendorProjectionShard,
  vendorProjectionShards,
} from "../../src/api/vendors/projection/stub";
import { database } from "../../src/db/client";
import { paginationOf } from "../../src/platform/pagination";
import { GET_MAX_LIMIT } from "../../src/query/params";
import { ID_CHECKSUM_MODULUS } from "../../src/shared/tenants/statements";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { TENANT_A, TENANT_B, TENANT_C } from "../helpers/api";
import { eventually } from "../helpers/platform";
import { emptyProjection, storeRows } from "../helpers/stores";
import { listAllVendorLines, madeUpLine } from "../helpers/vendors";

/**
 * A vendor's projection split by tenant (docs/tenant-stores.md, "Vendors' lines"): shard tenantId mod
 * VENDOR_PROJECTION_SHARDS holds a tenant's lines, the list reads every shard side by side and merges them in its order
 * (oldest order first, then line id), and each shard keeps its lines per status counted for the pages' totals
 * (docs/architecture.md, "Capacity of a vendor's projection").
 */

const SHARDS = projectionShardCount(env);
/** Tenants of made-up lines: two in each shard. */
const TENANTS = Array.from({ length: 2 * SHARDS }, (_, index) => index + 1);
/** Vendors no demo data has: their made-up lines reach only their own projections. */
const MADE_UP_VENDOR = 900_000 + Math.floor(Math.random() * 90_000);
const VENDOR_BEFORE_COUNTS = MADE_UP_VENDOR + 1;

const ids = (lines: readonly { lineId: number }[]) => lines.map((line) => line.lineId);
/** The reconciliation sweep's cutoff now: every line here changed since (their retention: projection-retention.test.ts). */
const sweepCutoff = () => retentionCutoff(env, Date.now());

/** The items by their key, in their order. */
function groupedBy<Item, Key>(items: readonly Item[], keyOf: (item: Item) => Key): Map<Key, Item[]> {
  const groups = new Map<Key, Item[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
const listOrder = (a: VendorOrderLine, b: VendorOrderLine) =>
  a.orderDate === b.orderDate ? a.lineId - b.lineId : a.orderDate < b.orderDate ? -1 : 1;

/** A deterministic sequence of numbers in [0, 1): the same lines on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Published {
  tenantId: number;
  revision: number;
  line: VendorOrderLine | null;
}

/**
 * What a vendor's projection should hold of lines published to it through the medparts-vendor-lines queue, as the
 * stores' alarms send them: the newest revision of each line (a deleted one as a tombstone), by tenant.
 */
class PublishedLines {
  readonly lines = new Map<number, Published>();
  private revision = 0;

  constructor(readonly vendorId: number) {}

  /** Sends the tenant's changes through the queue, each at the next revision unless given one; keeps the newest. */
  async publish(tenantId: number, lines: readonly (VendorOrderLine | { deleted: number })[], revision?: number): Promise<void> {
    const changes: LineChange[] = lines.map((line) => {
      const lineId = "deleted" in line ? line.deleted : line.lineId;
      return { lineId, revision: revision ?? ++this.revision, changedAt: Date.now(), line: "deleted" in line ? null : line };
    });
    await env.VENDOR_LINE_CHANGES.send({ tenantId, vendorId: this.vendorId, changes });
    for (const { lineId, revision: newer, line } of changes) {
      const held = this.lines.get(lineId);
      if (!held || held.revision <= newer) this.lines.set(lineId, { tenantId, revision: newer, line });
    }
  }

  /** The tenant's shard drops its lines but those kept (the sweep's `retain`). */
  async retain(tenantId: number, keptIds: readonly number[]): Promise<void> {
    await vendorProjection(env, this.vendorId, tenantId).retain(tenantId, keptIds);
    for (const [lineId, held] of this.lines) {
      if (held.tenantId === tenantId && !keptIds.includes(lineId)) this.lines.delete(lineId);
    }
  }

  /** What the shard of `tenantId` should hold of it, as the sweep counts it. */
  heldOf(tenantId: number): HeldLines {
    const own = [...this.lines].filter(([, held]) => held.tenantId === tenantId);
    return {
      lines: own.length,
      ids: own.reduce((sum, [lineId]) => sum + (lineId % ID_CHECKSUM_MODULUS), 0),
      revisions: own.reduce((sum, [, held]) => sum + held.revision, 0),
    };
  }

  /** Waits for every message sent to be applied: each tenant's shard holds what was published of it. */
  async caughtUp(): Promise<void> {
    const tenants = [...new Set([...this.lines.values()].map((held) => held.tenantId))];
    const held = () => Promise.all(tenants.map((tenantId) => vendorProjection(env, this.vendorId, tenantId).held(tenantId, sweepCutoff())));
    const expected = tenants.map((tenantId) => this.heldOf(tenantId));
    expect(await eventually(held, (now) => JSON.stringify(now) === JSON.stringify(expected), 10_000)).toEqual(expected);
  }

  /** The list as the vendor should read it: the live lines of the filter, oldest order first, then line id. */
  expected(filter: VendorLineFilter): VendorOrderLine[] {
    return [...this.lines.values()]
      .flatMap((held) => (held.line ? [held.line] : []))
      .filter((line) =>
        filter.attention === "returns"
          ? line.returnsToReceive > 0
          : filter.attention === "invoices"
            ? line.invoicesInException > 0
            : filter.statuses.includes(line.statusName) && (filter.orderNumber ?? line.orderNumber) === line.orderNumber,
      )
      .sort(listOrder);
  }

  live(): VendorOrderLine[] {
    return this.expected({ statuses: LINE_STATUSES });
  }
}

/** 240 lines of 2 tenants per shard, orders of the same few days in every shard so that the shards interleave. */
function madeUpOrders(): { tenantId: number; lines: VendorOrderLine[] }[] {
  const random = seeded(66);
  let lineId = 7_000_000;
  return Array.from({ length: 120 }, (_, index) => {
    const tenantId = TENANTS[index % TENANTS.length]!;
    const order = {
      orderNumber: `SH-${tenantId}-${index}`,
      orderDate: `2026-03-0${1 + Math.floor(random() * 5)}T10:00:00.000Z`,
    };
    // Line ids grow with the orders, whose days do not: the list's order is not the ids'.
    const lines = Array.from({ length: 1 + (index % 3) }, () => {
      lineId += 1 + Math.floor(random() * 40);
      return madeUpLine(lineId, order, LINE_STATUSES[Math.floor(random() * LINE_STATUSES.length)]!);
    });
    return { tenantId, lines };
  });
}

/** The shard's counts per status, beside its live lines counted one by one. */
const countsOf = (shard: DurableObjectStub<VendorLines>) =>
  runInDurableObject(shard, (_, state) => ({
    kept: state.storage.sql.exec("SELECT status_name, lines FROM vendor_line_counts WHERE lines <> 0 ORDER BY status_name").toArray(),
    counted: state.storage.sql
      .exec("SELECT status_name, count(*) AS lines FROM vendor_lines WHERE deleted = 0 GROUP BY status_name ORDER BY status_name")
      .toArray(),
    attentionKept: state.storage.sql.exec("SELECT attention, lines FROM vendor_attention_counts ORDER BY attention").toArray(),
    attentionCounted: state.storage.sql
      .exec(
        "SELECT 'invoices' AS attention, count(*) FILTER (WHERE invoices_in_exception > 0) AS lines FROM vendor_lines WHERE deleted = 0 " +
          "UNION ALL SELECT 'returns', count(*) FILTER (WHERE returns_to_receive > 0) FROM vendor_lines WHERE deleted = 0",
      )
      .toArray(),
  }));

/** Pages of the list to compare: the first, small ones, a deep one (past the whole-lines window) and past the end. */
const pagesOf = (total: number) =>
  [0, 1, 13, 150, total - 1, total, total + 5].flatMap((offset) => [1, 7, 100].map((limit) => ({ offset, limit })));

async function expectList(published: PublishedLines, filter: VendorLineFilter): Promise<void> {
  const expected = published.expected(filter);
  for (const page of pagesOf(expected.length)) {
    const lines = expected.slice(page.offset, page.offset + page.limit);
    // The default window (whole lines at once up to 200, keys first beyond), and keys first for every page.
    for (const wholeLinesWindow of [undefined, 0]) {
      const listed = await listLinesOfVendor(env, published.vendorId, filter, page, wholeLinesWindow);
      expect(listed.lines, JSON.stringify({ filter, page, wholeLinesWindow })).toEqual(lines);
      expect(listed.pagination).toEqual(paginationOf(page, expected.length, lines.length));
    }
  }
}

describe("a vendor's projection split by tenant", () => {
  const published = new PublishedLines(MADE_UP_VENDOR);
  beforeAll(async () => {
    for (const { tenantId, lines } of madeUpOrders()) await published.publish(tenantId, lines);
    await published.caughtUp();
  });
  afterAll(async () => {
    for (const vendorId of [MADE_UP_VENDOR, VENDOR_BEFORE_COUNTS]) {
      for (const shard of vendorProjectionShards(env, vendorId)) await emptyProjection(shard);
    }
  });

  it("holds each tenant's lines in shard tenantId mod the shard count, and only there", async () => {
    expect(SHARDS).toBeGreaterThan(1);
    for (const tenantId of TENANTS) {
      for (let shard = 0; shard < SHARDS; shard++) {
        const held = await vendorProjectionShard(env, MADE_UP_VENDOR, shard).held(tenantId, sweepCutoff());
        expect(held).toEqual(shard === shardOfTenant(env, tenantId) ? published.heldOf(tenantId) : { lines: 0, ids: 0, revisions: 0 });
      }
    }
    const shardsOfPage = new Set(
      published
        .live()
        .slice(0, GET_MAX_LIMIT)
        .map((line) => shardOfTenant(env, published.lines.get(line.lineId)!.tenantId)),
    );
    // The list's first full page already takes lines of every shard: a merge, not one shard after another.
    expect(shardsOfPage.size).toBe(SHARDS);
  });

  it("lists every shard's lines merged in the list's order, with the total, at every offset and limit", async () => {
    expect(published.live().length).toBeGreaterThan(200);
    await expectList(published, { statuses: LINE_STATUSES });
    await expectList(published, { statuses: OPEN_LINE_STATUSES });
  });

  it("filters by status and by order number", async () => {
    await expectList(published, { statuses: ["Shipped"] });
    await expectList(published, { statuses: ["Delivered", "Rejected"] });
    const shardOfLine = (line: VendorOrderLine) => shardOfTenant(env, published.lines.get(line.lineId)!.tenantId);
    const first = published.live()[0]!;
    const lastOfAnotherShard = published.live().findLast((line) => shardOfLine(line) !== shardOfLine(first))!;
    for (const { orderNumber, statusName } of [first, lastOfAnotherShard]) {
      expect(published.expected({ statuses: LINE_STATUSES, orderNumber }).length).toBeGreaterThan(0);
      await expectList(published, { statuses: LINE_STATUSES, orderNumber });
      await expectList(published, { statuses: [statusName], orderNumber });
      await expectList(published, { statuses: LINE_STATUSES.filter((status) => status !== statusName), orderNumber });
    }
    await expectList(published, { statuses: LINE_STATUSES, orderNumber: "SH-0-0" });
  });

  it("keeps its counts exact through moves, late messages, deletions and the sweep's retain", async () => {
    const random = seeded(67);
    const pick = () => published.live().filter(() => random() < 0.15);
    const tenantOf = (line: VendorOrderLine) => published.lines.get(line.lineId)!.tenantId;
    const byTenant = (lines: VendorOrderLine[]) => groupedBy(lines, tenantOf);
    const moved = (line: VendorOrderLine): VendorOrderLine => ({
      ...line,
      statusName: LINE_STATUSES[(LINE_STATUSES.indexOf(line.statusName) + 1) % LINE_STATUSES.length]!,
    });
    // Moves (a status changes, or only the line), then late messages of older revisions, which change nothing.
    for (const [tenantId, lines] of byTenant(pick())) await published.publish(tenantId, lines.map(moved));
    // What else waits for the vendor comes and goes: a return to receive, an invoice in exception, both, neither.
    for (let round = 0; round < 2; round++) {
      for (const [tenantId, lines] of byTenant(pick())) {
        await published.publish(
          tenantId,
          lines.map((line) => ({ ...line, returnsToReceive: random() < 0.6 ? 1 : 0, invoicesInException: random() < 0.5 ? 2 : 0 })),
        );
      }
    }
    for (const [tenantId, lines] of byTenant(pick()))
      await published.publish(
        tenantId,
        lines.map((line) => ({ ...line, quantity: 2 })),
      );
    // Revision 0 is older than any a store gives.
    for (const [tenantId, lines] of byTenant(pick())) {
      await env.VENDOR_LINE_CHANGES.send({
        tenantId,
        vendorId: MADE_UP_VENDOR,
        changes: lines.map((line) => ({ lineId: line.lineId, revision: 0, changedAt: 0, line: moved(line) })),
      });
    }
    // Deletions: tombstones, and a line deleted twice.
    for (const [tenantId, lines] of byTenant(pick())) {
      await published.publish(
        tenantId,
        [...lines, lines[0]!].map((line) => ({ deleted: line.lineId })),
      );
    }
    await published.caughtUp();
    // The late messages' revisions are older than what each shard holds: had one applied, a line would have changed.
    await expectList(published, { statuses: LINE_STATUSES });
    // The sweep's retain: a tenant's shard forgets lines the store no longer has, live ones and tombstones.
    const tenantId = TENANTS[2]!;
    const own = [...published.lines].filter(([, held]) => held.tenantId === tenantId).map(([lineId]) => lineId);
    const tombstone = own.find((lineId) => published.lines.get(lineId)!.line === null);
    expect(tombstone).toBeDefined();
    const forgotten = [tombstone, ...own.slice(0, 5)];
    await published.retain(
      tenantId,
      own.filter((lineId) => !forgotten.includes(lineId)),
    );
    await published.caughtUp();
    for (const shard of vendorProjectionShards(env, MADE_UP_VENDOR)) {
      const { kept, counted, attentionKept, attentionCounted } = await countsOf(shard);
      expect(kept).toEqual(counted);
      expect(attentionKept).toEqual(attentionCounted);
    }
    expect(published.expected({ statuses: [], attention: "returns" }).length).toBeGreaterThan(0);
    expect(published.expected({ statuses: [], attention: "invoices" }).length).toBeGreaterThan(0);
    for (const attention of ["returns", "invoices"] as const) await expectList(published, { statuses: [], attention });
    for (const status of LINE_STATUSES) await expectList(published, { statuses: [status] });
    await expectList(published, { statuses: OPEN_LINE_STATUSES });
  });

  it("filters with a q query in every shard, merged and counted as one list", async () => {
    const live = published.live();
    const open = live.filter((line) => OPEN_LINE_STATUSES.includes(line.statusName));
    const cases: [string, (line: VendorOrderLine) => boolean][] = [
      ["quantity:2", (line) => line.quantity === 2],
      ['partNumber~"PN-70001"', (line) => line.partNumber.toLowerCase().includes("pn-70001")],
      ["shipToState:il", (line) => line.shipTo.state.toUpperCase() === "IL"],
      ["-quantity:1", (line) => line.quantity !== 1],
      ['quantity>1 AND orderDate>="2026-03-03"', (line) => line.quantity > 1 && line.orderDate >= "2026-03-03"],
    ];
    for (const [q, matches] of cases) {
      const where = lineCondition(q)!;
      const expected = open.filter(matches);
      expect(expected.length, q).toBeGreaterThan(0);
      for (const page of [
        { offset: 0, limit: 7 },
        { offset: 5, limit: 100 },
        { offset: 0, limit: 1 },
      ]) {
        for (const wholeLinesWindow of [undefined, 0]) {
          const listed = await listLinesOfVendor(env, published.vendorId, { statuses: OPEN_LINE_STATUSES, where }, page, wholeLinesWindow);
          expect(listed.lines, q).toEqual(expected.slice(page.offset, page.offset + page.limit));
          expect(listed.pagination.total, q).toBe(expected.length);
        }
      }
    }
  });

  it("reads a page and its total through their indexes, never every line", async () => {
    const plan = (statement: [string, ...SqlStorageValue[]]) =>
      runInDurableObject(vendorProjectionShard(env, MADE_UP_VENDOR, 0), (_, state) =>
        state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement[0]}`, ...statement.slice(1))
          .toArray()
          .map((row) => row.detail)
          .join("\n"),
      );
    const listed = pageStatements({ statuses: OPEN_LINE_STATUSES, limit: 50, offset: 0 });
    expect(await plan(listed.lines)).toMatch(/vendor_lines USING (COVERING )?INDEX vendor_lines_listed/);
    const total = await plan(listed.total);
    expect(total).toMatch(/vendor_line_counts/);
    expect(total).not.toMatch(/\bvendor_lines\b/);
    for (const attention of ["returns", "invoices"] as const) {
      const attentionPage = pageStatements({ statuses: [], attention, limit: 50, offset: 0 });
      expect(await plan(attentionPage.lines)).toMatch(new RegExp(`vendor_lines USING (COVERING )?INDEX vendor_lines_${attention}`));
      const attentionTotal = await plan(attentionPage.total);
      expect(attentionTotal).toMatch(/vendor_attention_counts/);
      expect(attentionTotal).not.toMatch(/\bvendor_lines\b/);
    }
    const ofOrder = pageStatements({ statuses: OPEN_LINE_STATUSES, orderNumber: "SH-1-0", limit: 50, offset: 0 });
    for (const statement of [ofOrder.lines, ofOrder.total]) {
      expect(await plan(statement)).toMatch(/SEARCH vendor_lines USING INDEX vendor_lines_order \(order_number=\?\)/);
    }
  });

  it("counts once, when it starts, the lines of a projection made before its counts", async () => {
    const shard = vendorProjectionShard(env, VENDOR_BEFORE_COUNTS, 0);
    const lines = published.live().slice(0, 40);
    const counts = await runInDurableObject(shard, async (projection: VendorLines, state) => {
      const sql = state.storage.sql;
      // As the projection was before its counts: without their table, triggers and migration (nor the later ones).
      for (const trigger of ["vendor_line_counted", "vendor_line_uncounted", "vendor_line_recounted"]) sql.exec(`DROP TRIGGER ${trigger}`);
      sql.exec("DROP TABLE vendor_line_counts");
      sql.exec("DROP INDEX vendor_lines_closed");
      sql.exec("DELETE FROM __drizzle_migrations WHERE created_at > 1");
      await projection.apply(
        TENANT_A,
        lines.map((line, index) => ({ lineId: line.lineId, revision: index + 1, changedAt: Date.now(), line })),
      );
      await projection.apply(TENANT_A, [{ lineId: lines[0]!.lineId, revision: 100, changedAt: Date.now(), line: null }]);
      // Nor its attention columns (migration 0003), which apply wrote above as it does today.
      for (const attention of ["returns", "invoices"]) {
        for (const suffix of ["counted", "uncounted", "recounted"]) sql.exec(`DROP TRIGGER vendor_${attention}_${suffix}`);
        sql.exec(`DROP INDEX vendor_lines_${attention}`);
      }
      sql.exec("DROP TABLE vendor_attention_counts");
      // Nor its searched columns (migration 0004), generated from the line: dropped first, as they were made last.
      for (const column of ["part_number", "description", "po_number", "quantity", "ship_to_city", "ship_to_state"]) {
        sql.exec(`ALTER TABLE vendor_lines DROP COLUMN ${column}`);
      }
      sql.exec("ALTER TABLE vendor_lines DROP COLUMN returns_to_receive");
      sql.exec("ALTER TABLE vendor_lines DROP COLUMN invoices_in_exception");
      await migrateVendorLines(state.storage);
      // Once: starting again changes nothing.
      await migrateVendorLines(state.storage);
      return sql.exec("SELECT status_name, lines FROM vendor_line_counts WHERE lines <> 0 ORDER BY status_name").toArray();
    });
    const live = lines.slice(1);
    const expected = [...groupedBy(live, (line) => line.statusName)]
      .map(([status_name, ofStatus]) => ({ status_name, lines: ofStatus.length }))
      .sort((a, b) => a.status_name.localeCompare(b.status_name));
    expect(counts).toEqual(expected);
    const page = await shard.query({ statuses: LINE_STATUSES, limit: 10, offset: 0 });
    expect(page.total).toBe(live.length);
    // And from then on kept by every write.
    await shard.apply(TENANT_A, [{ lineId: live[0]!.lineId, revision: 200, changedAt: Date.now(), line: null }]);
    expect((await shard.query({ statuses: LINE_STATUSES, limit: 10, offset: 0 })).total).toBe(live.length - 1);
    const { kept, counted } = await countsOf(shard);
    expect(kept).toEqual(counted);
  });
});

describe("the demo tenants' lines, published by their stores to their shards", () => {
  let vendorId: number;
  let expected: VendorOrderLine[];
  let tenantsWithLines: number[];
  const tenants = [TENANT_A, TENANT_B, TENANT_C];
  const linesOf = async (tenantId: number) => {
    const rows = await storeRows(
      tenantId,
      "SELECT l.id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.vendor_id = ? AND o.tenant_id > 0",
      vendorId,
    );
    return [
      ...(await linesById(database(tenantStoreDatabase(env, tenantId)), ids(rows.map((row) => ({ lineId: row.id as number }))))).values(),
    ];
  };
  let startedAt: number;
  beforeAll(async () => {
    startedAt = Date.now();
    // The vendor with lines in the most demo tenants.
    const vendorsOf = await Promise.all(
      tenants.map((tenantId) => storeRows(tenantId, "SELECT DISTINCT vendor_id AS vendorId FROM order_lines WHERE vendor_id IS NOT NULL")),
    );
    const tenantsOfVendor = groupedBy(
      vendorsOf.flatMap((rows, index) => rows.map((row) => ({ vendorId: row.vendorId as number, tenantId: tenants[index]! }))),
      (row) => row.vendorId,
    );
    const [mostShared, rows] = [...tenantsOfVendor].sort((a, b) => b[1].length - a[1].length)[0]!;
    vendorId = mostShared;
    tenantsWithLines = rows.map((row) => row.tenantId);
    expect(tenantsWithLines.length).toBeGreaterThan(1);
    expected = (await Promise.all(tenants.map(linesOf))).flat().sort(listOrder);
  });

  it("lists through the API every tenant's lines from its shard, in the list's order", async () => {
    expect(new Set(tenants.map((tenantId) => shardOfTenant(env, tenantId))).size).toBe(tenants.length);
    // Another file running at the same time (they share the demo tenants' stores) may place an order of this vendor
    // meanwhile: its lines, ordered after this file's start, are listed too, and only those.
    const known = new Set(expected.map((line) => line.lineId));
    const listed = await eventually(
      () => listAllVendorLines(vendorId, { limit: 7 }),
      (lines) => lines.filter((line) => known.has(line.lineId)).length === expected.length,
      10_000,
    );
    expect(listed.filter((line) => known.has(line.lineId))).toEqual(expected);
    for (const line of listed.filter((l) => !known.has(l.lineId))) expect(Date.parse(line.orderDate)).toBeGreaterThan(startedAt);
    for (const tenantId of tenants) {
      const own = (await linesOf(tenantId)).length;
      for (let shard = 0; shard < SHARDS; shard++) {
        const held = await vendorProjectionShard(env, vendorId, shard).held(tenantId, sweepCutoff());
        expect(held.lines).toBe(shard === shardOfTenant(env, tenantId) ? own : 0);
      }
    }
  });

  it("the sweep compares each tenant with its own shard and repairs only that one", async () => {
    const [tenantId, ...others] = tenantsWithLines as [number, ...number[]];
    const lost = (await linesOf(tenantId))[0]!;
    await runInDurableObject(vendorProjection(env, vendorId, tenantId), (_, state) => {
      state.storage.sql.exec("DELETE FROM vendor_lines WHERE line_id = ?", lost.lineId);
    });
    expect(ids(await listAllVendorLines(vendorId))).not.toContain(lost.lineId);
    // Published changes get a minute to arrive before the sweep counts them lost.
    for (const tenant of tenants) await storeRows(tenant, "UPDATE vendor_line_changes SET published_at = published_at - 120000");
    const report = await reconcileVendorProjections(env);
    expect(report.republished).toContainEqual({ tenantId, vendorId });
    for (const other of others) expect(report.republished).not.toContainEqual({ tenantId: other, vendorId });
    const healed = await eventually(
      () => listAllVendorLines(vendorId),
      (lines) => lines.length === expected.length,
      10_000,
    );
    expect(healed).toEqual(expected);
  });
});
