import { describe, expect, it } from "vitest";
import * as zod from "zod";
import * as shim from "../../build/zod-without-locales/index.js";

/**
 * The Worker bundle gets build/zod-without-locales for "zod" (wrangler.toml [alias]). It must stay zod's own entry
 * minus `locales` (and `core.locales`), member for member: after a zod upgrade that adds or moves an export, this fails.
 */
const names = (module: object, without: string) =>
  Object.keys(module)
    .filter((name) => name !== without)
    .sort();

describe("zod without locales (the bundle's zod)", () => {
  it("exports every member of zod's entry but locales, as the same values", () => {
    expect(names(shim, "locales")).toEqual(names(zod, "locales"));
    expect("locales" in shim).toBe(false);
    for (const name of names(zod, "locales").filter((n) => !["z", "default", "core"].includes(n))) {
      expect((shim as Record<string, unknown>)[name], name).toBe((zod as Record<string, unknown>)[name]);
    }
  });

  it("its z and z.core are zod's, minus locales", () => {
    expect(names(shim.z, "locales")).toEqual(names(zod.z, "locales"));
    expect(names(shim.z.core, "locales")).toEqual(names(zod.z.core, "locales"));
    expect("locales" in shim.z.core).toBe(false);
    expect(shim.z.object).toBe(zod.z.object);
    expect(shim.z.core.$ZodType).toBe(zod.z.core.$ZodType);
  });
});
