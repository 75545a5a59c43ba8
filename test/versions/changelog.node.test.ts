import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changelogTable } from "../../src/versions/changelog";

describe("the changelog", () => {
  it("docs/api.md's versions table is the one generated from the version changes (npm run changelog)", () => {
    const api = readFileSync(path.join(import.meta.dirname, "../../docs/api.md"), "utf8");
    expect(api).toContain(changelogTable());
  });
});
