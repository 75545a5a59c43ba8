import { describe, expect, it } from "vitest";
import { wranglerDevArgs } from "../../scripts/dev/local-platform";

describe("local runs (npm start, bench, e2e)", () => {
  it("derive ISSUER from the port, so discovery and tokens name the server that serves them", () => {
    expect(wranglerDevArgs("9123")).toEqual(expect.arrayContaining(["--port", "9123", "--var", "ISSUER:http://localhost:9123/auth"]));
    expect(wranglerDevArgs("8787").join(" ")).toContain("ISSUER:http://localhost:8787/auth");
  });

  it("run the docs Worker beside the API Worker, which reaches it over its DOCS binding", () => {
    expect(wranglerDevArgs("8787").join(" ")).toContain("-c wrangler.toml -c docs-worker/wrangler.toml");
  });

  it("serve /__scheduled, so the Cron Trigger's housekeeping can be run by hand (and wrangler does not warn)", () => {
    expect(wranglerDevArgs("8787")).toContain("--test-scheduled");
  });
});
