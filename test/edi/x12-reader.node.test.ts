import { describe, expect, it } from "vitest";
import { components, element, repetitions } from "../../src/operator/edi/x12/elements";
import { allProblems, duplicateKey } from "../../src/operator/edi/x12/envelope";
import { X12_LIMITS } from "../../src/operator/edi/x12/limits";
import { type Problem, X12Refused } from "../../src/operator/edi/x12/problems";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { type WriteDelimiters, type WriteSegment, writeInterchange } from "../../src/operator/edi/x12/writer";

/** The X12 reader on layouts real senders use and on hostile input: refused quickly with a reason, never slow. */

const ENVELOPE = {
  senderQualifier: "ZZ",
  senderId: "EXAMPLEHOSP",
  receiverQualifier: "ZZ",
  receiverId: "EXAMPLESUPPLY",
  date: "260115",
  time: "0930",
  version: "00401",
  controlNumber: 101,
  acknowledgmentRequested: false,
  usage: "T" as const,
};
const GROUP = {
  functionalId: "PO",
  senderId: "EXAMPLEHOSP",
  receiverId: "EXAMPLESUPPLY",
  date: "20260115",
  time: "0930",
  controlNumber: 101,
  version: "004010",
};
const BODY: WriteSegment[] = [
  { id: "BEG", elements: ["00", "SA", "4500012345", "", "20260115"] },
  { id: "N1", elements: ["ST", "ST MARY S HOSPITAL", "92", "1001"] },
  { id: "PO1", elements: ["1", "10", "BX", "42.50", "PE", "VC", "EX-1001"] },
];
const TILDE: WriteDelimiters = { element: "*", component: ">", segment: "~" };

const interchange = (delimiters: WriteDelimiters = TILDE, segments: WriteSegment[] = BODY) =>
  writeInterchange({ delimiters, envelope: ENVELOPE, groups: [{ envelope: GROUP, sets: [{ id: "850", controlNumber: 1, segments }] }] });

const bodyOf = (text: string) => readX12(text).interchanges[0]!.groups[0]!.sets[0]!.segments.slice(1, -1);
const problems = (text: string) => readX12(text).interchanges.flatMap(allProblems);
const errorCodes = (list: Problem[]) =>
  list.filter((problem) => problem.severity === "error").map((problem) => `${problem.list} ${problem.code}`);

function refusal(read: () => unknown): X12Refused {
  const started = process.cpuUsage();
  try {
    read();
  } catch (error) {
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000, "refused within 1 s of CPU").toBeLessThan(1000);
    expect(error).toBeInstanceOf(X12Refused);
    return error as X12Refused;
  }
  throw new Error("read, not refused");
}

