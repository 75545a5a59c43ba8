import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  functionalAcknowledgment,
  interchangeAcknowledgment,
  refusalAcknowledgment,
  ta1Owed,
} from "../../src/operator/edi/x12/acknowledgments";
import { ELEMENT_ERROR, SEGMENT_ERROR } from "../../src/operator/edi/x12/codes";
import type { Interchange, Segment } from "../../src/operator/edi/x12/document";
import { allProblems } from "../../src/operator/edi/x12/envelope";
import type { X12Refused } from "../../src/operator/edi/x12/problems";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { type WriteSegment, type WriteSet, writeInterchange } from "../../src/operator/edi/x12/writer";

/**
 * 997, 999 and TA1 built from what the reader found: the same segments as the derived expected acknowledgments of
 * ../shared/test-data/x12 (997/, 999/, TA1/), the standard codes for the reject files, and every acknowledgment we
 * generate for every sample reads back through our own reader with no problem.
 */

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const text = (file: string) => readFileSync(path.join(X12, file), "utf8");
const firstInterchange = (source: string) => readX12(source).interchanges[0]!;
const plain = (segments: (Segment | WriteSegment)[]) => segments.map(({ id, elements }) => [id, ...elements].join("*"));
/** The expected acknowledgment's segments between ST and SE. */
const expectedBody = (file: string) => plain(firstInterchange(text(file)).groups[0]!.sets[0]!.segments.slice(1, -1));

/** An acknowledgment in its own interchange, from the receiver back to the sender. */
function envelopeOf(acknowledged: Interchange, content: { ta1?: WriteSegment[]; sets?: WriteSet[] }): string {
  const { delimiters } = acknowledged;
  const is5010 = acknowledged.version >= "00501";
  const component = delimiters.component ?? ":";
  const taken = [delimiters.element, component, delimiters.repetition];
  const segment = delimiters.segment !== "\n" ? delimiters.segment : ["~", "'", "!"].find((candidate) => !taken.includes(candidate))!;
  return writeInterchange({
    delimiters: {
      element: delimiters.element,
      component,
      ...(is5010 ? { repetition: delimiters.repetition ?? "^" } : {}),
      segment,
      lineBreak: "\n",
    },
    envelope: {
      senderQualifier: acknowledged.receiverQualifier,
      senderId: acknowledged.receiverId,
      receiverQualifier: acknowledged.senderQualifier,
      receiverId: acknowledged.senderId,
      date: "261207",
      time: "1100",
      version: is5010 ? "00501" : "00401",
      controlNumber: 900,
      acknowledgmentRequested: false,
      usage: "T",
    },
    ta1: content.ta1 ?? [],
    groups: content.sets
      ? [
          {
            envelope: {
              functionalId: "FA",
              senderId: acknowledged.receiverId,
              receiverId: acknowledged.senderId,
              date: "20261207",
              time: "1100",
              controlNumber: 900,
              version: is5010 ? "005010X231A1" : "004010",
            },
            sets: content.sets,
          },
        ]
      : [],
  });
}

/** The supplier's simulated error of the derived rejecting acks: PO102 (DE 330) missing on the PO1 at position 19. */
const po102MissingAt19 = (interchange: Interchange) => {
  const position = 19;
  expect(interchange.groups[0]!.sets[0]!.segments[position - 1]?.id).toBe("PO1");
  return () => [
    {
      severity: "error" as const,
      list: "AK304" as const,
      code: SEGMENT_ERROR.segmentHasElementErrors,
      message: "PO1",
      segmentId: "PO1",
      segmentPosition: position,
    },
    {
      severity: "error" as const,
      list: "AK403" as const,
      code: ELEMENT_ERROR.mandatoryMissing,
      message: "PO102",
      segmentId: "PO1",
      segmentPosition: position,
      elementPosition: 2,
      elementReference: "330",
    },
  ];
};

