import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPortal } from "../../scripts/portal/build";
import { GUIDES } from "../../scripts/portal/guides";
import { SCALAR_ENTRY } from "../../scripts/portal/scalar";
import { AUDIENCE_NAMES } from "../../src/platform/openapi/audiences";
import { PROBLEM_TYPES } from "../../src/platform/problem-pages";
import { API_VERSIONS, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { VERSION_CHANGES } from "../../src/versions";
import { generatedDocument } from "../helpers/generated-document";

/** The developer portal as scripts/portal/build.ts writes it, built into a directory of its own. */

const ROOT = path.join(import.meta.dirname, "../..");
/** The budget of the portal's first page, gzip: the page and everything it loads before anyone searches. */
const FIRST_PAGE_BUDGET = 150 * 1024;
/** The budget of Scalar as a reference page loads it, gzip: its entry and what that imports, before Try-it opens. */
const REFERENCE_BUDGET = 1000 * 1024;

let out: string;
let built: ReturnType<typeof buildPortal>;
beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), "portal-"));
  built = buildPortal(ROOT, out);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const read = (file: string) => readFileSync(path.join(out, file), "utf8");
/** The text of the code blocks in some HTML, as a reader sees (and copies) it. */
const codeText = (html: string) =>
  [...html.matchAll(/<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)]
    .map(([, code]) =>
      code!
        .replace(/<[^>]+>/g, "")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;|&#x27;/g, "'")
        .replace(/&amp;/g, "&"),
    )
    .join("\n");
/** The URL an ES module imports, statically (`from "./x.js"`, `import "./x.js"`) or on demand (`import("./x.js")`). */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;

/** The modules a browser fetches for `entry` (an asset URL) before running it: the entry and its static imports, transitively. */
function staticImports(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    for (const [, target] of read(url.slice(1)).matchAll(STATIC_IMPORT)) visit(new URL(target!, `https://portal${url}`).pathname);
  };
  visit(entry);
  return [...seen];
}
/** What a page loads at once: its stylesheets, scripts and icon (lazily loaded files are fetched by script). */
const eagerAssets = (html: string) => [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);

