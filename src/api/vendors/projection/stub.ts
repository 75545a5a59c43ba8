import type { Bindings } from "../../../env";
import type { VendorLines } from "./projection";

/** The projection of vendor `vendorId` (one object per vendor, named `vendor:<id>`). */
export function vendorProjection(env: Pick<Bindings, "VENDOR_LINES">, vendorId: number): DurableObjectStub<VendorLines> {
  return env.VENDOR_LINES.get(env.VENDOR_LINES.idFromName(`vendor:${vendorId}`));
}
