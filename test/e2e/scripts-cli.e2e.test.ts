import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOADED_PACKAGES_MARK } from "./loaded-packages";

/**
 * Every `npm run` script of ours (package.json's `tsx scripts/...` entries), run as a user would. In the e2e suite, not
 * `npm test`: some 60 starts of a script in all, and those that reach the local platform load it (about 4 s of CPU).
 */

const ROOT = path.join(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const STACK_LINE = /^\s+at .+[:(]/m;
/** The scripts a person runs by hand. */
const BY_HAND = ["start", "demo", "import", "create-client", "webhook-listener", "seed", "build", "medparts"];
/** The packages that take seconds to load: a script imports them only once its command line is sound. */
const SLOW_PACKAGES = ["wrangler", "miniflare", "workerd", "esbuild", "autocannon", "@hono/zod-openapi"];
const LOADED_PACKAGES = path.join(import.meta.dirname, "loaded-packages.ts");
const slowOf = (packages: string[]) => packages.filter((loaded) => SLOW_PACKAGES.includes(loaded));

const scripts = Object.entries(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>)
  .map(([name, command]) => [name, /^tsx (scripts\/\S+\.ts)$/.exec(command)?.[1]] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

function run(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; packages: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ["--import", LOADED_PACKAGES, file, ...args], { cwd: ROOT, env: { ...process.env, DEBUG: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("close", (code) => {
      const [before, packages = ""] = stderr.split(`\n${LOADED_PACKAGES_MARK}`);
      resolve({ code, stdout, stderr: before!, packages: packages.trim().split(" ").filter(Boolean) });
    });
  });
}

/** Runs `f` over `items`, `limit` at a time. */
async function pooled<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await f(items[i]!);
      }
    }),
  );
  return results;
}

describe("the scripts' command line", () => {
  it("lists the scripts it checks: every tsx entry of package.json", () => {
    expect(scripts.map(([name]) => name)).toEqual(
      expect.arrayContaining(["start", "demo", "import", "create-client", "webhook-listener", "seed"]),
    );
    expect(scripts.length).toBeGreaterThan(20);
  });

  it("every script answers --help with its usage (exit 0), and a wrong option with a usage error (exit 2), never a stack trace, before loading the slow packages", async () => {
    // Every script's --help; a wrong option on those a person runs by hand (the rest parse with the same cliArgs).
    const outcomes = await pooled(scripts, 3, async ([name, file]) => {
      const help = await run(file, ["--help"]);
      const wrong = BY_HAND.includes(name) ? await run(file, ["--no-such-option"]) : undefined;
      return { name, help, wrong };
    });
    for (const { name, help, wrong } of outcomes) {
      expect(help.code, `${name} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout, name).toContain(`usage: npm run ${name}`);
      expect(slowOf(help.packages), `${name} --help`).toEqual([]);
      if (!wrong) continue;
      expect(wrong.code, `${name} --no-such-option: ${wrong.stdout}${wrong.stderr}`).toBe(2);
      expect(slowOf(wrong.packages), `${name} --no-such-option`).toEqual([]);
      expect(wrong.stderr, name).toContain("no-such-option");
      expect(wrong.stderr, name).not.toMatch(STACK_LINE);
    }
    expect(
      outcomes
        .filter((o) => o.wrong)
        .map((o) => o.name)
        .sort(),
    ).toEqual([...BY_HAND].sort());
  }, 180_000);

  it("the scripts that call the API say which URL they could not reach, without a stack trace, and take --url and PORT alike", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-"));
    try {
      const file = path.join(dir, "catalog.ndjson");
      writeFileSync(file, '{"productId":"X"}\n');
      const nowhere = "http://127.0.0.1:59999"; // nothing listens there
      const cases = [
        ["scripts/tools/webhook-listener.ts", ["--url", nowhere, "--port", "18790", "--client-id", "a", "--client-secret", "b"], {}],
        ["scripts/tools/import.ts", [file, "--url", nowhere, "--client-id", "a", "--client-secret", "b"], {}],
        ["scripts/tools/import.ts", [file, "--client-id", "a", "--client-secret", "b"], { PORT: "59999" }],
        ["scripts/demo/demo.ts", ["--url", nowhere], { MEDPARTS_CLIENT_ID: "a", MEDPARTS_CLIENT_SECRET: "b" }],
        ["scripts/tools/medparts.ts", ["logs", "tail", "--url", nowhere, "--client-id", "a", "--client-secret", "b"], {}],
        ["scripts/tools/medparts.ts", ["trigger", "order.shipped", "--client-id", "mpc_test_a", "--client-secret", "b"], { PORT: "59999" }],
      ] as const;
      // trigger places real orders: a client that is not a test-mode one is refused before anything is sent (exit 2).
      const live = await run("scripts/tools/medparts.ts", [
        "trigger",
        "order.shipped",
        "--client-id",
        "a",
        "--client-secret",
        "b",
        "--url",
        nowhere,
      ]);
      expect(live.code, `trigger with a live client: ${live.stderr}`).toBe(2);
      expect(live.stderr).toContain("test mode only");
      for (const [script, args, env] of cases) {
        const { code, stdout, stderr } = await run(script, [...args], env);
        expect(code, `${script} ${args.join(" ")}: ${stdout}${stderr}`).toBe(1);
        expect(stderr, script).toContain(nowhere.replace("http://127.0.0.1", ""));
        expect(stderr, script).not.toMatch(STACK_LINE);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
