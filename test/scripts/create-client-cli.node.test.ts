import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseCreateClientArgs, USAGE } from "../../scripts/tools/create-client-args";
import { OPERATOR_SCOPES, VENDOR_SCOPES } from "../../src/platform/principal";

/** Each spawn starts tsx, which takes seconds on a loaded machine. */
const SPAWNING = { timeout: 60_000 };

describe("npm run create-client: the command line", () => {
  it("--help and -h print the usage and exit 0 (the real command, as npm runs it)", SPAWNING, () => {
    for (const flag of ["--help", "-h"]) {
      const run = spawnSync("node_modules/.bin/tsx", ["scripts/tools/create-client.ts", flag], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(USAGE);
    }
  });

  it("an unknown option is a usage error naming it (exit 2), not a stack trace", SPAWNING, () => {
    expect(parseCreateClientArgs(["--tenant", "2", "--name", "x", "--nmae", "y"])).toEqual({
      usageError: expect.stringContaining("--nmae"),
    });
    const run = spawnSync("node_modules/.bin/tsx", ["scripts/tools/create-client.ts", "--frobnicate"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--frobnicate");
    expect(run.stderr).not.toContain("ERR_PARSE_ARGS");
  });

  it("takes exactly one owner, a name, a whole-number id, --test only for a tenant, and scopes of the kind", () => {
    expect(parseCreateClientArgs(["--name", "x"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--tenant", "2", "--vendor", "3", "--name", "x"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--tenant", "2"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--tenant", "2x", "--name", "x"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--vendor", "0", "--name", "x"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--vendor", "4", "--test", "--name", "x"])).toHaveProperty("usageError");
    expect(parseCreateClientArgs(["--operator", "--name", "x", "--scopes", "orders:write"])).toEqual({
      usageError: expect.stringContaining("orders:write"),
    });
  });

  it("parses each kind of owner; scopes default to all of the kind's", () => {
    expect(parseCreateClientArgs(["--tenant", "2", "--name", "Lakeside ERP", "--scopes", "catalog:read orders:write", "--test"])).toEqual({
      owner: { tenantId: 2 },
      name: "Lakeside ERP",
      scopes: ["catalog:read", "orders:write"],
      test: true,
    });
    expect(parseCreateClientArgs(["--vendor", "4", "--name", "WMS"])).toEqual({
      owner: { vendorId: 4 },
      name: "WMS",
      scopes: [...VENDOR_SCOPES],
      test: false,
    });
    expect(parseCreateClientArgs(["--operator", "--name", "Catalog team"])).toEqual({
      owner: { operator: true },
      name: "Catalog team",
      scopes: [...OPERATOR_SCOPES],
      test: false,
    });
  });
});