describe("the X12 reader's layouts", () => {
  const expected = BODY.map(({ id, elements }) => ({ id, elements: elements.slice(0, id === "BEG" ? 5 : elements.length) }));

  it("reads ~ alone, ~ + LF, ~ + CRLF, LF alone, CRLF alone and a multi-byte terminator (U+2026) to the same segments", () => {
    const layouts: WriteDelimiters[] = [
      TILDE,
      { ...TILDE, lineBreak: "\n" },
      { ...TILDE, lineBreak: "\r\n" },
      { ...TILDE, segment: "\u2026", lineBreak: "\n" },
      { element: "|", component: "^", segment: "'" },
    ];
    for (const layout of layouts) expect(bodyOf(interchange(layout)), JSON.stringify(layout)).toEqual(expected);
    const lf = interchange({ ...TILDE, lineBreak: "\n" }).replaceAll("~\n", "\n");
    expect(bodyOf(lf)).toEqual(expected);
    expect(bodyOf(lf.replaceAll("\n", "\r\n"))).toEqual(expected);
    expect(problems(lf)).toEqual([]);
  });

  it("strips a BOM and leading whitespace, trims whitespace around segments but not inside elements", () => {
    const indented = `\ufeff \n${interchange({ ...TILDE, lineBreak: "\n" })
      .replaceAll("\nN1", "\n\t\tN1")
      .replaceAll("\nPO1", "\n    PO1")}`;
    expect(bodyOf(indented)).toEqual(expected);
    expect(element(bodyOf(indented)[1]!, 2)).toBe("ST MARY S HOSPITAL");
    expect(problems(indented)).toEqual([]);
  });

  it("reads an unpadded ISA, an ISA without ISA16 and an ISA wrapped at 80 columns (line breaks removed, a warning)", () => {
    const text = interchange();
    const unpadded = text.replace("EXAMPLEHOSP    ", "EXAMPLEHOSP");
    expect(readX12(unpadded).interchanges[0]).toMatchObject({ isaFixedWidth: false, senderId: "EXAMPLEHOSP" });
    expect(problems(unpadded)).toEqual([]);
    const noIsa16 = interchange({ ...TILDE, lineBreak: "\n" }).replace("*T*>~", "*T*~");
    for (const variant of [noIsa16, noIsa16.replace("EXAMPLEHOSP    ", "EXAMPLEHOSP")]) {
      const [read] = readX12(variant).interchanges;
      expect(read!.delimiters).toMatchObject({ component: undefined, segment: "~" });
      expect(bodyOf(variant)).toEqual(expected);
      expect(allProblems(read!).map((problem) => problem.message)).toEqual([
        "ISA16 (component separator) is missing: the segment terminator follows ISA15",
      ]);
    }
    const wrapped = text.replace(/(.{80})/g, "$1\r\n");
    expect(bodyOf(wrapped)).toEqual(expected);
    expect(problems(wrapped).map((problem) => problem.severity)).toEqual(["warning", "warning"]);
  });

  it("splits components and repetitions on demand with the interchange's own separators", () => {
    const text = writeInterchange({
      delimiters: { element: "*", component: ":", repetition: "^", segment: "~" },
      envelope: { ...ENVELOPE, version: "00501" },
      groups: [
        {
          envelope: GROUP,
          sets: [
            {
              id: "850",
              controlNumber: 1,
              segments: [
                {
                  id: "SLN",
                  elements: ["1", "", "I", "5", { components: ["EA", "2", "BX"] }, { repetitions: ["A", { components: ["B", "C"] }] }],
                },
              ],
            },
          ],
        },
      ],
    });
    const document = readX12(text).interchanges[0]!;
    const sln = document.groups[0]!.sets[0]!.segments[1]!;
    expect(components(element(sln, 5), document.delimiters)).toEqual(["EA", "2", "BX"]);
    expect(repetitions(element(sln, 6), document.delimiters).map((value) => components(value, document.delimiters))).toEqual([
      ["A"],
      ["B", "C"],
    ]);
    expect(document.delimiters.repetition).toBe("^");
  });

  it("exposes the duplicate key: sender qualifier and id, ISA13 and ISA09", () => {
    const [first] = readX12(interchange()).interchanges;
    expect(duplicateKey(first!)).toBe("ZZ|EXAMPLEHOSP|000000101|260115");
    const again = readX12(interchange() + interchange()).interchanges;
    expect(duplicateKey(again[1]!)).toBe(duplicateKey(again[0]!));
    const otherDay = readX12(interchange().replace("260115", "260116")).interchanges[0]!;
    expect(duplicateKey(otherDay)).not.toBe(duplicateKey(first!));
  });

  it("names broken envelopes: missing trailers, stray segments, an ISA before the IEA", () => {
    const text = interchange({ ...TILDE, lineBreak: "\n" });
    expect(errorCodes(problems(text.replace(/SE\*5\*0001~\n/, "")))).toEqual(["AK502 2"]);
    expect(errorCodes(problems(text.replace(/GE\*1\*101~\n/, "")))).toContain("AK905 3");
    expect(errorCodes(problems(text.replace(/IEA.*\n?$/, "")))).toEqual(["TA105 023"]);
    expect(errorCodes(problems(text.replace(/GS\*.*\n/, "")))).toContain("TA105 022");
    expect(errorCodes(problems(text.replace("GE*1*101~\n", "GE*1*101~\nN1*XX~\n")))).toEqual(["TA105 024"]);
    const cut = text.replace(/IEA.*\n?$/, "") + text;
    const read = readX12(cut).interchanges;
    expect(read.length).toBe(2);
    expect(errorCodes(read[0]!.problems)).toEqual(["TA105 023"]);
    expect(read[1]!.problems).toEqual([]);
    expect(errorCodes(problems(`${text}garbage`))).toEqual(["TA105 024"]);
  });

  it("names bad ISA fields with their TA105 codes", () => {
    const text = interchange();
    expect(errorCodes(problems(text.replace("*260115*", "*26011X*")))).toEqual(["TA105 014"]);
    expect(errorCodes(problems(text.replace("*0*T*", "*2*T*")))).toEqual(["TA105 019"]);
    expect(errorCodes(problems(text.replace("*0*T*", "*0*Q*")))).toEqual(["TA105 020"]);
    expect(errorCodes(problems(text.replace("IEA*1*", "IEA*3*")))).toEqual(["TA105 021"]);
  });
});

