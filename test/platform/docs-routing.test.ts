import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GUIDES } from "../../scripts/portal/guides";
import { SCALAR_ENTRY } from "../../scripts/portal/scalar";
import production from "../../src/api/index";
import { AUDIENCE_NAMES } from "../../src/platform/openapi/audiences";
import { PROBLEM_TYPES } from "../../src/platform/problem-pages";

/** A request to the production entry (src/api/index.ts), which routes /docs before the app. */
async function fetchEntry(path: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await production.fetch(new Request(`https://medparts.test${path}`), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** /docs is the docs Worker's (docs-worker/wrangler.toml, assets only), reached over the DOCS binding; the rest is the API's. */
describe("the developer portal (/docs) through the DOCS binding", () => {
  it("serves the portal's home, guides, references and assets from the docs Worker", async () => {
    const page = await fetchEntry("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    const home = await page.text();
    for (const guide of GUIDES) expect(home).toContain(`href="/docs/guides/${guide}"`);
    for (const audience of AUDIENCE_NAMES) expect(home).toContain(`href="/docs/reference/${audience}"`);

    for (const guide of GUIDES) {
      const res = await fetchEntry(`/docs/guides/${guide}`);
      expect(res.status, guide).toBe(200);
      expect(await res.text(), guide).toContain('<article class="guide">');
    }
    for (const audience of AUDIENCE_NAMES) {
      const res = await fetchEntry(`/docs/reference/${audience}`);
      expect(res.status, audience).toBe(200);
      expect(await res.text(), audience).toContain(`data-audience="${audience}"`);
    }
    const scalar = await fetchEntry(SCALAR_ENTRY);
    expect(scalar.status).toBe(200);
    expect(scalar.headers.get("Content-Type")).toMatch(/javascript/);
    expect((await scalar.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
  });

  it("every problem type the API answers with has its page at the URI its type names; an unknown one is a 404", async () => {
    for (const [slug, type] of Object.entries(PROBLEM_TYPES)) {
      const res = await fetchEntry(`/docs/errors/${slug}`);
      expect(res.status, slug).toBe(200);
      const html = await res.text();
      expect(html, slug).toContain(type.title.replace(/'/g, "&#39;"));
      expect(html, slug).toContain("What to do");
    }
    const unknown = await fetchEntry("/docs/errors/no-such-type");
    expect(unknown.status).toBe(404);
    await unknown.arrayBuffer();
  });

  it("an address the portal has no page for answers 404 with the portal's page of it: the search box and links onwards", async () => {
    // /docs/404 too: the page itself is no address of the portal.
    for (const path of ["/docs/nope", "/docs/errors/not-a-thing", "/docs/guides/retries", "/docs/404"]) {
      const res = await fetchEntry(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, path).toContain("<h1>Page not found</h1>");
      expect(html, path).toContain('id="portal-search"');
      for (const href of ["/docs", "/docs/errors", ...GUIDES.map((guide) => `/docs/guides/${guide}`)])
        expect(html, `${path} -> ${href}`).toContain(`href="${href}"`);
    }
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
