import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCodeInfo, type Scope, type ScopePart } from "../../src/shared/recalls/code-info";
import { matchUnit } from "../../src/shared/recalls/match";
import { runs } from "../helpers/depth";

/**
 * code_info read into clauses and matched against delivered units (docs/recalls.md), on the shared test data: the 46
 * derived cases (a real code_info and a synthetic unit each, with the expected outcome) all give it.
 */

const RECALLS = path.join(import.meta.dirname, "../../../shared/test-data/recalls");
const cases = JSON.parse(readFileSync(path.join(RECALLS, "derived-match-cases.json"), "utf8")).cases as {
  id: string;
  code_info: string;
  recall: { catalog_in_product_description?: string };
  unit: Record<string, string>;
  expected: string;
  why: string;
}[];

describe("recall scopes on the derived match cases", () => {
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const scope = parseCodeInfo(c.code_info, c.recall.catalog_in_product_description ? [c.recall.catalog_in_product_description] : []);
    const match = matchUnit(scope, c.unit);
    expect({ outcome: match.outcome, why: c.why }, `${match.reason}\n${JSON.stringify(scope)}`).toEqual({
      outcome: c.expected,
      why: c.why,
    });
  });
});

const corpus = JSON.parse(readFileSync(path.join(RECALLS, "code-info-corpus.json"), "utf8")).items as {
  recall_number: string;
  code_info: string;
  tags: string[];
}[];

const partsOf = (scope: Scope): ScopePart[] => [scope, ...scope.groups];
const some = (scope: Scope, has: (part: ScopePart) => boolean) => partsOf(scope).some(has);

/** What a string's tags (test-data/recalls/README.md) say the reading must find. */
const EXPECTATIONS: [RegExp, string, (scope: Scope) => boolean][] = [
  [
    /^(gtin14|gtin_ai01|gtin_ai01_spaced|gtin_ai01_list|udi_di_gtin14|di_each_and_case|gs1_element_string|gs1_unbracketed_element_string|udi_di_packaging_level|di_package_levels|gtin12|gtin13|ean13)$/,
    "a device identifier",
    (scope) => some(scope, (part) => part.deviceIds.length + part.labels.length > 0),
  ],
  [
    /^(lot_list|lot_single|lot_expiry_pairs|lot_list_space_separated|missing_comma|trailing_separator)$/,
    "a lot",
    (scope) => some(scope, (part) => part.lots.length + part.labels.length > 0 || part.lotRanges.length > 0),
  ],
  [
    /^lot_expiry_pairs$/,
    "a lot with its expiry",
    (scope) => some(scope, (part) => part.lots.some((lot) => lot.expiry) || part.labels.some((label) => label.expiry)),
  ],
  [/^(serial_list|serial_list_leading_zeros|serial_single)$/, "a serial", (scope) => some(scope, (part) => part.serials.length > 0)],
  [
    /^all_lots_in_date_range$/,
    "a production window",
    (scope) => some(scope, (part) => part.allLots?.from != null && part.allLots.to != null),
  ],
  [/^(masked_lot|masked_lot_range)$/, "masked lots", (scope) => some(scope, (part) => part.lotsMasked)],
  [/^di_13_digit_typo$/, "a device identifier typo", (scope) => scope.deviceIdTypos.length > 0],
  [/^(numbered_groups|per_part_number_groups)$/, "groups", (scope) => scope.groups.length >= 2],
  [/^serial_open_ended_cutoff$/, "a serial cutoff", (scope) => some(scope, (part) => part.serialsUpTo !== null)],
  [/^(serial_range_fixed_width)$/, "a serial range", (scope) => some(scope, (part) => part.serialRanges.length > 0)],
  [
    /^(serial_range_mixed_formats|serial_pending|serials_in_attachment)$/,
    "unreadable serials",
    (scope) => some(scope, (part) => part.serialsUnreadable !== null),
  ],
  [/^all_units_condition$/, "a condition", (scope) => scope.conditions.length > 0],
];