describe("the developer portal build", () => {
  it("writes a page per guide, per problem type and per audience's reference, and the home page", () => {
    for (const guide of GUIDES) expect(built.files).toContain(`docs/guides/${guide}.html`);
    for (const slug of Object.keys(PROBLEM_TYPES)) expect(built.files).toContain(`docs/errors/${slug}.html`);
    for (const audience of AUDIENCE_NAMES) expect(built.files).toContain(`docs/reference/${audience}.html`);
    expect(built.files).toContain("docs.html");
  });

  it(`keeps the first page within ${FIRST_PAGE_BUDGET / 1024} KB gzip, with Scalar and the search index loaded only when needed`, () => {
    for (const page of ["docs.html", "docs/guides/getting-started.html", "docs/errors/validation.html"]) {
      const html = read(page);
      const assets = eagerAssets(html);
      expect(assets).not.toContain("/docs/assets/scalar.js");
      expect(assets).not.toContain("/docs/assets/search-index.json");
      const total = [html, ...assets.map((asset) => read(asset.slice(1)))].reduce((sum, text) => sum + gzipSync(text).length, 0);
      expect(total, page).toBeLessThanOrEqual(FIRST_PAGE_BUDGET);
    }
    // A reference page loads Scalar from its script, after its own first paint.
    const reference = read("docs/reference/customer.html");
    expect(eagerAssets(reference).some((asset) => asset.startsWith(path.dirname(SCALAR_ENTRY)))).toBe(false);
    expect(read("docs/assets/reference.js")).toContain(`import("${SCALAR_ENTRY}")`);
  });

  it(`a reference page loads Scalar's ES module build: within ${REFERENCE_BUDGET / 1024} KB gzip, the modules it imports at once, the rest only when used`, () => {
    const loaded = staticImports(SCALAR_ENTRY);
    const total = loaded.reduce((sum, url) => sum + gzipSync(read(url.slice(1))).length, 0);
    expect(total).toBeLessThanOrEqual(REFERENCE_BUDGET);
    // Every module any vendored one imports, at once or on demand, was copied beside it.
    const vendored = built.files.filter((file) => file.startsWith(path.dirname(SCALAR_ENTRY).slice(1)));
    for (const file of vendored) {
      for (const [, target] of [...read(file).matchAll(STATIC_IMPORT), ...read(file).matchAll(DYNAMIC_IMPORT)]) {
        const url = new URL(target!, `https://portal/${file}`).pathname;
        expect(built.files, `${file} imports ${url}`).toContain(url.slice(1));
      }
    }
    const onDemand = vendored.filter((file) => !loaded.includes(`/${file}`));
    expect(onDemand.length).toBeGreaterThan(0);
  });

  it("a reference page offers every version in its own selector, the latest first", () => {
    const html = read("docs/reference/customer.html");
    const options = [...html.matchAll(/<option value="([^"]+)">([^<]+)<\/option>/g)].map(([, value, label]) => [value, label]);
    expect(options).toEqual([...API_VERSIONS].reverse().map((v) => [v, v === LATEST_VERSION ? `${v} (latest)` : v]));
    expect(html).toContain('<label for="api-version">API version</label><select id="api-version">');
  });

  it("guides name no repository path, and their links all lead to portal pages that exist", () => {
    const pages = new Set(built.pages.map((page) => page.url));
    for (const guide of GUIDES) {
      const html = read(`docs/guides/${guide}.html`);
      const prose = html.replace(/<pre[\s\S]*?<\/pre>/g, "").replace(/<[^>]+>/g, " ");
      expect(prose, guide).not.toMatch(/(?<![/\w.-])(?:src|docs|scripts|test)\/\w|\b\w+\.(?:md|ts)\b|wrangler\.toml/);
      for (const [, href] of html.matchAll(/href="(\/docs[^"#?]*)/g)) {
        if (!href!.startsWith("/docs/assets/")) expect(pages.has(href!), `${guide} -> ${href}`).toBe(true);
      }
    }
  });

  it("every table and code block of a guide, scrolled when wider than the page, takes the keyboard focus", () => {
    const scrolled = GUIDES.flatMap((guide) =>
      [...read(`docs/guides/${guide}.html`).matchAll(/<(?:table|pre)\b[^>]*>/g)].map(([tag]) => tag),
    );
    expect(scrolled.some((tag) => tag.startsWith("<table"))).toBe(true);
    expect(scrolled.filter((tag) => !tag.includes('tabindex="0"'))).toEqual([]);
  });

  it("refuses to build a guide that names a repository file or links to a page the portal does not have", () => {
    const root = mkdtempSync(path.join(tmpdir(), "portal-root-"));
    try {
      cpSync(path.join(ROOT, "portal"), path.join(root, "portal"), { recursive: true });
      symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
      const guide = path.join(root, "portal/guides/orders.md");
      const original = readFileSync(guide, "utf8");
      writeFileSync(guide, `${original}\nSee docs/api.md for more.\n`);
      expect(() => buildPortal(root, path.join(root, "out"))).toThrow(/names docs\/api\.md/);
      writeFileSync(guide, `${original}\nSee [the retries](/docs/guides/retries).\n`);
      expect(() => buildPortal(root, path.join(root, "out"))).toThrow(/links to \/docs\/guides\/retries/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("the search index holds every guide and problem type with its title and summary", () => {
    const index = JSON.parse(read("docs/assets/search-index.json")) as { id: string; title: string; summary: string }[];
    const ids = new Set(index.map((entry) => entry.id));
    for (const guide of GUIDES) expect(ids.has(`/docs/guides/${guide}`), guide).toBe(true);
    for (const slug of Object.keys(PROBLEM_TYPES)) expect(ids.has(`/docs/errors/${slug}`), slug).toBe(true);
    for (const entry of index) {
      expect(entry.title.length, entry.id).toBeGreaterThan(0);
      if (entry.id.startsWith("/docs/guides/")) expect(entry.summary.length, entry.id).toBeGreaterThan(40);
    }
  });

  it("summaries keep the guides' apostrophes, on the home page and in the search index", () => {
    const index = JSON.parse(read("docs/assets/search-index.json")) as { id: string; summary: string }[];
    const home = read("docs.html");
    const contractions = GUIDES.flatMap((guide) => {
      const firstParagraph = readFileSync(path.join(ROOT, "portal/guides", `${guide}.md`), "utf8").split("\n")[2]!;
      return [...firstParagraph.matchAll(/\w+'\w+/g)].map(([word]) => ({ guide, word }));
    });
    expect(contractions.length).toBeGreaterThan(0);
    for (const { guide, word } of contractions) {
      expect(index.find((entry) => entry.id === `/docs/guides/${guide}`)?.summary, guide).toContain(word);
      expect(home, guide).toContain(word.replace("'", "&#39;"));
    }
  });

  it("the versions guide's changelog has a row per released version with its changes, generated from the version changes", () => {
    const html = read("docs/guides/versions.html");
    const rows = [...html.matchAll(/<tr>\s*<td><code>(\d{4}-\d{2}-\d{2})<\/code><\/td>\s*<td>([\s\S]*?)<\/td>\s*<\/tr>/g)];
    expect(rows.map(([, version]) => version)).toEqual([...API_VERSIONS]);
    const words = (text: string) => (text.match(/\w+/g) ?? []).join(" ");
    const htmlWords = (html: string) => words(html.replace(/<[^>]+>|&#?\w+;/g, " "));
    for (const change of VERSION_CHANGES) {
      const [, , changes] = rows.find(([, version]) => version === change.version)!;
      expect(htmlWords(changes!), change.version).toContain(words(change.description));
    }
  });

  it("events shown in the guides are the document's examples of their types: a UUID id, an order number as issued", async () => {
    const document = (await generatedDocument()) as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { example: unknown }> } } }>;
    };
    const decode = (html: string) =>
      html.replace(/&(quot|amp|lt|gt|#39);/g, (_all, name: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", "#39": "'" })[name]!);
    const shown = GUIDES.flatMap((guide) =>
      [...read(`docs/guides/${guide}.html`).matchAll(/<code class="[^"]*\blanguage-json\b[^"]*">([\s\S]*?)<\/code>/g)].flatMap(
        ([, code]) => {
          try {
            // Highlighted at build time: the JSON is the code's text, without the highlighter's spans.
            const value = JSON.parse(decode(code!.replace(/<[^>]+>/g, ""))) as { type?: string };
            return value.type && value.type in document.webhooks ? [{ guide, event: value as { type: string } }] : [];
          } catch {
            return []; // a JSON block with placeholders (...) is no event example
          }
        },
      ),
    );
    expect(shown.map(({ guide, event }) => `${guide}: ${event.type}`)).toContain("webhooks: order.shipped");
    for (const { guide, event } of shown) {
      expect(event, guide).toEqual(document.webhooks[event.type]!.post.requestBody.content["application/json"]!.example);
      expect(event, guide).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        orderNumber: expect.stringMatching(/^ORD-\d{8}-[0-9A-Z]{8}$/),
      });
    }
  });

  it("the guides' commands make an Idempotency-Key with Node, as the README does, not with uuidgen (missing on many machines)", () => {
    for (const guide of GUIDES) expect(read(`docs/guides/${guide}.html`), guide).not.toContain("uuidgen");
    expect(read("docs/guides/orders.html")).toContain("crypto.randomUUID()");
  });

  it("the webhooks guide shows the verification code of every language from the files the tests run, a tab each", () => {
    const html = read("docs/guides/webhooks.html");
    const tabs = [...html.matchAll(/<button type="button" role="tab" id="([^"]+)" aria-controls="([^"]+)" aria-selected="(true|false)"/g)];
    expect(tabs.map(([, , , selected]) => selected)).toEqual(["true", "false", "false", "false"]);
    const snippets = ["verify-webhook.ts", "verify_webhook.py", "MedpartsWebhook.java", "MedpartsWebhook.cs"];
    for (const [index, file] of snippets.entries()) {
      const [, tab, panel] = tabs[index]!;
      const panelHtml = new RegExp(
        `<div role="tabpanel" id="${panel}" aria-labelledby="${tab}"( hidden)?>([\\s\\S]*?)</div>\\n?(?=<div role="tabpanel"|</div>)`,
      ).exec(html);
      expect(panelHtml?.[1] === undefined, file).toBe(index === 0);
      const code = codeText(panelHtml![2]!);
      const source = readFileSync(path.join(ROOT, "portal/snippets", file), "utf8").trimEnd();
      expect(code, file).toContain(source);
    }
  });

  it("code is highlighted at build time in the language its block names", () => {
    const webhooks = read("docs/guides/webhooks.html");
    for (const language of ["typescript", "python", "java", "csharp", "json"]) {
      expect(webhooks, language).toMatch(new RegExp(`<code class="hljs language-${language}">[\\s\\S]*?<span class="hljs-`));
    }
    expect(read("docs/guides/getting-started.html")).toMatch(/<code class="hljs language-sh">[\s\S]*?<span class="hljs-/);
    const root = mkdtempSync(path.join(tmpdir(), "portal-root-"));
    try {
      cpSync(path.join(ROOT, "portal"), path.join(root, "portal"), { recursive: true });
      symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
      const guide = path.join(root, "portal/guides/orders.md");
      writeFileSync(guide, `${readFileSync(guide, "utf8")}\n\`\`\`cobol\nDISPLAY 'HI'.\n\`\`\`\n`);
      expect(() => buildPortal(root, path.join(root, "out"))).toThrow(/in cobol, which the portal does not highlight/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
