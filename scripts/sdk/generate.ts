import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cliArgs } from "../cli";

/**
 * `npm run sdk:generate`: both SDKs rebuilt from the API's latest document. sdks/openapi.json is the document they are
 * made from (the customer and vendor APIs: ./document.ts); the TypeScript SDK's types come from openapi-typescript
 * (sdks/typescript/scripts/generate.mjs, with the SDK's own TypeScript 5: openapi-typescript does not run on 7), the
 * Python SDK's operations from ./python.ts. `npm test` fails when the committed files are not what this writes.
 */
cliArgs("sdk:generate", "Rebuilds sdks/openapi.json, the TypeScript SDK's src/schema.ts and the Python SDK's medparts/_operations.py.", {});

const ROOT = path.resolve(import.meta.dirname, "../..");
export const SDK_PATHS = {
  document: path.join(ROOT, "sdks/openapi.json"),
  typescript: path.join(ROOT, "sdks/typescript"),
  python: path.join(ROOT, "sdks/python/medparts/_operations.py"),
};

const [
  { servedOpenApiDocument },
  { documentText, keyedWrites, keyedWritesModule, SDK_DOCUMENT_ORIGIN, sdkDocument },
  { pythonOperations },
] = await Promise.all([import("../checks/openapi-document"), import("./document"), import("./python")]);

const document = sdkDocument(await servedOpenApiDocument(SDK_DOCUMENT_ORIGIN));
writeFileSync(SDK_PATHS.document, documentText(document));
writeFileSync(SDK_PATHS.python, pythonOperations(document));
writeFileSync(path.join(SDK_PATHS.typescript, "src/keyed-writes.ts"), keyedWritesModule(keyedWrites(document), document.info.version));
console.log(`sdks/openapi.json and sdks/python/medparts/_operations.py: API version ${document.info.version}`);

/** The TypeScript SDK's own dependencies, from its lockfile, when they are not there yet. */
function ensureInstalled(dir: string): void {
  if (existsSync(path.join(dir, "node_modules/openapi-typescript"))) return;
  const run = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`npm ci in ${dir} failed`);
}
ensureInstalled(SDK_PATHS.typescript);
const generated = spawnSync(process.execPath, ["scripts/generate.mjs", SDK_PATHS.document], {
  cwd: SDK_PATHS.typescript,
  stdio: "inherit",
});
if (generated.status !== 0) throw new Error("the TypeScript SDK's generator failed");