describe("recall scopes on the 59 real code_info strings", () => {
  it.each(corpus.map((item) => [item.recall_number, item] as const))("%s reads what its tags say", (_number, item) => {
    const scope = parseCodeInfo(item.code_info);
    const missing = EXPECTATIONS.filter(([tags, , found]) => item.tags.some((tag) => tags.test(tag)) && !found(scope)).map(
      ([, what]) => what,
    );
    expect(missing, `${item.code_info}\n${JSON.stringify(scope)}`).toEqual([]);
  });

  it("keeps what it cannot read: the text no rule reads is in unread, verbatim", () => {
    const scope = parseCodeInfo("S8698GX    UDI-DI 20612479214716    Lot D5M3438FY");
    expect(scope.unread).toEqual(["S8698GX"]);
    expect(scope.deviceIds).toEqual(["20612479214716"]);
    expect(scope.lots).toEqual([{ lot: "D5M3438FY" }]);
  });
});

/**
 * Properties over generated notices: a lot list under a device identifier, written with any of the separators real
 * notices use. Lots are made of digits and letters no label starts with (a lot "REF123" would read as a label).
 */
const LOT = fc.stringMatching(/^[DFHJKQVWYZ]{1,2}[0-9]{3,7}[DFHJKQVWYZ]?$/);
const SEPARATOR = fc.constantFrom(", ", "; ", "  ", " & ", ",", " and ");
const DI = "00191072179593";
const OTHER_DI = "00191072179609";
/** A code as another record writes it: any case, spaces inside. */
const respelled = (code: string) =>
  fc
    .array(fc.boolean(), { minLength: code.length, maxLength: code.length })
    .chain((flips) => fc.array(fc.boolean(), { minLength: code.length, maxLength: code.length }).map((spaces) => ({ flips, spaces })))
    .map(({ flips, spaces }) =>
      [...code].map((c, i) => `${flips[i] ? c.toLowerCase() : c}${spaces[i] && i < code.length - 1 ? " " : ""}`).join(""),
    );

describe("recall scope properties", () => {
  const notice = fc.record({ lots: fc.uniqueArray(LOT, { minLength: 1, maxLength: 12 }), separator: SEPARATOR, lower: fc.boolean() });
  const text = (lots: string[], separator: string, lower: boolean) =>
    `UDI-DI: ${DI}; Lot Numbers: ${lots.map((lot) => (lower ? lot.toLowerCase() : lot)).join(separator)}`;

  it("a listed lot always matches, whatever its spacing and case", () => {
    fc.assert(
      fc.property(
        notice.chain((n) => fc.record({ n: fc.constant(n), lot: fc.constantFrom(...n.lots).chain(respelled) })),
        ({ n, lot }) => {
          const match = matchUnit(parseCodeInfo(text(n.lots, n.separator, n.lower)), { di: DI, lot });
          expect(match.outcome, match.reason).toBe("affected");
        },
      ),
      { numRuns: runs({ quick: 200, deep: 5000 }) },
    );
  });

  it("a unit outside every clause never matches: another lot, or another device", () => {
    fc.assert(
      fc.property(notice, LOT, fc.boolean(), (n, lot, otherDevice) => {
        fc.pre(!n.lots.some((listed) => listed.replace(/^0+/, "") === lot.replace(/^0+/, "")));
        const match = matchUnit(parseCodeInfo(text(n.lots, n.separator, n.lower)), { di: otherDevice ? OTHER_DI : DI, lot });
        expect(match.outcome, match.reason).toBe("not_affected");
        const listedLot = matchUnit(parseCodeInfo(text(n.lots, n.separator, n.lower)), { di: OTHER_DI, lot: n.lots[0] });
        expect(listedLot.outcome, listedLot.reason).toBe("not_affected");
      }),
      { numRuns: runs({ quick: 200, deep: 5000 }) },
    );
  });
});
