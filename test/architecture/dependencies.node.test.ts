import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The dependency rule of the feature-folder layout (README, "What is where"):
 * - `platform/`, `query/` and `db/` import no feature folder: db imports nothing of ours, platform only db and
 *   `env.ts`, query only platform and db;
 * - the composition root (`index.ts`, and `app.ts` which only it imports) is imported by nobody else in src/;
 *   `env.ts` imports only platform;
 * - no import cycle between folders.
 */

const SRC = path.join(import.meta.dirname, "../../src");
const FOUNDATIONS: Record<string, readonly string[]> = {
  db: [],
  platform: ["db", "env.ts"],
  query: ["platform", "db", "env.ts"],
};
const ROOT_FILES = new Set(["app.ts", "index.ts", "env.ts"]);

type Graph = Map<string, Map<string, string>>; // from unit -> (to unit -> an example "file -> file")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** A folder under src/ ("catalog", "platform", ...) or a root file ("app.ts"). */
function unitOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function importGraph(files: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1] ?? match[2]!);
      const from = unitOf(file);
      const to = unitOf(`${target}.ts`);
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      edges.set(to, `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

function violations(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, example] of edges) {
      const allowed = FOUNDATIONS[from];
      if (allowed && !allowed.includes(to)) found.push(`${from}/ may not import ${to}: ${example}`);
      if (from === "env.ts" && to !== "platform") found.push(`env.ts may import only platform/: ${example}`);
      if ((to === "app.ts" && from !== "index.ts") || to === "index.ts")
        found.push(`${to} is the composition root, imported by nobody: ${example}`);
    }
  }
  return found;
}

/** Folder-level cycles (root files excluded: env.ts is every folder's shared type). */
function cycles(graph: Graph): string[][] {
  const folders = (unit: string) => !ROOT_FILES.has(unit);
  const found: string[][] = [];
  const visit = (unit: string, trail: string[]) => {
    for (const next of graph.get(unit)?.keys() ?? []) {
      if (!folders(next)) continue;
      if (next === trail[0]) found.push([...trail, next]);
      else if (!trail.includes(next) && next > trail[0]!) visit(next, [...trail, next]);
    }
  };
  for (const unit of [...graph.keys()].filter(folders).sort()) visit(unit, [unit]);
  return found;
}

/** The files each file imports (relative to src/). */
function fileGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      path.relative(SRC, file),
      [...readFileSync(file, "utf8").matchAll(IMPORT)].map((match) =>
        path.relative(SRC, `${path.resolve(path.dirname(file), match[1] ?? match[2]!).replace(/\.ts$/, "")}.ts`),
      ),
    ]),
  );
}

/** One import cycle between files per file that starts one (depth-first), as the list of files around it. */
function fileCycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    for (const next of graph.get(file) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) found.push([...trail.slice(at), next]);
      else if (!done.has(next) && graph.has(next)) visit(next, [...trail, next]);
    }
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file, [file]);
  return found;
}

describe("source dependency rule", () => {
  const graph = importGraph(sourceFiles(SRC));

  it("has no import cycle between files (env.ts included)", () => {
    expect(fileCycles(fileGraph(sourceFiles(SRC)))).toEqual([]);
    expect(
      fileCycles(
        new Map([
          ["env.ts", ["platform/a.ts"]],
          ["platform/a.ts", ["platform/b.ts"]],
          ["platform/b.ts", ["env.ts"]],
        ]),
      ),
    ).toEqual([["env.ts", "platform/a.ts", "platform/b.ts", "env.ts"]]);
  });

  it("reads the imports of every folder", () => {
    for (const folder of ["auth", "catalog", "orders", "users", "manufacturers", "platform", "query"]) {
      expect(graph.has(folder), folder).toBe(true);
    }
  });

  it("platform/, query/ and db/ import no feature folder; nobody imports the composition root", () => {
    expect(violations(graph)).toEqual([]);
  });

  it("has no import cycle between folders", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("the checks catch a violation and a cycle", () => {
    const bad: Graph = new Map([
      ["platform", new Map([["orders", "platform/x.ts -> orders/y"]])],
      [
        "orders",
        new Map([
          ["catalog", "orders/a.ts -> catalog/b"],
          ["app.ts", "orders/a.ts -> app"],
        ]),
      ],
      ["catalog", new Map([["orders", "catalog/b.ts -> orders/a"]])],
    ]);
    expect(violations(bad)).toEqual([
      "platform/ may not import orders: platform/x.ts -> orders/y",
      "app.ts is the composition root, imported by nobody: orders/a.ts -> app",
    ]);
    expect(cycles(bad)).toEqual([["catalog", "orders", "catalog"]]);
  });
});

describe("cold start: the entry module builds nothing at load", () => {
  it("src/index.ts statically imports only the Durable Object classes, the planes' paths and types; the app comes by dynamic import", () => {
    const source = readFileSync(path.join(SRC, "index.ts"), "utf8");
    const staticImports = [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual(["./platform/idempotency/store", "./platform/planes", "./platform/ratelimit/rate-limiter"]);
    // Which Worker serves a path is decided before the app loads, by a module that imports nothing.
    expect(readFileSync(path.join(SRC, "platform/planes.ts"), "utf8")).not.toMatch(/^import /m);
    expect(source).toMatch(/import\("\.\/app"\)/);
  });
});
