import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GS1_AIS, readGs1 } from "../../src/shared/udi/gs1";

/**
 * The unit-test vectors of GS1's Barcode Syntax Engine, the reference parser, each with the engine's verdict under its
 * default options (shared/test-data/gs1-engine/README.md), read in place beside the repository. A vector whose verdict
 * depends on an engine option (`dependsOn`: associations of a lone lot, zero-suppressed GTINs, unknown AIs, convenience
 * alphas) states no rule of GS1 data and is not checked. Every other one must get the engine's verdict, and a valid one
 * the engine's AIs and values; except that a valid vector using an AI Medparts does not read (coupons, digital
 * signatures, GRAI...) must be refused as `unknown_ai`, naming one of those AIs (docs/decisions.md).
 */

interface Vector {
  id: string;
  source: string;
  kind: string;
  input: string;
  expectValid: boolean;
  expectAIs?: Record<string, string>;
  engineError?: string;
  dependsOn?: string[];
}

const FILE = path.join(import.meta.dirname, "../../../shared/test-data/gs1-engine/vectors.json");
const vectors = JSON.parse(readFileSync(FILE, "utf8")) as Vector[];
const NOW = new Date("2026-11-26T12:00:00Z");
const READ = new Set(GS1_AIS.map(({ ai }) => ai));

const checked = vectors.filter((vector) => !vector.dependsOn);
const notRead = (vector: Vector) => Object.keys(vector.expectAIs ?? {}).filter((ai) => !READ.has(ai));
const named = (vector: Vector) => `${vector.id} ${JSON.stringify(vector.input)} (${vector.source})`;

describe("GS1 Barcode Syntax Engine vectors", () => {
  it("the file is the one reviewed: 1,012 vectors, 948 of them independent of the engine's options", () => {
    expect(vectors).toHaveLength(1012);
    expect(checked).toHaveLength(948);
    // Most of the independent vectors are compared in full, not set aside as using AIs Medparts does not read.
    expect(checked.filter((vector) => notRead(vector).length === 0).length).toBeGreaterThan(890);
  });

  it.each(checked.filter((vector) => !vector.expectValid).map((vector) => [named(vector), vector] as const))(
    "refuses what the engine refuses: %s",
    (_, vector) => {
      const reading = readGs1(vector.input, NOW);
      expect(reading.ok, `the engine says: ${vector.engineError}; read as ${JSON.stringify(reading)}`).toBe(false);
    },
  );

  it.each(checked.filter((vector) => vector.expectValid && notRead(vector).length === 0).map((vector) => [named(vector), vector] as const))(
    "reads what the engine reads, to the same AIs: %s",
    (_, vector) => {
      const reading = readGs1(vector.input, NOW);
      if (!reading.ok) throw new Error(`refused: ${reading.problem.message}`);
      expect(Object.fromEntries(reading.elements.map((element) => [element.ai, element.value]))).toEqual(vector.expectAIs);
    },
  );

  it.each(checked.filter((vector) => notRead(vector).length > 0).map((vector) => [named(vector), vector] as const))(
    "refuses by name an AI Medparts does not read: %s",
    (_, vector) => {
      const reading = readGs1(vector.input, NOW);
      expect(reading).toMatchObject({ ok: false, problem: { code: "unknown_ai" } });
      expect(notRead(vector)).toContain((reading as { problem: { element: string } }).problem.element);
    },
  );
});
