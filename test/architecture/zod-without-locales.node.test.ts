import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import * as shim from "../../build/zod-without-locales/index.js";

/**
 * The Worker bundle gets build/zod-without-locales for "zod" (wrangler.toml [alias]). It must stay zod's own entry
 * minus what the API never uses, member for member: `locales` (and `core.locales`), 40-odd translations of zod's
 * messages, and `fromJSONSchema`, which reads JSON Schema into zod (12 KB). After a zod upgrade that adds or moves an
 * export, this fails.
 */
const LEFT_OUT = ["locales", "fromJSONSchema"];
const names = (module: object, without: readonly string[] = LEFT_OUT) =>
  Object.keys(module)
    .filter((name) => !without.includes(name))
    .sort();

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : [],
  );

describe("zod without locales (the bundle's zod)", () => {
  it("exports every member of zod's entry but what it leaves out, as the same values", () => {
    expect(names(shim)).toEqual(names(zod));
    for (const name of LEFT_OUT) expect(name in shim, name).toBe(false);
    for (const name of names(zod).filter((n) => !["z", "default", "core"].includes(n))) {
      expect((shim as Record<string, unknown>)[name], name).toBe((zod as Record<string, unknown>)[name]);
    }
  });

  it("its z and z.core are zod's, minus what it leaves out", () => {
    expect(names(shim.z)).toEqual(names(zod.z));
    expect(names(shim.z.core)).toEqual(names(zod.z.core));
    expect("locales" in shim.z.core).toBe(false);
    expect(shim.z.object).toBe(zod.z.object);
    expect(shim.z.core.$ZodType).toBe(zod.z.core.$ZodType);
  });

  it("nothing in the Workers' code uses what it leaves out", () => {
    const root = path.join(import.meta.dirname, "../../src");
    const users = sourceFiles(root).filter((file) => /\bfromJSONSchema\b|\.locales\b/.test(readFileSync(file, "utf8")));
    expect(users).toEqual([]);
  });
});
