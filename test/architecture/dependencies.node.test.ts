import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layout says which Worker runs a module (docs/architecture.md, "Layout"), and this test holds it to that:
 * - `api/` is the API Worker's own code (its entry `api/index.ts`, `api/app.ts`, and the features only it serves);
 *   `operator/` the operator plane's Worker (`operator/index.ts`, `operator/app.ts`, and its features); `shared/` the
 *   features both Workers run; `dev/` what only scripts and tests use (the seed, the API client);
 * - the API Worker never imports operator-plane code, `shared/` imports neither Worker's own code, and no Worker
 *   module imports `dev/`;
 * - `platform/`, `query/` and `db/` import no feature: db imports nothing of ours, platform only db and `env.ts`,
 *   query only platform and db; `env.ts` imports only platform;
 * - a plane's entry (`index.ts`) is imported by nobody, its `app.ts` only by its entry;
 * - no import cycle between features.
 */

const SRC = path.join(import.meta.dirname, "../../src");
const FOUNDATIONS: Record<string, readonly string[]> = {
  db: [],
  platform: ["db", "env.ts"],
  query: ["platform", "db", "env.ts"],
  versions: ["platform"],
};
const PLANES = ["api", "operator", "shared", "dev"] as const;
type Plane = (typeof PLANES)[number] | "foundation";
/** What each plane may import besides itself and the foundations. */
const PLANE_IMPORTS: Record<Plane, readonly Plane[]> = {
  api: ["shared"],
  operator: ["shared"],
  shared: [],
  dev: ["api", "operator", "shared"],
  foundation: [],
};

type Graph = Map<string, Map<string, string>>; // from unit -> (to unit -> an example "file -> file")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** A feature ("api/orders", "shared/catalog"), a plane's own file ("api/app.ts"), a foundation ("platform") or "env.ts". */
function unitOf(file: string): string {
  const [first, second] = path.relative(SRC, file).split(path.sep);
  return (PLANES as readonly string[]).includes(first!) ? `${first}/${second}` : first!;
}

const planeOf = (unit: string): Plane => {
  const first = unit.split("/")[0]!;
  return (PLANES as readonly string[]).includes(first) ? (first as Plane) : "foundation";
};
const isEntry = (unit: string) => /^(api|operator)\/index\.ts$/.test(unit);
const isApp = (unit: string) => /^(api|operator)\/app\.ts$/.test(unit);

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
      const [fromPlane, toPlane] = [planeOf(from), planeOf(to)];
      if (fromPlane !== "foundation" && toPlane !== "foundation" && toPlane !== fromPlane && !PLANE_IMPORTS[fromPlane].includes(toPlane))
        found.push(`${fromPlane}/ may not import ${toPlane}/: ${example}`);
      if (isEntry(to) || (isApp(to) && from !== to.replace("app.ts", "index.ts")))
        found.push(`${to} is a Worker's composition root, imported by nobody but its entry: ${example}`);
    }
  }
  return found;
}

/** Feature-level cycles (env.ts excluded: it is every folder's shared type). */
function cycles(graph: Graph): string[][] {
  const folders = (unit: string) => unit !== "env.ts";
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
    for (const folder of ["shared/auth", "shared/catalog", "api/orders", "operator/scim", "dev/seed", "api/app.ts", "platform", "query"]) {
      expect(graph.has(folder), folder).toBe(true);
    }
  });

  it("the API Worker imports no operator-plane code, shared/ neither Worker's, no Worker dev/; foundations no feature; nobody the roots", () => {
    expect(violations(graph)).toEqual([]);
  });

  it("has no import cycle between folders", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("the checks catch a violation and a cycle", () => {
    const bad: Graph = new Map([
      ["platform", new Map([["api/orders", "platform/x.ts -> api/orders/y"]])],
      [
        "api/orders",
        new Map([
          ["api/catalog", "api/orders/a.ts -> api/catalog/b"],
          ["api/app.ts", "api/orders/a.ts -> api/app"],
          ["operator/offers", "api/orders/a.ts -> operator/offers/c"],
        ]),
      ],
      ["api/catalog", new Map([["api/orders", "api/catalog/b.ts -> api/orders/a"]])],
      ["shared/users", new Map([["api/orders", "shared/users/d.ts -> api/orders/a"]])],
      ["operator/scim", new Map([["dev/seed", "operator/scim/e.ts -> dev/seed/f"]])],
      ["api/index.ts", new Map([["api/app.ts", "api/index.ts -> api/app"]])],
    ]);
    expect(violations(bad)).toEqual([
      "platform/ may not import api/orders: platform/x.ts -> api/orders/y",
      "api/app.ts is a Worker's composition root, imported by nobody but its entry: api/orders/a.ts -> api/app",
      "api/ may not import operator/: api/orders/a.ts -> operator/offers/c",
      "shared/ may not import api/: shared/users/d.ts -> api/orders/a",
      "operator/ may not import dev/: operator/scim/e.ts -> dev/seed/f",
    ]);
    expect(cycles(bad)).toEqual([["api/catalog", "api/orders", "api/catalog"]]);
  });
});

describe("cold start: the entry module builds nothing at load", () => {
  it("src/api/index.ts statically imports only the Durable Object classes, the partners' token entrypoint, the planes' paths, the queue names and types; the app comes by dynamic import", () => {
    const source = readFileSync(path.join(SRC, "api/index.ts"), "utf8");
    const staticImports = [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual([
      "../platform/planes",
      "../platform/ratelimit/rate-limiter",
      "../shared/request-logs/store",
      "./edi/entrypoint",
      "./stores/tenant-store",
      "./vendors/projection/projection",
      "./webhooks/queues",
    ]);
    // Which Worker serves a path is decided before the app loads, by a module that imports nothing; likewise the queue
    // names and the webhook sweep's cron, which the queue and scheduled handlers compare before loading anything.
    expect(readFileSync(path.join(SRC, "platform/planes.ts"), "utf8")).not.toMatch(/^import /m);
    expect(readFileSync(path.join(SRC, "api/webhooks/queues.ts"), "utf8")).not.toMatch(/^import /m);
    expect(source).toMatch(/import\("\.\/app"\)/);
    // The entrypoint class loads its token code on its first call.
    const entrypoint = readFileSync(path.join(SRC, "api/edi/entrypoint.ts"), "utf8");
    expect([...entrypoint.matchAll(/^import\s+(?!type\b)[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1])).toEqual([
      "cloudflare:workers",
    ]);
  });
});
