import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { requestRecallReturns } from "../../src/api/recalls/returns";
import { database } from "../../src/db/client";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { tenantStore } from "../../src/shared/tenants/stub";
import { call, json, TENANT_A, TENANT_B, testModeTokenFor, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { ndjson, runImport } from "../helpers/imports";
import { JSMITH, KJOHNSON } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { BODIES, move, vendorOf } from "../helpers/vendors";
import { enforcementRecord, RECALL_IMPORTS, recallIdOf, shippedUnits, storeRecalls, unitCode, unitGtin } from "./helpers";

const caller = { collection: RECALL_IMPORTS };

/** Tenant A's units of one line, a recall touching two of its three, loaded by an import. */
async function recallOfTenantA(productNumber: string, lot: string) {
  const shipped = await shippedUnits([
    { lot, serial: `${lot}-1` },
    { lot, serial: `${lot}-2` },
    { lot: `${lot}X`, serial: `${lot}-3` },
  ]);
  const record = enforcementRecord(productNumber, `UDI-DI ${shipped.gtin}; Lot Numbers: ${lot}`, { classification: "Class I" });
  const job = await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([record]) }, caller);
  expect(job.state).toBe("succeeded");
  return { ...shipped, recallId: (await recallIdOf(productNumber))! };
}

const buyer = (tenantId = TENANT_A) => tokenFor(tenantId);

