import type { Bindings } from "../../env";
import { sandboxOwner } from "../../shared/recalls/records";
import { tenantStore } from "../../shared/tenants/stub";
import { type Notice, noticeWrites } from "../recalls/notices";
import { nothingToDo } from "./simulator";

/**
 * The sandbox's recall (docs/recalls.md, "In the sandbox"): a made-up recall of the units a test order received, so an
 * integrator sees `recall.affects_you`, GET /recalls and the return of recalled units before going live. The simulated
 * vendor ships without scanning codes, so each shipped unit of the order without a recorded code gets one first (the
 * product's GTIN and the lot SBX-LOT-1); the recall names the order's device identifiers and lots. It is the sandbox
 * store's own (owner `sandbox:<store>`): no other store, live or test, is offered it. The store matches it at once.
 */

interface ShippedLine {
  id: number;
  order_id: number;
  product_id: string;
  shipped_quantity: number;
  recorded: number;
  parcel: number | null;
}

export const SANDBOX_LOT = "SBX-LOT-1";

export async function simulateRecall(
  env: Pick<Bindings, "DB" | "CATALOG" | "TENANT_STORE">,
  store: D1Database,
  dataTenantId: number,
  orderNumber: string,
): Promise<{ eventIds: string[]; orderStatus: string | null }> {
  const { results: lines } = await store
    .prepare(
      "SELECT l.id, l.order_id, l.product_id, l.shipped_quantity, " +
        "(SELECT coalesce(sum(u.units), 0) FROM shipped_units u WHERE u.line_id = l.id) AS recorded, " +
        "(SELECT max(d.id) FROM shipping_document_lines dl JOIN shipping_documents d ON d.id = dl.shipping_document_id " +
        "WHERE dl.line_id = l.id AND d.vendor_id IS NOT NULL) AS parcel " +
        "FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.tenant_id = ?1 AND o.tenant_id < 0 AND o.order_number = ?2 " +
        "AND l.shipped_quantity > 0 ORDER BY l.id",
    )
    .bind(dataTenantId, orderNumber)
    .all<ShippedLine>();
  if (lines.length === 0) throw nothingToDo("recall", orderNumber);
  const { results: codes } = await env.DB.prepare(
    "SELECT product_id, min(code) AS code FROM product_codes WHERE agency = 'GS1' AND product_id IN (SELECT value FROM json_each(?1)) GROUP BY product_id",
  )
    .bind(JSON.stringify(lines.map((line) => line.product_id)))
    .all<{ product_id: string; code: string }>();
  const gtinOf = new Map(codes.map((row) => [row.product_id, row.code]));
  const unrecorded = lines.filter((line) => line.recorded < line.shipped_quantity && line.parcel !== null);
  if (unrecorded.length > 0) {
    await store.batch(
      unrecorded.map((line) =>
        store
          .prepare(
            "INSERT INTO shipped_units (order_id, line_id, shipping_document_id, agency, device_id, lot, serial, expiry, units) " +
              "VALUES (?1, ?2, ?3, 'GS1', ?4, ?5, NULL, NULL, ?6)",
          )
          .bind(
            line.order_id,
            line.id,
            line.parcel,
            gtinOf.get(line.product_id) ?? `SBX${line.product_id}`,
            SANDBOX_LOT,
            line.shipped_quantity - line.recorded,
          ),
      ),
    );
  }
  const { results: units } = await store
    .prepare("SELECT DISTINCT device_id, lot FROM shipped_units WHERE line_id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(lines.map((line) => line.id)))
    .all<{ device_id: string; lot: string | null }>();
  const notice: Notice = {
    noticeNumber: `SBX-${orderNumber}`,
    classification: "Class II",
    status: "open",
    productDescription: "Sandbox: the products of your test order",
    reason: "Sandbox scenario: a made-up recall of the units your test order received.",
    deviceIds: [...new Set(units.map((unit) => unit.device_id))],
    partNumbers: [],
    lots: [...new Set(units.flatMap((unit) => (unit.lot ? [unit.lot] : [])))],
    serials: [],
    serialRanges: [],
  };
  const now = new Date();
  const by = { owner: sandboxOwner(dataTenantId), vendorId: null, firm: "Sandbox Medical" };
  await env.DB.batch(await noticeWrites(env.DB, env.CATALOG, by, notice, now));
  await tenantStore(env, dataTenantId).matchRecalls();
  const [events, order] = await store.batch([
    store
      .prepare(
        "SELECT e.id FROM outbox_events e WHERE e.type LIKE 'recall.%' AND e.created_at >= ?1 AND e.aggregate_id = " +
          "(SELECT CAST(recall_id AS TEXT) FROM tenant_recalls WHERE source = 'sandbox' AND product_number = ?2) ORDER BY e.created_at",
      )
      .bind(now.toISOString(), notice.noticeNumber),
    store.prepare("SELECT status FROM orders WHERE tenant_id = ?1 AND order_number = ?2").bind(dataTenantId, orderNumber),
  ]);
  return {
    eventIds: (events!.results as { id: string }[]).map((row) => row.id),
    orderStatus: (order!.results[0] as { status: string } | undefined)?.status ?? null,
  };
}
