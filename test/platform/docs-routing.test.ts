import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import production from "../../src/api/index";

/** A request to the production entry (src/api/index.ts), which routes /docs before the app. */
async function fetchEntry(path: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await production.fetch(new Request(`https://medparts.test${path}`), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** /docs is the docs Worker's (docs-worker/wrangler.toml, assets only), reached over the DOCS binding; the rest is the API's. */
describe("the /docs page through the DOCS binding", () => {
  it("serves the page and the Swagger UI files from the docs Worker's assets", async () => {
    const page = await fetchEntry("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');

    const bundle = await fetchEntry("/docs/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("Content-Type")).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it("a file the docs Worker does not have is its 404, not an API answer", async () => {
    const res = await fetchEntry("/docs/no-such-file.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("X-Correlation-Id")).toBeNull();
    await res.arrayBuffer();
  });

  it("paths that only start like /docs stay with the API", async () => {
    const res = await fetchEntry("/docsearch");
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("application/problem+json");
    expect(res.headers.get("X-Correlation-Id")).not.toBeNull();
    await res.arrayBuffer();
  });
});
