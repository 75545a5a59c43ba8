import { describe, expect, it } from "vitest";
import { AUDIENCE_NAMES, AUDIENCES } from "../../src/platform/openapi/audiences";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { call, json } from "../helpers/api";

/** Every `$ref` in `value`. */
function refsOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.add(item);
      else refsOf(item, found);
    }
  }
  return found;
}

const resolves = (document: any, ref: string) =>
  ref
    .slice(2)
    .split("/")
    .reduce((node: any, part) => node?.[decodeURIComponent(part)], document) !== undefined;

describe("GET /customer/api/openapi.json?audience= (the portal's references)", () => {
  it("each audience's document has its own title, its paths only, its one security scheme, and every reference resolving", async () => {
    const whole = await json(await call(null, "/openapi.json"));
    const covered = new Set<string>();
    for (const audience of AUDIENCE_NAMES) {
      const res = await call(null, `/openapi.json?audience=${audience}`);
      expect(res.status, audience).toBe(200);
      const document = await json(res);
      const spec = AUDIENCES[audience];
      expect(document.info.title).toBe(spec.title);
      expect(document.info.version).toBe(LATEST_VERSION);
      expect(Object.keys(document.components.securitySchemes)).toEqual([...spec.securitySchemes]);
      expect(Object.keys(document.paths).length, audience).toBeGreaterThan(0);
      for (const path of Object.keys(document.paths)) {
        expect(
          spec.prefixes.some((prefix) => path.startsWith(prefix)),
          `${audience}: ${path}`,
        ).toBe(true);
        expect(document.paths[path]).toEqual(whole.paths[path]);
        covered.add(path);
      }
      for (const ref of refsOf(document)) expect(resolves(document, ref), `${audience}: ${ref}`).toBe(true);
      // Only what its paths use: no schema of another audience rides along.
      const used = new Set([...refsOf({ paths: document.paths, webhooks: document.webhooks, components: document.components })]);
      for (const name of Object.keys(document.components.schemas ?? {}))
        expect(used.has(`#/components/schemas/${name}`), `${audience}: unused ${name}`).toBe(true);
      // Operations name only the audience's scheme.
      for (const item of Object.values<any>(document.paths))
        for (const operation of Object.values<any>(item))
          for (const requirement of operation.security ?? [])
            for (const scheme of Object.keys(requirement)) expect(spec.securitySchemes as readonly string[]).toContain(scheme);
      expect(document.webhooks !== undefined).toBe(spec.webhooks);
    }
    // Together they document every operation of the whole contract but the contract's own document.
    const missing = Object.keys(whole.paths).filter((path) => !covered.has(path) && !path.endsWith("/openapi.json"));
    expect(missing).toEqual([]);
  });

  it("takes ?version= too, and refuses an unknown audience with a 400 naming it", async () => {
    const old = await json(await call(null, `/openapi.json?audience=customer&version=${FIRST_VERSION}`));
    expect(old.info.version).toBe(FIRST_VERSION);
    expect(old.info.title).toBe(AUDIENCES.customer.title);
    const res = await call(null, "/openapi.json?audience=buyers");
    expect(res.status).toBe(400);
    expect((await json(res)).errors.map((entry: { field: string }) => entry.field)).toContain("audience");
  });
});