describe("recalls: the hospital's routes", () => {
  it("lists and searches its recalls, shows one with its units, and never another tenant's", async () => {
    const { recallId, orderNumber, lineId } = await recallOfTenantA("Z-9201-2026", "RTA1");
    const token = await buyer();
    const list = (await json(await contractCall(token, "/recalls"))).data;
    expect(list.recalls.map((r: { id: number }) => r.id)).toContain(recallId);
    const search = async (q: string) => {
      const res = await contractCall(token, `/recalls?q=${encodeURIComponent(q)}`);
      const body = await json(res);
      expect(res.status, `${q}: ${JSON.stringify(body)}`).toBe(200);
      return body.data.recalls.map((r: { id: number }) => r.id);
    };
    expect(await search('classification:"Class I" AND status:open AND acknowledgedAt:null')).toContain(recallId);
    expect(await search('lot:"RTA1"')).toEqual([recallId]);
    expect(await search(`orderNumber:"${orderNumber}"`)).toEqual([recallId]);
    expect(await search(`facility:${JSMITH.facilityId} AND lot:"RTA1"`)).toEqual([recallId]);
    expect(await search(`facilityId:${KJOHNSON.facilityId} AND lot:"RTA1"`)).toEqual([]);
    expect(await search('lot:"NOPE"')).toEqual([]);
    expect(await search("outcome:affected AND affectedUnits:2")).toContain(recallId);
    // initiatedOn holds days (20261201 in the record): a day matches it, the days around it do not.
    expect(await search('initiatedOn:"2026-12-01"')).toContain(recallId);
    expect(await search('initiatedOn>="2026-12-01" AND initiatedOn<="2026-12-01"')).toContain(recallId);
    expect(await search('initiatedOn:"2026-12-02"')).not.toContain(recallId);
    expect(await search('initiatedOn>"2026-12-01"')).not.toContain(recallId);
    expect(await search('initiatedOn<"2026-12-01"')).not.toContain(recallId);
    const bad = await contractCall(token, "/recalls?q=colour:red");
    expect(bad.status).toBe(400);

    const one = (await json(await contractCall(token, `/recalls/${recallId}`))).data;
    expect(one).toMatchObject({ id: recallId, productNumber: "Z-9201-2026", classification: "Class I", affectedUnits: 2, reviewUnits: 0 });
    expect(one.units.map((u: { serial: string; lineId: number; outcome: string }) => [u.serial, u.lineId, u.outcome])).toEqual([
      ["RTA1-1", lineId, "affected"],
      ["RTA1-2", lineId, "affected"],
    ]);
    // Tenant B: the recall touches none of its units; it is not found, and its list does not have it.
    expect((await contractCall(await buyer(TENANT_B), `/recalls/${recallId}`)).status).toBe(404);
    const listB = (await json(await contractCall(await buyer(TENANT_B), "/recalls"))).data.recalls;
    expect(listB.map((r: { id: number }) => r.id)).not.toContain(recallId);
    // Test mode (the sandbox twin's store) has none of the live units either.
    expect((await contractCall(await testModeTokenFor(TENANT_A), `/recalls/${recallId}`)).status).toBe(404);
  });

  it("acknowledges once, records what was found of each unit, and refuses a unit the recall does not touch", async () => {
    const { recallId } = await recallOfTenantA("Z-9202-2026", "RTB1");
    const token = await buyer();
    const first = (await json(await contractCall(token, `/recalls/${recallId}/acknowledge`, { method: "POST" }))).data;
    expect(first.acknowledgedAt).toMatch(/^\d{4}-/);
    const again = (await json(await contractCall(token, `/recalls/${recallId}/acknowledge`, { method: "POST" }))).data;
    expect(again.acknowledgedAt).toBe(first.acknowledgedAt);
    const [a, b] = first.units as { unitId: number }[];
    const marked = await contractCall(token, `/recalls/${recallId}/units`, {
      method: "POST",
      json: {
        units: [
          { unitId: a!.unitId, disposition: "found" },
          { unitId: b!.unitId, disposition: "used" },
        ],
      },
    });
    expect(marked.status).toBe(200);
    expect((await json(marked)).data.units.map((u: { disposition: string }) => u.disposition)).toEqual(["found", "used"]);
    const wrong = await contractCall(token, `/recalls/${recallId}/units`, {
      method: "POST",
      json: {
        units: [
          { unitId: a!.unitId, disposition: "not_found" },
          { unitId: 1, disposition: "found" },
        ],
      },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).errors).toHaveProperty(["units[1].unitId"]);
    // Nothing of the refused call was written.
    const [row] = await storeRows(
      TENANT_A,
      "SELECT disposition FROM recall_units WHERE recall_id = ?1 AND unit_id = ?2",
      recallId,
      a!.unitId,
    );
    expect(row!.disposition).toBe("found");
  });

  it("requests the return of affected units in one call: skipped while undelivered, one RMA per line once delivered, the same on retry", async () => {
    const { recallId, lineId, orderNumber } = await recallOfTenantA("Z-9203-2026", "RTC1");
    const token = await buyer();
    const send = (key: string, body?: unknown) =>
      contractCall(token, `/recalls/${recallId}/returns`, {
        method: "POST",
        headers: { "Idempotency-Key": key },
        ...(body ? { json: body } : {}),
      });
    const early = await send(crypto.randomUUID());
    expect(early.status).toBe(201);
    expect((await json(early)).data).toMatchObject({ returns: [], skipped: [{ lineId, orderNumber }] });
    expect((await move(lineId, "deliver", BODIES.deliver())).status).toBe(200);
    const key = crypto.randomUUID();
    const sent = (await json(await send(key))).data;
    expect(sent.skipped).toEqual([]);
    expect(sent.returns).toHaveLength(1);
    expect(sent.returns[0]).toMatchObject({ lineId, orderNumber, quantity: 2 });
    const returnId = sent.returns[0].returnId;
    const rma = (await json(await contractCall(token, `/returns/${returnId}`))).data;
    expect(rma).toMatchObject({ kind: "rma", status: "requested", quantity: 2, reason: "recall" });
    // A retry with the same key answers the same return; a new call has nothing left to send.
    const retry = (await json(await send(key))).data;
    expect(retry.returns[0].returnId).toBe(returnId);
    const none = (await json(await send(crypto.randomUUID()))).data;
    expect(none).toEqual({ returns: [], skipped: [] });
    const listed = (await json(await contractCall(token, `/recalls/${recallId}`))).data.units;
    expect(listed.map((u: { returnId: number }) => u.returnId)).toEqual([returnId, returnId]);
    const missingKey = await call(token, `/recalls/${recallId}/returns`, { method: "POST" });
    expect(missingKey.status).toBe(400);
    // A retry that finds the call's returns already made (the first answer lost to a crash) answers them, named or not.
    const db = database(tenantStoreDatabase(env, TENANT_A));
    const unitIds = listed.map((u: { unitId: number }) => u.unitId);
    for (const body of [{ unitIds }, {}]) {
      const replayed = await requestRecallReturns(db, TENANT_A, recallId, body, key);
      expect(replayed.returns.map((r) => r.returnId)).toEqual([returnId]);
    }
  });

  it("the vendor sees counts of its units at how many hospitals, never another vendor's; its own notice reaches the stores", async () => {
    const { recallId, lineId, index } = await recallOfTenantA("Z-9204-2026", "RTD1");
    const vendorId = await vendorOf(lineId);
    const mine = (await json(await contractCall(await vendorTokenFor(vendorId), "/vendor/api/recalls"))).data.recalls;
    expect(mine.find((r: { id: number }) => r.id === recallId)).toMatchObject({
      affectedUnits: 2,
      reviewUnits: 0,
      hospitals: 1,
      source: "fda",
    });
    expect(JSON.stringify(mine)).not.toContain("Main Campus");
    const other = vendorId === 3 ? 5 : 3;
    const theirs = (await json(await contractCall(await vendorTokenFor(other), "/vendor/api/recalls"))).data.recalls;
    expect(theirs.map((r: { id: number }) => r.id)).not.toContain(recallId);

    const notice = {
      noticeNumber: "FSN-TEST-1",
      classification: "Class II",
      productDescription: "Pump cassette",
      reason: "The latch may break.",
      deviceIds: [unitGtin(index)],
      serials: ["RTD1-3"],
    };
    const published = await call(await vendorTokenFor(vendorId), "/vendor/api/recalls", { method: "POST", json: notice });
    expect(published.status, await published.clone().text()).toBe(200);
    const noticeId = (await json(published)).data.id;
    const until = Date.now() + 10_000;
    while (!(await storeRecalls(TENANT_A)).some((r) => r.recall_id === noticeId) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seen = (await json(await contractCall(await buyer(), `/recalls/${noticeId}`))).data;
    expect(seen).toMatchObject({ source: "vendor", productNumber: "FSN-TEST-1", affectedUnits: 1 });
    expect(seen.units.map((u: { serial: string }) => u.serial)).toEqual(["RTD1-3"]);
    // Another vendor's notice of the same device and serial speaks for its own deliveries only: none of these units.
    const foreign = await call(await vendorTokenFor(other), "/vendor/api/recalls", {
      method: "POST",
      json: { ...notice, noticeNumber: "FSN-OTHER-1" },
    });
    expect(foreign.status).toBe(200);
    const foreignId = (await json(foreign)).data.id;
    await tenantStore(env, TENANT_A).matchRecalls();
    expect((await storeRecalls(TENANT_A)).map((r) => r.recall_id)).not.toContain(foreignId);
    const empty = await call(await vendorTokenFor(vendorId), "/vendor/api/recalls", {
      method: "POST",
      json: { ...notice, noticeNumber: "FSN-TEST-2", deviceIds: [] },
    });
    expect(empty.status).toBe(400);
  });

  it("scan to order says when a scanned unit is under recall: its lot listed, not another lot's", async () => {
    const { recallId, index } = await recallOfTenantA("Z-9206-2026", "RTF1");
    const scan = async (codes: string[]) =>
      (await json(await contractCall(await buyer(), "/catalog/resolve", { method: "POST", json: { codes } }))).data.results as {
        recalls: { recallId: number; productNumber: string; classification: string; outcome: string }[];
      }[];
    const [recalled, otherLot] = await scan([unitCode(index, "RTF1", "SCAN-1"), unitCode(index, "OTHERLOT", "SCAN-2")]);
    expect(recalled!.recalls).toEqual([
      expect.objectContaining({ recallId, productNumber: "Z-9206-2026", classification: "Class I", outcome: "affected" }),
    ]);
    expect(otherLot!.recalls.map((r) => r.recallId)).not.toContain(recallId);
  });

  it("scan to order warns of a recall that names the product by its catalog number only", async () => {
    const shipped = await shippedUnits([{ lot: "RTG1", serial: "G-1" }]);
    const record = enforcementRecord("Z-9207-2026", "Lot Numbers: RTG1", {
      product_description: `Acme pump tubing, REF ${shipped.partNumber}`,
    });
    await runImport({ format: "ndjson" }, { "recalls.ndjson": ndjson([record]) }, caller);
    const recallId = (await recallIdOf("Z-9207-2026"))!;
    const [result] = (
      await json(
        await contractCall(await buyer(), "/catalog/resolve", {
          method: "POST",
          json: { codes: [unitCode(shipped.index, "RTG1", "G-9")] },
        }),
      )
    ).data.results as { recalls: { recallId: number; outcome: string }[] }[];
    expect(result!.recalls).toEqual([expect.objectContaining({ recallId, outcome: "affected" })]);
  });

  it("the recall's events are in the feed, in the documented shape", async () => {
    const { recallId } = await recallOfTenantA("Z-9205-2026", "RTE1");
    const feed = (await json(await contractCall(await buyer(), "/events?limit=100"))).data;
    const events = feed.events ?? feed.items ?? feed;
    const event = (events as { type: string; orderNumber: string }[]).find(
      (e) => e.type === "recall.affects_you" && e.orderNumber === String(recallId),
    );
    expect(event).toBeDefined();
  });
});