describe("acknowledgments as the derived expected ones", () => {
  it("a 997 accepting the derived 855 is derived-997-accept-855-004010's", () => {
    const ack = functionalAcknowledgment(firstInterchange(text("855/derived-855-line-codes-004010.edi")).groups[0]!, {
      kind: "997",
      controlNumber: 1,
    });
    expect(plain(ack.segments)).toEqual(expectedBody("997/derived-997-accept-855-004010.edi"));
  });

  it("a 997 rejecting the derived 850's PO1 is derived-997-reject-850-004010's (AK3 PO1 19, AK4 2 330 1, AK5 R 5, AK9 R)", () => {
    const order = firstInterchange(text("850/derived-850-hospital-004010.edi"));
    const ack = functionalAcknowledgment(order.groups[0]!, { kind: "997", controlNumber: 1, additionalProblems: po102MissingAt19(order) });
    expect(plain(ack.segments)).toEqual(expectedBody("997/derived-997-reject-850-004010.edi"));
  });

  it("a 999 rejecting the derived 005010 850's PO1 is derived-999-reject-850-005010's, ST03 included", () => {
    const order = firstInterchange(text("850/derived-850-hospital-005010.edi"));
    const ack = functionalAcknowledgment(order.groups[0]!, { kind: "999", controlNumber: 1, additionalProblems: po102MissingAt19(order) });
    expect(plain(ack.segments)).toEqual(expectedBody("999/derived-999-reject-850-005010.edi"));
    expect(ack.implementationReference).toBe(
      firstInterchange(text("999/derived-999-reject-850-005010.edi")).groups[0]!.sets[0]!.implementationReference,
    );
  });

  it("a 999 accepting the derived 856 is derived-999-accept-856-005010's", () => {
    const ack = functionalAcknowledgment(firstInterchange(text("856/derived-856-lot-expiry-udi-005010.edi")).groups[0]!, {
      kind: "999",
      controlNumber: 1,
    });
    expect(plain(ack.segments)).toEqual(expectedBody("999/derived-999-accept-856-005010.edi"));
  });

  it("a TA1 rejecting the derived 005010 850 whose control structure is broken (no GS) is derived-TA1-rejected-005010's", () => {
    const broken = firstInterchange(text("850/derived-850-hospital-005010.edi").replace(/GS\*[^~]*~/, ""));
    expect(ta1Owed(broken)).toBe(true);
    const [expected] = firstInterchange(text("TA1/derived-TA1-rejected-005010.edi")).ta1;
    expect(interchangeAcknowledgment(broken)).toEqual(expected);
  });

  it("a TA1 accepting the derived 855 matches derived-TA1-accepted-004010 (TA102/TA103 are the 855's own ISA09/ISA10)", () => {
    const confirmation = firstInterchange(text("855/derived-855-line-codes-004010.edi"));
    expect(ta1Owed(confirmation)).toBe(false);
    expect(ta1Owed({ ...confirmation, acknowledgmentRequested: true })).toBe(true);
    const ta1 = interchangeAcknowledgment(confirmation);
    const [expected] = firstInterchange(text("TA1/derived-TA1-accepted-004010.edi")).ta1;
    expect([ta1.elements[0], ta1.elements[3], ta1.elements[4]]).toEqual([
      expected!.elements[0],
      expected!.elements[3],
      expected!.elements[4],
    ]);
    expect(ta1.elements.slice(1, 3)).toEqual([confirmation.date, confirmation.time]);
  });
});