describe("the X12 reader against hostile input", () => {
  it("refuses empty, blank and non-X12 input", () => {
    expect(refusal(() => readX12("")).reason).toBe("not-x12");
    expect(refusal(() => readX12(" \r\n\t")).reason).toBe("not-x12");
    expect(refusal(() => readX12("<?xml version='1.0'?><cXML/>")).reason).toBe("not-x12");
    expect(refusal(() => readX12("ISA")).reason).toBe("delimiters");
    expect(refusal(() => readX12("ISA*00*short")).reason).toBe("structure");
  });

  it("refuses a 50 MB string by its size before reading it", () => {
    const huge = `ISA${"*".repeat(50 * 1024 * 1024)}`;
    const refused = refusal(() => readX12(huge));
    expect(refused.reason).toBe("size");
    expect(X12_LIMITS.maxInputChars).toBeLessThan(huge.length);
  });

  it("refuses separators that collide or cannot separate", () => {
    const text = interchange();
    expect(refusal(() => readX12(text.replace(/\*>~/, "**~"))).ta1Note).toBe("027");
    expect(refusal(() => readX12(text.replace(/\*>~/, "*>*"))).ta1Note).toBe("004");
    expect(refusal(() => readX12(text.replaceAll("*", "A"))).ta1Note).toBe("026");
    expect(refusal(() => readX12(text.replace("*U*", "*>*"))).reason).toBe("delimiters");
  });

  it("compares huge declared counts without allocating them", () => {
    const text = interchange()
      .replace("SE*5*", "SE*999999999999999999*")
      .replace("GE*1*", "GE*99999999999*")
      .replace("IEA*1*", "IEA*99999*");
    expect(errorCodes(problems(text)).sort()).toEqual(["AK502 4", "AK905 5", "TA105 021"]);
  });

  it("reads thousands of segments in one linear pass", () => {
    const lines: WriteSegment[] = Array.from({ length: 20_000 }, (_, i) => ({
      id: "PO1",
      elements: [String(i + 1), "1", "EA", "1.00", "PE", "VC", `SKU-${i}`],
    }));
    const started = process.cpuUsage();
    const body = bodyOf(interchange({ ...TILDE, lineBreak: "\n" }, lines));
    const { user, system } = process.cpuUsage(started);
    expect(body.length).toBe(20_000);
    expect((user + system) / 1000).toBeLessThan(1000);
  });

  it("reads a group of 50,000 sets reusing one ST02 in linear time (one warning each, the problems capped)", () => {
    const sets = Array.from({ length: 50_000 }, () => "ST*850*0001~SE*2*0001~").join("");
    const text = interchange()
      .replace(/ST\*850.*SE\*5\*0001~/, sets)
      .replace("GE*1*", "GE*50000*");
    const started = process.cpuUsage();
    const [read] = readX12(text).interchanges;
    const { user, system } = process.cpuUsage(started);
    expect(read!.groups[0]!.sets.length).toBe(50_000);
    expect(allProblems(read!).length).toBe(X12_LIMITS.maxProblems);
    expect(errorCodes(allProblems(read!))).toEqual([]);
    expect((user + system) / 1000).toBeLessThan(2000);
  });

  it("refuses an input with more errors than it keeps problems, rather than lose one", () => {
    const broken = Array.from({ length: X12_LIMITS.maxProblems + 1 }, (_, i) => `ST*850*${1000 + i}~SE*9*${1000 + i}~`).join("");
    const text = interchange()
      .replace(/ST\*850.*SE\*5\*0001~/, broken)
      .replace("GE*1*", `GE*${X12_LIMITS.maxProblems + 1}*`);
    expect(refusal(() => readX12(text)).message).toContain("problems");
    const fewer = interchange()
      .replace(/ST\*850.*SE\*5\*0001~/, `${broken.split("~").slice(0, 20).join("~")}~`)
      .replace("GE*1*", "GE*10*");
    expect(errorCodes(problems(fewer))).toEqual(Array(10).fill("AK502 4"));
  });

  it("refuses more segments, elements, element characters or interchanges than its bounds", () => {
    const text = interchange();
    const manySegments = text.replace("PO1*", `${"N9*A~".repeat(X12_LIMITS.maxSegments)}PO1*`);
    expect(refusal(() => readX12(manySegments)).message).toContain("segments");
    const manyElements = text.replace("PO1*", `PO1${"*1".repeat(X12_LIMITS.maxElementsPerSegment + 1)}*`);
    expect(refusal(() => readX12(manyElements)).message).toContain("elements");
    expect(refusal(() => readX12(text.replace("PO1*", `PO1*${"A".repeat(X12_LIMITS.maxElementChars + 1)}*`))).message).toContain(
      "characters",
    );
    expect(refusal(() => readX12(text.replace("PO1*", `PO1${"x".repeat(10_000_000)}`))).reason).toBe("bounds");
    const empty = writeInterchange({ delimiters: TILDE, envelope: ENVELOPE, groups: [] });
    expect(readX12(empty.repeat(X12_LIMITS.maxInterchanges)).interchanges.length).toBe(X12_LIMITS.maxInterchanges);
    expect(refusal(() => readX12(empty.repeat(X12_LIMITS.maxInterchanges + 1))).message).toContain("interchanges");
  });
});
