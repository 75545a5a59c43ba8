import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliArgs } from "../cli";

cliArgs("lint:openapi", "Lints the served OpenAPI document with Spectral and Redocly; any error fails.", {});

/**
 * `npm run lint:openapi` (in .ci/run): the OpenAPI document exactly as the Worker serves it, linted by Spectral
 * (`spectral:oas`) and Redocly (`recommended`). Any error fails; warnings are printed for the reader.
 */
// Imported after the command line: the API's app takes seconds to load, --help none.
const { servedOpenApiDocument } = await import("./openapi-document");
const document = await servedOpenApiDocument("http://localhost:8787");
const dir = mkdtempSync(path.join(tmpdir(), "medparts-openapi-"));
const file = path.join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(document, null, 2));

const run = (command: string, args: string[]) => spawnSync(`node_modules/.bin/${command}`, args, { stdio: "inherit" }).status === 0;
try {
  const spectral = run("spectral", ["lint", file, "--ruleset", ".spectral.yaml", "--fail-severity", "error", "--display-only-failures"]);
  const redocly = run("redocly", ["lint", file, "--extends", "recommended", "--format", "stylish"]);
  if (!spectral || !redocly) {
    console.error(`OpenAPI lint failed: ${[!spectral && "Spectral", !redocly && "Redocly"].filter(Boolean).join(" and ")} reported errors`);
    process.exitCode = 1;
  } else {
    console.log("OpenAPI lint: no errors (Spectral spectral:oas, Redocly recommended)");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
