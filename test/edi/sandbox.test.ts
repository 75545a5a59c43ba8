import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listOutbound, readOutbound } from "../../src/operator/edi/outbound/outbox";
import { element } from "../../src/operator/edi/x12/elements";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { call, json, operatorTokenFor, TENANT_A } from "../helpers/api";
import { partnerInput } from "../helpers/edi";
import { eventuallyFound } from "../helpers/platform";
import { testOrder } from "../helpers/sandbox";
import { storeRows } from "../helpers/stores";

/**
 * The sandbox's simulated supplier end to end (docs/edi.md, "The sandbox's simulated supplier"): an integrator's test
 * order for a vendor whose test partner has one goes out as an 850 and, as the sandbox's schedule (one step a second
 * in tests) acknowledges, ships and delivers it, the supplier's 997, 855, 856 and 810 come back, each acknowledged by
 * Medparts' 997 in the partner's mailbox.
 */

const vendorOfTestOrder = async (orderNumber: string) =>
  (
    await storeRows(
      -TENANT_A,
      "SELECT l.vendor_id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_number = ?",
      orderNumber,
    )
  )[0]!.vendor_id as number;

describe("the sandbox's simulated supplier", () => {
  it("answers a test order's 850 on the sandbox's schedule: 997, 855, 856 and 810, each acknowledged by Medparts", async () => {
    const probe = await testOrder(1);
    const vendorId = await vendorOfTestOrder(probe.orderNumber);
    const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
      method: "POST",
      json: { vendorId, ...partnerInput({ usage: "test", simulatedSupplier: true }) },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const partner = (await json(res)).data as { id: number; simulatedSupplier: boolean };
    expect(partner.simulatedSupplier).toBe(true);

    const { orderNumber } = await testOrder(2);
    // Our 850, then our 997 of the supplier's 855, 856 and 810 (its 997 of our 850 is not acknowledged in turn).
    const acknowledged = await eventuallyFound(
      async () => {
        const documents = (await listOutbound(env.IMPORTS, partner.id)).documents;
        const groups: { functionalId: string; status: string; poNumber: string }[] = [];
        for (const document of documents) {
          const interchange = readX12((await readOutbound(env.IMPORTS, partner.id, document.controlNumber))!).interchanges[0]!;
          expect(interchange.usage).toBe("T");
          const set = interchange.groups[0]!.sets[0]!;
          const ak1 = set.segments.find((segment) => segment.id === "AK1");
          const ak9 = set.segments.find((segment) => segment.id === "AK9");
          const beg = set.segments.find((segment) => segment.id === "BEG");
          groups.push({
            functionalId: ak1 ? element(ak1, 1) : interchange.groups[0]!.functionalId,
            status: ak9 ? element(ak9, 1) : "",
            poNumber: beg ? element(beg, 3) : "",
          });
        }
        // Every order sent (the probe's too, when the partner was there before its first step) answered to the end.
        const count = (functionalId: string) => groups.filter((group) => group.functionalId === functionalId).length;
        return count("PO") > 0 && ["PR", "SH", "IN"].every((id) => count(id) === count("PO")) ? groups : null;
      },
      "Medparts' 997s of the simulated supplier's 855, 856 and 810",
      15_000,
    );
    expect(acknowledged.filter((group) => group.functionalId === "PO").map((group) => group.poNumber)).toContain("PO-2024-0001");
    expect(new Set(acknowledged.filter((group) => group.functionalId !== "PO").map((g) => `${g.functionalId}:${g.status}`))).toEqual(
      new Set(["PR:A", "SH:A", "IN:A"]),
    );
    // The supplier's 997 accepted our 850.
    const ours = await env.DB.prepare(
      "SELECT acknowledgment_status AS status FROM edi_interchanges WHERE partner_id = ? AND reference LIKE ?",
    )
      .bind(partner.id, `850:-${TENANT_A}:${orderNumber}:%`)
      .first<{ status: string }>();
    expect(ours?.status).toBe("accepted");
  });
});
