import { describe, expect, it } from "vitest";
import { DEMO_CASE_QUANTITY, generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { GS } from "../../src/shared/udi/gs1";
import { hibccCheckCharacter } from "../../src/shared/udi/hibcc";
import { json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { eventsOf, freshOrder } from "../helpers/orders";
import { storeRowsById } from "../helpers/stores";
import { BODIES, move } from "../helpers/vendors";

/** A fresh order of one line, acknowledged by its vendor (ready to ship). */
async function acknowledgedOrder(quantity = 1) {
  const order = await freshOrder(1, { quantity });
  expect((await move(order.lineIds[0]!, "acknowledge", BODIES.acknowledge())).status).toBe(200);
  return order;
}

/** The order line's product, and the demo GTINs of it (src/dev/seed/catalog.ts). */
async function lineProduct(lineId: number) {
  const product_id = (await storeRowsById(lineId, "SELECT product_id FROM order_lines WHERE id = ?", lineId))[0]!.product_id as string;
  return { productId: product_id, index: Number(product_id.slice(3)) - 1 };
}
const unitCode = (index: number, lot: string, serial: string) =>
  `]d201${generateDeviceIdentifiers(index)[0]!.deviceId}17301231` + `10${lot}${GS}21${serial}`;

const searchOrders = async (q: string, tenantId = TENANT_A) =>
  (await json(await contractCall(await tokenFor(tenantId), `/orders/search?q=${encodeURIComponent(q)}`))).data.orders as {
    orderNumber: string;
  }[];

describe("traceability: the UDIs of shipped units flow into order.shipped and order search", () => {
  it("a ship with the units' codes records their lots and serials; a recall finds the order by lot or serial, in its tenant only", async () => {
    const { orderNumber, lineIds } = await acknowledgedOrder(3);
    const { index } = await lineProduct(lineIds[0]!);
    const res = await move(lineIds[0]!, "ship", {
      trackingNumber: "1ZTRACE0001",
      quantity: 2,
      units: [unitCode(index, "RCL-LOT-1", "SN-A1"), unitCode(index, "RCL-LOT-1", "SN-A2")],
    });
    expect(res.status).toBe(200);
    const shipped = (await eventsOf(orderNumber)).find((e) => e.type === "order.shipped")!;
    expect(JSON.parse(shipped.payload).units).toEqual([
      {
        agency: "GS1",
        deviceId: generateDeviceIdentifiers(index)[0]!.deviceId,
        lot: "RCL-LOT-1",
        serial: "SN-A1",
        expiry: "2030-12-31",
        units: 1,
      },
      {
        agency: "GS1",
        deviceId: generateDeviceIdentifiers(index)[0]!.deviceId,
        lot: "RCL-LOT-1",
        serial: "SN-A2",
        expiry: "2030-12-31",
        units: 1,
      },
    ]);
    expect((await searchOrders('lotNumber:"RCL-LOT-1"')).map((o) => o.orderNumber)).toEqual([orderNumber]);
    expect((await searchOrders('serialNumber:"SN-A2"')).map((o) => o.orderNumber)).toEqual([orderNumber]);
    expect(await searchOrders('lotNumber:"NO-SUCH-LOT"')).toEqual([]);
    // Another tenant's recall search never sees tenant A's order.
    expect(await searchOrders('lotNumber:"RCL-LOT-1"', TENANT_B)).toEqual([]);
  });

  it("a case's code counts its quantity; codes naming more units than the parcel holds are a 400 and nothing ships", async () => {
    const { lineIds } = await acknowledgedOrder(2);
    const { index } = await lineProduct(lineIds[0]!);
    const identifiers = generateDeviceIdentifiers(index);
    const caseIdentifier = identifiers[1];
    const codes = caseIdentifier
      ? [`(01)${caseIdentifier.deviceId}(10)CASE-LOT`]
      : [unitCode(index, "L1", "S1"), unitCode(index, "L1", "S2"), unitCode(index, "L1", "S3")];
    const named = caseIdentifier ? DEMO_CASE_QUANTITY : 3;
    const res = await move(lineIds[0]!, "ship", { trackingNumber: "1ZTRACE0002", units: codes });
    expect(res.status).toBe(400);
    expect((await json(res)).errors.units[0]).toContain(`${named} units`);
    expect(await storeRowsById(lineIds[0]!, "SELECT shipped_quantity AS n FROM order_lines WHERE id = ?", lineIds[0]!)).toEqual([{ n: 0 }]);
  });

  it("an unreadable code, an HIBCC secondary alone or a code of another product is a 400 naming units[i]", async () => {
    const { lineIds } = await acknowledgedOrder(3);
    const { index, productId } = await lineProduct(lineIds[0]!);
    const secondary = `+$$7LOT1A${hibccCheckCharacter("+$$7LOT1A")}`;
    const unreadable = await move(lineIds[0]!, "ship", {
      trackingNumber: "1ZTRACE0003",
      units: [unitCode(index, "OK", "OK1"), "(01)00000000000018", secondary],
    });
    expect(unreadable.status).toBe(400);
    const { errors } = await json(unreadable);
    expect(Object.keys(errors).sort()).toEqual(["units[1]", "units[2]"]);
    expect(errors["units[1]"][0]).toContain("check digit");
    const other = generateDeviceIdentifiers(index + 1)[0]!.deviceId;
    const foreign = await move(lineIds[0]!, "ship", {
      trackingNumber: "1ZTRACE0003",
      units: [unitCode(index, "OK", "OK1"), `(01)${other}`],
    });
    expect(foreign.status).toBe(400);
    expect((await json(foreign)).errors).toEqual({ "units[1]": [expect.stringContaining(`not this line's product ${productId}`)] });
    expect(await storeRowsById(lineIds[0]!, "SELECT count(*) AS n FROM shipped_units WHERE line_id = ?", lineIds[0]!)).toEqual([{ n: 0 }]);
  });

  it("without units a ship is as before: no units in the event", async () => {
    const { orderNumber, lineIds } = await acknowledgedOrder();
    expect((await move(lineIds[0]!, "ship", { trackingNumber: "1ZTRACE0004" })).status).toBe(200);
    const shipped = (await eventsOf(orderNumber)).find((e) => e.type === "order.shipped")!;
    expect(JSON.parse(shipped.payload).units).toBeUndefined();
  });
});