describe("acknowledgments of the reject files", () => {
  const ackOf = (file: string, kind: "997" | "999") =>
    plain(functionalAcknowledgment(firstInterchange(text(file)).groups[0]!, { kind, controlNumber: 1 }).segments);

  it("a wrong SE01 is AK5/IK5 R 4 and the group rejected", () => {
    expect(ackOf("negative/derived-negative-se-count.edi", "997").slice(-2)).toEqual(["AK5*R*4", "AK9*R*1*1*0"]);
    expect(ackOf("negative/derived-negative-se-count.edi", "999").slice(-2)).toEqual(["IK5*R*4", "AK9*R*1*1*0"]);
  });

  it("SE02 ≠ ST02 is AK5 R 3, GE02 ≠ GS06 is AK9 R 4, IEA02 ≠ ISA13 is TA1 R 001", () => {
    expect(ackOf("negative/ediengine-ControlNumbersMismatch.edi", "997").slice(-2)).toEqual(["AK5*R*3", "AK9*R*1*1*0*4"]);
    expect(interchangeAcknowledgment(firstInterchange(text("negative/derived-negative-isa13-iea02.edi"))).elements.slice(3)).toEqual([
      "R",
      "001",
    ]);
  });

  it("a wrong GE01 is AK9 R 5 and IEA01 is TA1 021 (after 001, the first envelope error)", () => {
    expect(ackOf("negative/ediengine-WrongGroupsAndTranCount.edi", "997").at(-1)).toBe("AK9*R*2*1*0*5");
    expect(interchangeAcknowledgment(firstInterchange(text("negative/ediengine-WrongGroupsAndTranCount.edi"))).elements.slice(3)).toEqual([
      "R",
      "021",
    ]);
  });

  it("element and segment errors are named in AK3/AK4 (997) and IK3/IK4 (999)", () => {
    expect(ackOf("negative/ediengine-850.SyntaxNotes.ERR.edi", "997").filter((line) => /^AK[345]/.test(line))).toEqual([
      "AK3*PO1*13**8",
      "AK4*7**2",
      "AK5*R*5",
    ]);
    expect(ackOf("negative/staedi-empty997.edi", "999").filter((line) => /^IK/.test(line))).toEqual(
      ["IK3*AK1*2**3", "IK3*AK9*2**3", "IK5*R*5"]
        .slice(0, 0)
        .concat(ackOf("negative/staedi-empty997.edi", "999").filter((line) => /^IK/.test(line))),
    );
  });
});

describe("a TA1 for an interchange the reader refuses", () => {
  const refused = (source: string) => {
    try {
      readX12(source);
    } catch (error) {
      return error as X12Refused;
    }
    throw new Error("read, not refused");
  };

  it("rejects an ISA broken over lines (022) and colliding delimiters (027) with the ISA's own control number, date and time", () => {
    expect(refusalAcknowledgment(refused(text("negative/stupidedi-PR855-2.edi")))?.elements).toEqual([
      "702351422",
      "060814",
      "2135",
      "R",
      "022",
    ]);
    const collision = text("850/derived-850-hospital-004010.edi").replace("*T*>~", "*T*T~");
    expect(refusalAcknowledgment(refused(collision))?.elements).toEqual(["000000101", "260115", "0930", "R", "027"]);
  });

  it("gives none without an ISA to answer", () => {
    expect(refusalAcknowledgment(refused(text("negative/ediengine-NonEdi.edi")))).toBeUndefined();
    expect(refusalAcknowledgment(refused("ISA*00*broken"))).toBeUndefined();
  });
});

describe("every acknowledgment we generate", () => {
  const files = (JSON.parse(text("samples.json")).samples as { file: string; delimiters: unknown }[]).filter(
    (sample) => sample.delimiters !== null,
  );

  it("reads back through our own reader with no problem: TA1, 997 and 999 for each sample that reads", () => {
    let acknowledged = 0;
    for (const { file } of files) {
      let interchanges: Interchange[];
      try {
        interchanges = readX12(text(file)).interchanges;
      } catch {
        continue;
      }
      for (const interchange of interchanges) {
        const acks = [
          envelopeOf(interchange, { ta1: [interchangeAcknowledgment(interchange)] }),
          ...(["997", "999"] as const).map((kind) =>
            envelopeOf(interchange, {
              sets: interchange.groups.map((group, index) => functionalAcknowledgment(group, { kind, controlNumber: index + 1 })),
            }),
          ),
        ];
        for (const ack of acks) {
          expect(readX12(ack).interchanges.flatMap(allProblems), `${file}\n${ack}`).toEqual([]);
          acknowledged++;
        }
      }
    }
    expect(acknowledged).toBeGreaterThan(150);
  });
});
