import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
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

async function waitUntilServing(url: string, child: { exitCode: number | null }, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer ${url} within 90 s:\n${output()}`);
}

export default async function setup(project: TestProject) {
  buildDocsUi();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-e2e-"));
  const child = spawn(
    "node_modules/.bin/wrangler",
    ["dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo, "--var", `ISSUER:${baseUrl}/auth`, "--show-interactive-dev-session=false"],
    { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } },
  );
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM"); // its own process group: wrangler and the workerd it started
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    rmSync(persistTo, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(`${baseUrl}/health/live`, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide("baseUrl", baseUrl);
  return stop;
}
