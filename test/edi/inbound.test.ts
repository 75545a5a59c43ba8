import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { markApplied, receiveX12 } from "../../src/operator/edi/inbound";
import { element } from "../../src/operator/edi/x12/elements";
import { allProblems } from "../../src/operator/edi/x12/envelope";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { call, json, operatorTokenFor } from "../helpers/api";
import { partnerInput } from "../helpers/edi";

/** The public X12 files (../shared/test-data/x12, read in place), bundled as text for workerd. */
const files = import.meta.glob<string>("../../../shared/test-data/x12/**/*.edi", { query: "?raw", import: "default", eager: true });
function x12File(name: string): string {
  const text = files[`../../../shared/test-data/x12/${name}`];
  if (text === undefined) throw new Error(`${name} not found`);
  return text;
}

/** The test usage sender of the derived supplier files (EXAMPLESUPPLY) as a partner of vendor 1 addressing EXAMPLEHOSP. */
async function supplierPartner(overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
    method: "POST",
    json: {
      vendorId: 1,
      ...partnerInput({
        usage: "test",
        partnerIdentity: { qualifier: "ZZ", id: "EXAMPLESUPPLY" },
        ourIdentity: { qualifier: "ZZ", id: "EXAMPLEHOSP" },
        partnerApplicationId: "EXAMPLESUPPLY",
        ourApplicationId: "EXAMPLEHOSP",
        ...overrides,
      }),
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data.id;
}

const segmentsOf = (text: string) => {
  const interchange = readX12(text).interchanges[0]!;
  expect(allProblems(interchange).filter((problem) => problem.severity === "error")).toEqual([]);
  return { interchange, segments: interchange.groups.flatMap((group) => group.sets.flatMap((set) => set.segments)) };
};

describe("receiving a partner's X12", () => {
  // The public files' sender is one partner per usage: each test starts without partners.
  beforeEach(async () => {
    await env.DB.batch(
      ["edi_received_interchanges", "edi_interchanges", "edi_control_numbers", "edi_partners"].map((table) =>
        env.DB.prepare(`DELETE FROM ${table}`),
      ),
    );
  });

  it("answers each group with a 997 in an interchange of ours, once: the same interchange again gets the same bytes and is not handed on", async () => {
    const partnerId = await supplierPartner();
    const text = x12File("855/derived-855-line-codes-004010.edi");
    const fileKey = "edi/inbound/the-file";
    const [receipt] = await receiveX12(env.DB, text, { fileKey });
    expect(receipt).toMatchObject({ outcome: "received", partnerId, interchangeControl: "000000201" });
    if (receipt?.outcome !== "received") throw new Error("not received");
    expect(receipt.groups.map((group) => group.functionalId)).toEqual(["PR"]);

    const { interchange, segments } = segmentsOf(receipt.acknowledgment!);
    expect([interchange.senderId, interchange.receiverId, interchange.usage, interchange.controlNumber]).toEqual([
      "EXAMPLEHOSP",
      "EXAMPLESUPPLY",
      "T",
      "000000001",
    ]);
    expect(interchange.groups.map((group) => [group.functionalId, group.controlNumber])).toEqual([["FA", "1"]]);
    expect(segments.find((segment) => segment.id === "AK1")!.elements).toEqual(["PR", "201"]);
    expect(element(segments.find((segment) => segment.id === "AK9")!, 1)).toBe("A");

    // Until its groups are applied, the same file received again is handed on again (a retry after a crash), same answer;
    // the same interchange in another file (a sender reusing its ISA13) is a duplicate, never handed on.
    const retried = await receiveX12(env.DB, text, { fileKey });
    expect(retried).toEqual([{ ...receipt, outcome: "received" }]);
    const reused = await receiveX12(env.DB, text, { fileKey: "edi/inbound/another-file" });
    expect(reused).toEqual([{ outcome: "duplicate", partnerId, interchangeControl: "000000201", acknowledgment: receipt.acknowledgment }]);
    await markApplied(env.DB, partnerId, receipt.duplicateKey);
    const again = await receiveX12(env.DB, text);
    expect(again).toEqual([{ outcome: "duplicate", partnerId, interchangeControl: "000000201", acknowledgment: receipt.acknowledgment }]);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM edi_received_interchanges WHERE partner_id = ?").bind(partnerId).first("n"),
    ).toBe(1);
    expect(
      (await env.DB.prepare("SELECT kind, last FROM edi_control_numbers WHERE partner_id = ? ORDER BY kind").bind(partnerId).all()).results,
    ).toEqual([
      { kind: "group", last: 1 },
      { kind: "interchange", last: 1 },
      { kind: "set", last: 1 },
    ]);
  });

  it("answers a set whose SE01 is wrong with AK5 R 4, in a 999 when the partner takes 999s", async () => {
    const partner = {
      partnerIdentity: { qualifier: "ZZ", id: "EXAMPLEHOSP" },
      ourIdentity: { qualifier: "ZZ", id: "EXAMPLESUPPLY" },
    };
    await supplierPartner(partner);
    const text = x12File("negative/derived-negative-se-count.edi");
    const [receipt] = await receiveX12(env.DB, text);
    if (receipt?.outcome !== "received") throw new Error(JSON.stringify(receipt));
    const { segments } = segmentsOf(receipt.acknowledgment!);
    expect(segments.find((segment) => segment.id === "AK5")!.elements).toEqual(["R", "4"]);
    expect(element(segments.find((segment) => segment.id === "AK9")!, 1)).toBe("R");

    // The same partner taking 999s (005010): IK5 in a group of 005010X231A1.
    await env.DB.prepare("DELETE FROM edi_received_interchanges").run();
    await env.DB.prepare("UPDATE edi_partners SET version = '005010', acknowledgment = '999', repetition_separator = '^'").run();
    const [as999] = await receiveX12(env.DB, text);
    if (as999?.outcome !== "received") throw new Error(JSON.stringify(as999));
    const read = segmentsOf(as999.acknowledgment!);
    expect(read.interchange.groups[0]!.version).toBe("005010X231A1");
    expect(read.segments.find((segment) => segment.id === "IK5")!.elements).toEqual(["R", "4"]);
    expect(read.segments.some((segment) => segment.id === "AK5")).toBe(false);
  });

  it("rejects with a TA1 (R 008) an interchange addressed to another receiver, handing none of it on", async () => {
    await supplierPartner({ ourIdentity: { qualifier: "ZZ", id: "MEDPARTS" } });
    const [receipt] = await receiveX12(env.DB, x12File("855/derived-855-line-codes-004010.edi"));
    if (receipt?.outcome !== "received") throw new Error(JSON.stringify(receipt));
    expect(receipt.groups).toEqual([]);
    const { interchange } = segmentsOf(receipt.acknowledgment!);
    expect(interchange.ta1.map((segment) => segment.elements)).toEqual([["000000201", "260115", "0930", "R", "008"]]);
    expect(interchange.groups).toEqual([]);
    // Nothing of it is to apply: the same interchange again is a duplicate at once.
    expect((await receiveX12(env.DB, x12File("855/derived-855-line-codes-004010.edi")))[0]!.outcome).toBe("duplicate");
    expect(await env.DB.prepare("SELECT accepted FROM edi_received_interchanges ORDER BY received_at DESC LIMIT 1").first("accepted")).toBe(
      0,
    );
  });

  it("refuses a sender that is no partner, another vendor's partner when the transport knows the vendor, and what is not X12", async () => {
    const text = x12File("855/derived-855-line-codes-004010.edi");
    expect(await receiveX12(env.DB, text)).toEqual([{ outcome: "refused", reason: "No test partner sends as ZZ/EXAMPLESUPPLY." }]);
    await supplierPartner();
    expect((await receiveX12(env.DB, text, { vendorId: 2 }))[0]!.outcome).toBe("refused");
    expect((await receiveX12(env.DB, text, { vendorId: 1 }))[0]!.outcome).toBe("received");
    const [notX12] = await receiveX12(env.DB, "Hello, this is not EDI.");
    expect(notX12!.outcome).toBe("refused");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM edi_received_interchanges").first("n")).toBe(1);
  });
});
