import { database } from "../../db/client";
import type { Bindings, ConfigVars } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { linesById } from "../vendors/lines";
import { handToEdi } from "../vendors/projection/consume";
import { sandboxLines } from "./simulator";

/**
 * A test order's lines handed to its vendors' X12 test partners (docs/edi.md, "The sandbox's simulated supplier"):
 * a sandbox twin's store does not publish its lines to the vendors' projections (the vendor API serves live orders
 * only), so the sandbox hands them on itself, through the same handoff as live lines, when its schedule or a scenario
 * moves the order. There the vendor's test partner gets the 850 (and, with a simulated supplier, its answers). Best
 * effort: a failed handoff is logged, and the order's next step hands its lines on again.
 */
export async function handSandboxOrderToEdi(
  env: Pick<Bindings, "DB" | "ADMIN"> & ConfigVars,
  storeDb: D1Database,
  dataTenantId: number,
  orderNumber: string,
): Promise<void> {
  try {
    const order = await sandboxLines(storeDb, dataTenantId, orderNumber);
    if (!order) return;
    const lines = await linesById(
      database(storeDb),
      order.lines.map((line) => line.id),
    );
    const vendors = new Map<number, number[]>();
    for (const line of order.lines) vendors.set(line.vendor_id, [...(vendors.get(line.vendor_id) ?? []), line.id]);
    const changedAt = Date.now();
    for (const [vendorId, lineIds] of vendors) {
      await handToEdi(env, {
        tenantId: dataTenantId,
        vendorId,
        changes: lineIds.map((lineId) => ({ lineId, revision: 0, changedAt, line: lines.get(lineId) ?? null })),
      });
    }
  } catch (error) {
    logEvent("warn", { event: "sandbox.edi_handoff", orderNumber, message: errorMessage(error) });
  }
}
