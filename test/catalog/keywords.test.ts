import { describe, expect, it } from "vitest";
import { MAX_RANK_TERMS, parseKeywords } from "../../src/shared/catalog/keywords";

describe("parseKeywords: what relevance scores", () => {
  it("a word is looked for as the start of a word; a short one also whole", () => {
    expect(parseKeywords("GE Battery-pack")!.rankTerms).toEqual([" ge ", " ge", " battery", " pack"]);
  });

  it("repeated words score once, and a long query scores at most MAX_RANK_TERMS terms while all its words match", () => {
    expect(parseKeywords("pump pump PUMP")!.rankTerms).toEqual([" pump"]);
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
    const keywords = parseKeywords(words.join(" "))!;
    expect(keywords.rankTerms).toEqual(words.slice(0, MAX_RANK_TERMS).map((word) => ` ${word}`));
    for (const word of words) expect(keywords.match).toContain(`"${word}"*`);
  });
});
