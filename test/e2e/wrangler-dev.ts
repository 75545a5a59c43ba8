import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startServer } from "../../scripts/bench/server";
import { buildDocsUi } from "../../scripts/build-docs-ui";

/**
 * Global setup of the e2e suite: `wrangler dev` on a free port (never 8787, which `npm start` uses) with
 * its own --persist-to state directory, so it touches neither a developer's local data nor the unit tests.
 */

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export default async function setup(project: TestProject) {
  buildDocsUi();
  const port = await freePort();
  const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-e2e-"));
  const server = await startServer({
    port,
    persistTo,
    vars: { ISSUER: `http://127.0.0.1:${port}/auth` },
    logFile: path.join(persistTo, "wrangler-dev.log"),
  });
  project.provide("baseUrl", server.baseUrl);
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
