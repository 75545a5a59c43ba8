import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allProblems } from "../../src/operator/edi/x12/envelope";
import { ISA_LENGTH } from "../../src/operator/edi/x12/isa";
import { readX12 } from "../../src/operator/edi/x12/reader";
import {
  type WriteDelimiters,
  type WriteInterchange,
  type WriteSegment,
  writeInterchange,
  X12WriteError,
} from "../../src/operator/edi/x12/writer";
import { runs } from "../helpers/depth";

/** The X12 writer: fixed-width ISA, computed counts, refused collisions; what it writes reads back the same. */

const ENVELOPE = {
  senderQualifier: "ZZ",
  senderId: "MEDPARTS",
  receiverQualifier: "01",
  receiverId: "123456789",
  date: "261207",
  time: "1045",
  version: "00501",
  controlNumber: 42,
  acknowledgmentRequested: true,
  usage: "P" as const,
};
const GROUP = {
  functionalId: "PO",
  senderId: "MEDPARTS",
  receiverId: "123456789",
  date: "20261207",
  time: "1045",
  controlNumber: 7,
  version: "005010",
};
const DELIMITERS: WriteDelimiters = { element: "*", component: ":", repetition: "^", segment: "~", lineBreak: "\n" };
const write = (overrides: Partial<WriteInterchange> = {}, segments: WriteSegment[] = [{ id: "BEG", elements: ["00", "SA", "PO-1"] }]) =>
  writeInterchange({
    delimiters: DELIMITERS,
    envelope: ENVELOPE,
    groups: [{ envelope: GROUP, sets: [{ id: "850", controlNumber: 3, segments }] }],
    ...overrides,
  });

describe("the X12 writer", () => {
  it("pads the ISA to 106 characters, zero-pads control numbers and computes every count", () => {
    const text = write();
    const lines = text.split("\n");
    expect(lines[0]!.length).toBe(ISA_LENGTH);
    expect(lines[0]).toBe("ISA*00*          *00*          *ZZ*MEDPARTS       *01*123456789      *261207*1045*^*00501*000000042*1*P*:~");
    expect(lines.slice(1)).toEqual([
      "GS*PO*MEDPARTS*123456789*20261207*1045*7*X*005010~",
      "ST*850*0003~",
      "BEG*00*SA*PO-1~",
      "SE*3*0003~",
      "GE*1*7~",
      "IEA*1*000000042~",
      "",
    ]);
    expect(readX12(text).interchanges.flatMap(allProblems)).toEqual([]);
  });

  it("omits trailing empty elements and writes composites and repetitions with their separators", () => {
    const text = write({}, [
      { id: "SLN", elements: ["1", "", "I", { components: ["EA", "2"] }, { repetitions: ["A", { components: ["B", "C"] }] }, "", ""] },
    ]);
    expect(text).toContain("SLN*1**I*EA:2*A^B:C~");
  });

  it("refuses delimiters that collide, letters, digits, whitespace, and data that holds a delimiter", () => {
    const refused = (run: () => unknown, message: RegExp) => expect(run).toThrow(message);
    refused(() => write({ delimiters: { ...DELIMITERS, component: "*" } }), /delimiters collide/);
    refused(() => write({ delimiters: { ...DELIMITERS, repetition: "~" } }), /delimiters collide/);
    refused(() => write({ delimiters: { ...DELIMITERS, element: "A" } }), /neither a letter/);
    refused(() => write({ delimiters: { ...DELIMITERS, segment: "\n" } }), /neither a letter/);
    refused(() => write({ delimiters: { ...DELIMITERS, segment: "~~" } }), /one UTF-16 character/);
    refused(() => write({ delimiters: { ...DELIMITERS, segment: "\u{1F600}" } }), /one UTF-16 character/);
    refused(() => write({}, [{ id: "N1", elements: ["ST", "A*B"] }]), /N102 'A\*B' contains the delimiter '\*'/);
    refused(() => write({}, [{ id: "N1", elements: ["ST", "A^B"] }]), /contains the delimiter '\^'/);
    refused(() => write({}, [{ id: "N1", elements: ["ST", "A\nB"] }]), /line break/);
    refused(() => write({ envelope: { ...ENVELOPE, senderId: "A-SENDER-ID-TOO-LONG" } }), /ISA06/);
    refused(() => write({ envelope: { ...ENVELOPE, controlNumber: 1_000_000_000 } }), /ISA13/);
    refused(() => write({}, [{ id: "SE", elements: ["1"] }]), /envelope segment/);
    refused(
      () => write({ delimiters: { element: "*", component: ":", segment: "~" } }, [{ id: "N1", elements: [{ repetitions: ["A"] }] }]),
      /no repetition separator/,
    );
    expect(() => write({ delimiters: { ...DELIMITERS, component: "*" } })).toThrow(X12WriteError);
  });

  it("writes segments that read back the same, for any valid delimiters and contents free of them", () => {
    const punctuation = [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];
    const delimiters = fc.shuffledSubarray(punctuation, { minLength: 4, maxLength: 4 }).chain(([element, component, repetition, segment]) =>
      fc.record({
        element: fc.constant(element!),
        component: fc.constant(component!),
        repetition: fc.constant(repetition!),
        segment: fc.constant(segment!),
        lineBreak: fc.constantFrom("" as const, "\n" as const, "\r\n" as const),
      }),
    );
    const property = fc.property(
      delimiters,
      fc.array(
        fc.tuple(
          fc.stringMatching(/^[A-Z][A-Z0-9]{1,2}$/),
          fc.array(fc.string({ unit: fc.constantFrom(...punctuation, ..."AZaz09 é"), maxLength: 12 }), { maxLength: 8 }),
        ),
        { minLength: 1, maxLength: 20 },
      ),
      (chosen, raw) => {
        const used = new Set([chosen.element, chosen.component, chosen.repetition, chosen.segment]);
        const segments = raw
          .filter(([id]) => !["ISA", "IEA", "GS", "GE", "ST", "SE", "TA1", "ISB", "ISE"].includes(id))
          .map(([id, values]) => ({
            id,
            elements: values.map((value) =>
              [...value]
                .filter((char) => !used.has(char))
                .join("")
                .trim(),
            ),
          }));
        const text = write({ delimiters: chosen }, segments);
        const [interchange] = readX12(text).interchanges;
        const set = interchange!.groups[0]!.sets[0]!;
        const withoutTrailingEmpty = (elements: string[]) => {
          const kept = [...elements];
          while (kept.at(-1) === "") kept.pop();
          return kept;
        };
        expect(set.segments.slice(1, -1)).toEqual(segments.map(({ id, elements }) => ({ id, elements: withoutTrailingEmpty(elements) })));
        expect(interchange!.delimiters).toEqual({
          element: chosen.element,
          component: chosen.component,
          repetition: chosen.repetition,
          segment: chosen.segment,
        });
        expect(readX12(text, { syntax: false }).interchanges.flatMap(allProblems)).toEqual([]);
      },
    );
    fc.assert(property, { numRuns: runs({ quick: 300, deep: 5_000 }) });
  });
});
