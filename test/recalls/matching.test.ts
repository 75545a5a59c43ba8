import { describe, expect, it } from "vitest";
import { TENANT_A, TENANT_B } from "../helpers/api";
import { importErrors, ndjson, runImport } from "../helpers/imports";
import { KJOHNSON } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { enforcementRecord, RECALL_IMPORTS, recallEvents, recallIdOf, shippedUnits, storeRecalls, unitsChecked } from "./helpers";

const caller = { collection: RECALL_IMPORTS };

describe("recalls: matched in each tenant's store against the units it received", () => {
  it("an import's recall touches the tenant's units of its DI and lot, not another lot, and no other tenant learns of it", async () => {
    const shipped = await shippedUnits([
      { lot: "RMA1", serial: "S-1" },
      { lot: "RMA1", serial: "S-2" },
      { lot: "RMA2", serial: "S-3" },
    ]);
    await unitsChecked(TENANT_A);
    const codeInfo = `UDI-DI ${shipped.gtin}; Lot Numbers: RMA1, RMA9`;
    const job = await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([enforcementRecord("Z-9101-2026", codeInfo)]) }, caller);
    expect(job).toMatchObject({ state: "succeeded", counts: { read: 1, created: 1, rejected: 0 } });
    const recallId = (await recallIdOf("Z-9101-2026"))!;
    expect(await storeRecalls(TENANT_A)).toContainEqual({
      recall_id: recallId,
      product_number: "Z-9101-2026",
      status: "open",
      affected_units: 2,
      review_units: 0,
    });
    const units = await storeRows(
      TENANT_A,
      "SELECT unit_id, outcome, reason FROM recall_units WHERE recall_id = ?1 ORDER BY unit_id",
      recallId,
    );
    expect(units.map((u) => u.outcome)).toEqual(["affected", "affected"]);
    expect(units[0]!.reason).toContain(`device identifier ${shipped.gtin}`);
    const [event] = await recallEvents(TENANT_A, recallId);
    expect(event!.type).toBe("recall.affects_you");
    const payload = JSON.parse(event!.payload as string);
    expect(payload).toMatchObject({ recallId, productNumber: "Z-9101-2026", classification: "Class II", affectedUnits: 2 });
    expect(payload.units.map((u: { lot: string; serial: string; orderNumber: string }) => [u.lot, u.serial, u.orderNumber])).toEqual([
      ["RMA1", "S-1", shipped.orderNumber],
      ["RMA1", "S-2", shipped.orderNumber],
    ]);
    // Tenant B received none of these units: its store knows nothing of the recall.
    expect((await storeRecalls(TENANT_B)).map((r) => r.recall_id)).not.toContain(recallId);
    expect(await recallEvents(TENANT_B, recallId)).toEqual([]);

    // The same file again changes nothing: no new revision, no event.
    const again = await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([enforcementRecord("Z-9101-2026", codeInfo)]) }, caller);
    expect(again.counts).toMatchObject({ unchanged: 1, created: 0, updated: 0 });
    expect(await recallEvents(TENANT_A, recallId)).toHaveLength(1);
  });

  it("a unit shipped after the recall was loaded is matched at once; a terminated recall closes", async () => {
    const first = await shippedUnits([{ lot: "LATE1", serial: "L-1" }], { who: KJOHNSON });
    const codeInfo = `UDI-DI ${first.gtin} Lot LATE1`;
    await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([enforcementRecord("Z-9102-2026", codeInfo)]) }, caller);
    const recallId = (await recallIdOf("Z-9102-2026"))!;
    expect((await storeRecalls(KJOHNSON.tenantId)).find((r) => r.recall_id === recallId)).toMatchObject({ affected_units: 1 });

    // Another order of the same product and lot, shipped now: the store's alarm matches it against the open recalls.
    const second = await shippedUnits([{ lot: "LATE1", serial: "L-2" }], { who: KJOHNSON, productId: first.productId });
    expect(second.gtin).toBe(first.gtin);
    await unitsChecked(KJOHNSON.tenantId);
    expect((await storeRecalls(KJOHNSON.tenantId)).find((r) => r.recall_id === recallId)).toMatchObject({ affected_units: 2 });
    const [affects, updated] = await recallEvents(KJOHNSON.tenantId, recallId);
    expect(affects!.type).toBe("recall.affects_you");
    expect(updated!.type).toBe("recall.updated");
    expect(JSON.parse(updated!.payload as string).units.map((u: { serial: string }) => u.serial)).toEqual(["L-1", "L-2"]);
    // Another lot of the product, shipped now: not within the recall.
    await shippedUnits([{ lot: "OTHER", serial: "L-3" }], { who: KJOHNSON, productId: first.productId });
    await unitsChecked(KJOHNSON.tenantId);
    expect((await storeRecalls(KJOHNSON.tenantId)).find((r) => r.recall_id === recallId)).toMatchObject({ affected_units: 2 });

    const terminated = enforcementRecord("Z-9102-2026", codeInfo, { status: "Terminated", termination_date: "20261206" });
    const closed = await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([terminated]) }, caller);
    expect(closed.counts).toMatchObject({ updated: 1 });
    expect((await recallEvents(KJOHNSON.tenantId, recallId)).map((e) => e.type)).toEqual([
      "recall.affects_you",
      "recall.updated",
      "recall.closed",
    ]);
  });

  it("a record's place in the file changes nothing: a later file with records before it finds it unchanged", async () => {
    const first = [enforcementRecord("Z-9111-2026", "Lot A1"), enforcementRecord("Z-9112-2026", "Lot A2")];
    await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson(first) }, caller);
    const later = await runImport(
      { format: "ndjson" },
      { "recalls.ndjson": ndjson([enforcementRecord("Z-9110-2026", "Lot A0"), ...first]) },
      caller,
    );
    expect(later.counts).toMatchObject({ created: 1, updated: 0, unchanged: 2 });
  });

  it("a recall already terminated when it first touches a tenant is recorded without an event", async () => {
    const shipped = await shippedUnits([{ lot: "OLD1", serial: "O-1" }]);
    const record = enforcementRecord("Z-9113-2026", `UDI-DI ${shipped.gtin} Lot OLD1`, {
      status: "Terminated",
      termination_date: "20250101",
    });
    await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([record]) }, caller);
    const recallId = (await recallIdOf("Z-9113-2026"))!;
    expect((await storeRecalls(TENANT_A)).find((r) => r.recall_id === recallId)).toMatchObject({ status: "terminated", affected_units: 1 });
    expect(await recallEvents(TENANT_A, recallId)).toEqual([]);
  });

  it("reads openFDA's answer whole (format openfda): the 12 enforcement records, their numbers as keys", async () => {
    const file = await import("../../../shared/test-data/recalls/openfda/device-enforcement.api-answers.json?raw");
    const job = await runImport({ format: "openfda" }, { "enforcement.json": file.default }, caller);
    expect(job.state).toBe("succeeded");
    expect(job.counts.read).toBeGreaterThanOrEqual(12);
    const { created, unchanged, read, rejected } = job.counts as Record<string, number>;
    expect(created! + unchanged!).toBe(read! - rejected!);
    const errors = await importErrors(job.id, caller);
    expect(errors).toEqual([]);
  });

  it("reads a device/recall record ({ record }) and a pre-2012 RES record, each a file of its own", async () => {
    const files = {
      "device-recall.json": (await import("../../../shared/test-data/recalls/openfda/device-recall.open-fda-gov-examples.json?raw"))
        .default,
      "res.json": (await import("../../../shared/test-data/recalls/openfda/res-one-recall.legacy-enforcement.json?raw")).default,
    };
    for (const [name, text] of Object.entries(files)) {
      const job = await runImport({ format: "openfda" }, { [name]: text }, caller);
      expect(job.state, name).toBe("succeeded");
      expect(job.counts, name).toMatchObject({ read: 1, rejected: 0 });
    }
    expect(await recallIdOf("Z-1004-04")).toBeGreaterThan(0);
  });
});
