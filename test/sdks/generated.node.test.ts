import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { servedOpenApiDocument } from "../../scripts/checks/openapi-document";
import { documentText, keyedWrites, keyedWritesModule, SDK_DOCUMENT_ORIGIN, sdkDocument } from "../../scripts/sdk/document";
import { pythonOperations } from "../../scripts/sdk/python";
import { LATEST_VERSION } from "../../src/platform/versions/calendar";

/**
 * The SDKs and the API's document may not drift apart (sdks/, `npm run sdk:generate`): the committed document is the
 * served one's customer and vendor APIs, the Python SDK's operations are generated from it, the TypeScript SDK's types
 * name each of its operations, and both SDKs' versions are the changelog's. (`npm run sdk:test` regenerates the
 * TypeScript types with openapi-typescript and compares them whole, and runs both SDKs against `npm start`.)
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const committed = JSON.parse(read("sdks/openapi.json")) as { info: { version: string }; paths: Record<string, Record<string, unknown>> };

describe("the SDKs against the document", () => {
  it("sdks/openapi.json is the served document's customer and vendor APIs, at the latest version", async () => {
    const served = sdkDocument(await servedOpenApiDocument(SDK_DOCUMENT_ORIGIN));
    expect(committed.info.version).toBe(LATEST_VERSION);
    expect(documentText(served) === read("sdks/openapi.json"), "run npm run sdk:generate").toBe(true);
    const paths = Object.keys(committed.paths);
    expect(paths).toContain("/customer/api/orders");
    expect(paths).toContain("/vendor/api/order-lines");
    expect(paths.filter((p) => p.startsWith("/admin/") || p.startsWith("/scim/"))).toEqual([]);
  });

  it("the Python SDK's operations are generated from it", () => {
    expect(pythonOperations(committed) === read("sdks/python/medparts/_operations.py"), "run npm run sdk:generate").toBe(true);
  });

  it("both SDKs resend after an ambiguous failure only the writes it declares deduplicated by Idempotency-Key", () => {
    const writes = keyedWrites(committed);
    expect(writes).toContain("POST /customer/api/orders");
    expect(writes).not.toContain("POST /customer/api/webhook-endpoints");
    expect(read("sdks/typescript/src/keyed-writes.ts")).toBe(keyedWritesModule(writes, committed.info.version));
    for (const write of writes) {
      const [method, route] = write.split(" ");
      expect(read("sdks/python/medparts/_operations.py")).toContain(`    ("${method}", "${route}"),`);
    }
  });

  it("the TypeScript SDK's types have every operation of it", () => {
    const schema = read("sdks/typescript/src/schema.ts");
    expect(schema).toContain(`API version ${committed.info.version}`);
    for (const [route, item] of Object.entries(committed.paths)) {
      expect(schema, route).toContain(`"${route}": {`);
      for (const method of Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))) {
        const operationId = (item[method] as { operationId: string }).operationId;
        expect(schema, `${method} ${route}`).toContain(`${operationId}: {`);
      }
    }
  });

  it("each SDK pins the document's version, and the changelog says which SDK version speaks it", () => {
    const version = committed.info.version;
    const typescript = JSON.parse(read("sdks/typescript/package.json")) as { version: string };
    const python = /^version = "([^"]+)"/m.exec(read("sdks/python/pyproject.toml"))?.[1];
    expect(read("sdks/typescript/src/version.ts")).toContain(`"${version}"`);
    expect(read("sdks/typescript/src/version.ts")).toContain(`"${typescript.version}"`);
    expect(read("sdks/python/medparts/_operations.py")).toContain(`API_VERSION = "${version}"`);
    expect(read("sdks/CHANGELOG.md")).toContain(`| ${typescript.version} | ${version} | ${typescript.version} | ${python} |`);
  });
});

describe("the Python SDK", () => {
  it("passes its unit tests (standard library only, no server)", () => {
    const run = spawnSync("python3", ["-m", "unittest", "discover", "-s", "tests", "-p", "test_unit.py"], {
      cwd: path.join(ROOT, "sdks/python"),
      env: { ...process.env, MEDPARTS_REPO: ROOT },
      encoding: "utf8",
    });
    expect(run.status, `${run.stdout}${run.stderr}`.slice(-3000)).toBe(0);
    expect(run.stderr).toMatch(/Ran \d+ tests/);
  });
});
