import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The portal copies Scalar's prebuilt browser build out of @scalar/api-reference (scripts/portal/build.ts); the
 * package's own dependencies are its sources' and are never used. package.json's overrides install a stub
 * (build/scalar-dependency-stub) for each of them, so that npm ci does not bring in ~300 MB, the Vercel AI SDK of
 * Scalar's agent chat among it. After a Scalar upgrade that adds a dependency, the first test names it.
 */

const ROOT = path.join(import.meta.dirname, "../..");
const STUB = "build/scalar-dependency-stub";
const SCALAR = "node_modules/@scalar/api-reference";

interface LockedPackage {
  version?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockedPackage> };

/** The lock entry npm installs for `name` as required by the package at `from`: its own node_modules first, then the root's. */
const installedFor = (from: string, name: string) => lock.packages[`${from}/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];

describe("Scalar's dependencies", () => {
  it("every dependency of @scalar/api-reference is the stub, not the package", () => {
    const dependencies = Object.keys(lock.packages[SCALAR]?.dependencies ?? {});
    expect(dependencies.length).toBeGreaterThan(0);
    const real = dependencies.filter((name) => installedFor(SCALAR, name)?.resolved !== STUB);
    expect(real, "add these to overrides['@scalar/api-reference'] in package.json").toEqual([]);
  });

  it("the lock holds neither Scalar's agent chat nor the AI SDK", () => {
    const agentChat = Object.keys(lock.packages).filter(
      (key) => /(?:^|\/)node_modules\/(?:ai|@ai-sdk\/[^/]+|@scalar\/agent-chat)$/.test(key) && lock.packages[key]!.resolved !== STUB,
    );
    expect(agentChat).toEqual([]);
  });
});
