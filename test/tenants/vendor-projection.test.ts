import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { LINE_STATUSES } from "../../src/api/orders/lifecycle";
import { OPEN_LINE_STATUSES, type VendorOrderLine } from "../../src/api/vendors/lines";
import type { VendorLines } from "../../src/api/vendors/projection/projection";
import { reconcileVendorProjections } from "../../src/api/vendors/projection/reconcile";
import { vendorProjection } from "../../src/api/vendors/projection/stub";
import { json, TENANT_A, TENANT_B } from "../helpers/api";
import { freshOrder, KJOHNSON, type Quote, withoutFields } from "../helpers/orders";
import { eventually } from "../helpers/platform";
import { testOrder } from "../helpers/sandbox";
import { storeRows } from "../helpers/stores";
import { BODIES, move, projectionFollows, vendorCall, vendorOf } from "../helpers/vendors";

/**
 * Vendors' lists of lines (docs/tenant-stores.md, "Vendors' lines"): a tenant's lines come from the vendor's projection,
 * fed by its store's outbox through the medparts-vendor-lines queue; the reconciliation sweep makes a projection that
 * lost messages converge.
 */

const ALL = LINE_STATUSES.join(",");

async function listAll(vendorId: number, limit = 100): Promise<VendorOrderLine[]> {
  const lines: VendorOrderLine[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await vendorCall(vendorId, `/order-lines?status=${ALL}&limit=${limit}&offset=${offset}`);
    expect(res.status).toBe(200);
    const { data } = await json(res);
    lines.push(...data.lines);
    if (!data.pagination.hasMore) return lines;
  }
}

const ids = (lines: { lineId: number }[]) => lines.map((line) => line.lineId);

/** A line of tenant A's (and the vendor that fulfils it), and one of the same vendor in tenant B. */
let vendorId: number;
let vendorName: string | null;
const ofVendor = (quote: Quote) => withoutFields(quote) && quote.vendorName === vendorName;
let aLines: number[];
beforeAll(async () => {
  aLines = (await freshOrder(2)).lineIds;
  vendorId = await vendorOf(aLines[0]!);
  vendorName = await env.DB.prepare("SELECT name FROM vendors WHERE id = ?1").bind(vendorId).first<string>("name");
  await freshOrder(1, { who: KJOHNSON, pick: ofVendor });
});

describe("a vendor's list of lines across tenants' stores", () => {
  it("a new order of the tenant, and a vendor's move of its line, show in the vendor's list", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { pick: ofVendor });
    const lineId = lineIds[0]!;
    const [{ vendor_id: lineVendor }] = (await storeRows(TENANT_A, "SELECT vendor_id FROM order_lines WHERE id = ?", lineId)) as [
      { vendor_id: number },
    ];
    expect(lineVendor).toBe(vendorId);
    const listed = await eventually(
      () => vendorCall(vendorId, `/order-lines?orderNumber=${orderNumber}`).then(json),
      (body) => body.data.lines.length > 0,
      10_000,
    );
    expect(listed.data.lines[0]).toMatchObject({ lineId, orderNumber, statusName: "Ordered" });
    const moved = await move(lineId, "acknowledge", BODIES.acknowledge(), vendorId);
    expect(moved.status).toBe(200);
    const { data } = await json(moved);
    const after = await eventually(
      () => vendorCall(vendorId, `/order-lines?status=${ALL}&orderNumber=${orderNumber}`).then(json),
      (body) => body.data.lines[0]?.statusName === "Acknowledged",
      10_000,
    );
    expect(after.data.lines[0]).toEqual(data.line);
    const open = await json(await vendorCall(vendorId, `/order-lines?status=${OPEN_LINE_STATUSES.join(",")}`));
    expect(ids(open.data.lines)).toContain(lineId);
    // Another vendor's list never holds it.
    const other = await json(await vendorCall(vendorId + 1, `/order-lines?status=${ALL}&orderNumber=${orderNumber}`));
    expect(other.data.lines).toEqual([]);
    expect((await vendorProjection(env, vendorId, TENANT_A).lag()).samples).toBeGreaterThan(0);
  });

  it("test-mode orders of the tenant's sandbox twin never reach a vendor", async () => {
    const { orderNumber } = await testOrder(TENANT_A);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const twinChanges = await storeRows(-TENANT_A, "SELECT count(*) AS n FROM vendor_line_changes");
    expect(twinChanges).toEqual([{ n: 0 }]);
    const listed = await json(await vendorCall(vendorId, `/order-lines?status=${ALL}&orderNumber=${orderNumber}`));
    expect(listed.data.lines).toEqual([]);
  });

  it("the reconciliation sweep makes a projection that lost lines or changes converge", async () => {
    await projectionFollows(vendorId, TENANT_A);
    await projectionFollows(vendorId, TENANT_B);
    const whole = await listAll(vendorId);
    const projection = vendorProjection(env, vendorId, TENANT_A);
    // Lost messages: one line gone from the projection, another left at an older revision with older content.
    const [gone, stale] = (await storeRows(TENANT_A, "SELECT id FROM order_lines WHERE vendor_id = ? ORDER BY id LIMIT 2", vendorId)).map(
      (row) => row.id as number,
    );
    await runInDurableObject(projection, async (_instance: VendorLines, state) => {
      state.storage.sql.exec("DELETE FROM vendor_lines WHERE line_id = ?", gone!);
      // And one the store never had (as after the store went back to a backup).
      state.storage.sql.exec(
        "INSERT INTO vendor_lines (line_id, tenant_id, revision, changed_at, applied_at, order_date, order_number, status_name, line) " +
          "SELECT 999999, tenant_id, revision, changed_at, applied_at, order_date, order_number, status_name, json_set(line, '$.lineId', 999999) FROM vendor_lines WHERE line_id = ?",
        stale!,
      );
      state.storage.sql.exec(
        "UPDATE vendor_lines SET revision = revision - 1, status_name = 'Rejected', line = json_set(line, '$.statusName', 'Rejected') WHERE line_id = ?",
        stale!,
      );
    });
    expect(ids(await listAll(vendorId))).not.toEqual(ids(whole));
    // Published changes get a minute to arrive before the sweep counts them lost: that minute has passed.
    const fresh = await reconcileVendorProjections(env);
    expect(fresh.republished).not.toContainEqual({ tenantId: TENANT_A, vendorId });
    await storeRows(TENANT_A, "UPDATE vendor_line_changes SET published_at = published_at - 120000");
    const report = await reconcileVendorProjections(env);
    expect(report.republished).toContainEqual({ tenantId: TENANT_A, vendorId });
    const healed = await eventually(
      () => listAll(vendorId),
      (lines) => JSON.stringify(lines) === JSON.stringify(whole),
      10_000,
    );
    expect(healed).toEqual(whole);
    // Converged: a sweep past the minute compares the vendor again and finds nothing to send.
    await storeRows(TENANT_A, "UPDATE vendor_line_changes SET published_at = published_at - 120000");
    const quiet = await reconcileVendorProjections(env);
    expect(quiet.compared).toBeGreaterThanOrEqual(1);
    expect(quiet.republished).not.toContainEqual({ tenantId: TENANT_A, vendorId });
  });
});
