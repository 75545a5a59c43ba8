import { describe, expect, it } from "vitest";
import { json, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { invoiceBody } from "../helpers/invoices";
import { eventuallyFound } from "../helpers/platform";
import { EXCHANGE, optionWith, orderOf, RETURNS_VENDOR, returnsOf, shipLine } from "../helpers/returns";
import { vendorCall } from "../helpers/vendors";

/**
 * What else waits for a vendor on its lines (docs/api.md, "Vendor API"; docs/tenant-stores.md, "Vendors' lines"): a
 * line counts its returns whose next step is the vendor's and its invoices in exception; the store publishes the line
 * again when either changes, and `GET /vendor/api/order-lines?attention=` lists the lines with some, in any status.
 */

/** The vendor's `attention` list, read whole: its lines by id, and its total. */
async function attentionList(attention: "returns" | "invoices") {
  const lines = new Map<number, { returnsToReceive: number; invoicesInException: number; statusName: string }>();
  let total = 0;
  for (let offset = 0; ; offset += 100) {
    const res = await vendorCall(RETURNS_VENDOR, `/order-lines?attention=${attention}&limit=100&offset=${offset}`);
    expect(res.status).toBe(200);
    const { data } = await json(res);
    for (const line of data.lines) lines.set(line.lineId, line);
    total = data.pagination.total;
    if (!data.pagination.hasMore) return { lines, total };
  }
}

const listed = (attention: "returns" | "invoices", lineId: number, expected: boolean) =>
  eventuallyFound(
    async () => {
      const list = await attentionList(attention);
      return list.lines.has(lineId) === expected ? list : null;
    },
    `line ${lineId} ${expected ? "in" : "out of"} the ${attention} list`,
  );

describe("the vendor's lines that wait on a return or an invoice", () => {
  it("a core shipped back puts its line in the returns list; received, the line leaves it", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE), 1);
    await shipLine(lineId);
    const [core] = await returnsOf(`kind:core AND orderNumber:"${orderNumber}"`);
    // Open, the core waits for the buyer: not the vendor's yet.
    expect((await json(await vendorCall(RETURNS_VENDOR, `/order-lines/${lineId}`))).data.returnsToReceive).toBe(0);
    const shipped = await contractCall(await tokenFor(TENANT_A), `/returns/${core.returnId}/ship`, {
      method: "POST",
      json: { carrierName: "UPS", trackingNumber: "1ZATTENTION1" },
    });
    expect(shipped.status).toBe(200);
    const inList = await listed("returns", lineId, true);
    expect(inList.lines.get(lineId)).toMatchObject({ returnsToReceive: 1, statusName: "Shipped" });
    expect(inList.total).toBeGreaterThanOrEqual(inList.lines.size);

    const received = await vendorCall(RETURNS_VENDOR, `/returns/${core.returnId}/receive`, {
      method: "POST",
      json: { outcome: "accepted" },
    });
    expect(received.status).toBe(200);
    await listed("returns", lineId, false);
    expect((await json(await vendorCall(RETURNS_VENDOR, `/order-lines/${lineId}`))).data.returnsToReceive).toBe(0);
  });

  it("an invoice in exception puts the lines it bills in the invoices list; accepted by the buyer, they leave it", async () => {
    const { orderNumber, lineId } = await orderOf(await optionWith(EXCHANGE, 500), 1);
    await shipLine(lineId);
    // Billed above the order's price: a price variance, in exception.
    const sent = await vendorCall(RETURNS_VENDOR, "/invoices", {
      method: "POST",
      json: invoiceBody(orderNumber, [{ lineId, quantity: 1, unitPriceCents: 60_000 }]),
    });
    expect(sent.status).toBe(201);
    const invoice = (await json(sent)).data;
    expect(invoice.status).toBe("exception");
    const inList = await listed("invoices", lineId, true);
    expect(inList.lines.get(lineId)!.invoicesInException).toBe(1);

    const accepted = await contractCall(await tokenFor(TENANT_A), `/invoices/${invoice.invoiceId}/accept`, { method: "POST", json: {} });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    await listed("invoices", lineId, false);
  });

  it("attention is not taken with status, orderNumber or q", async () => {
    const res = await vendorCall(RETURNS_VENDOR, "/order-lines?attention=returns&status=Shipped");
    expect(res.status).toBe(400);
    expect((await json(res)).errors.attention[0]).toContain("Not with status, orderNumber or q");
    expect((await vendorCall(RETURNS_VENDOR, "/order-lines?attention=everything")).status).toBe(400);
    expect((await vendorCall(RETURNS_VENDOR, `/order-lines?attention=returns&q=${encodeURIComponent("quantity:1")}`)).status).toBe(400);
  });
});
