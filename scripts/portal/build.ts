import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Marked, type Tokens } from "marked";
import { documentedEvent } from "../../src/api/events/samples";
import { DELIVERED_EVENT_TYPES, type DeliveredEventType } from "../../src/api/events/types";
import { AUDIENCE_NAMES, AUDIENCES, type Audience } from "../../src/platform/openapi/audiences";
import { TRY_IT_EXAMPLES } from "../../src/platform/openapi/try-it";
import { PROBLEM_TYPES } from "../../src/platform/problem-pages";
import { PROBLEM_PAGE_PATH, type ProblemSlug } from "../../src/platform/problem-types";
import { API_VERSIONS, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { changelogTable } from "../../src/versions/changelog";
import { sdkSamples } from "../sdk/samples";
import { GUIDES } from "./guides";
import { SCALAR_ENTRY } from "./scalar";

/**
 * The developer portal at /docs, built into the docs Worker's assets (public/, git-ignored): guides rendered from the
 * Markdown in portal/guides, one page per problem type from src/platform/problem-pages.ts, and one API reference per
 * audience rendered in the browser by Scalar from the API's own OpenAPI document (?audience=). Only the reference
 * pages load Scalar; the guides and the home page load a small stylesheet and script, and the search index on first
 * use. Nothing is fetched from another host.
 */

const PORTAL_DIR = "portal";

const AUDIENCE_LABELS: Record<Audience, string> = {
  customer: "Customer API",
  vendor: "Vendor API",
  operator: "Operator API",
  scim: "SCIM",
};

/** Code sample languages every operation shows (Scalar's targets and clients); every other client is hidden. */
export const CODE_SAMPLES = { shell: ["curl"], node: ["fetch"], python: ["requests"], csharp: ["httpclient"] } as const;

/** A repository path or file a reader of the deployed portal cannot open: a guide must never name one. */
const REPO_REFERENCE =
  /(?:(?<![/\w.-])(?:src|docs|scripts|test|portal|admin|migrations)\/[\w./-]+|\b[\w-]+\.(?:md|ts|mts)\b|wrangler\.toml|\bREADME\b)/;

interface Page {
  url: string;
  title: string;
  summary: string;
  text: string;
}

/**
 * The page of every address under /docs the portal has no file for (`not_found_handling = "404-page"` in
 * docs-worker/wrangler.toml), at the assets' root so that no /docs address serves it with status 200.
 */
export const NOT_FOUND_FILE = "404.html";

export interface BuiltPortal {
  pages: Page[];
  /** Every file written, relative to the assets directory. */
  files: string[];
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);

const NAMED_ENTITIES = new Map(Object.entries(HTML_ESCAPES).map(([ch, entity]) => [entity, ch]));
/** The text an HTML fragment's character references stand for (marked writes `&#39;` for every apostrophe). */
const decodeEntities = (html: string) =>
  html.replace(/&(?:#(\d+)|#x([0-9a-f]+)|[a-z]+);/gi, (entity, decimal?: string, hex?: string) =>
    decimal || hex ? String.fromCodePoint(Number.parseInt(decimal ?? hex!, decimal ? 10 : 16)) : (NAMED_ENTITIES.get(entity) ?? entity),
  );

const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z#0-9]+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Guide slug -> its title (its first heading). */
type GuideTitles = ReadonlyMap<string, string>;

function navigation(current: string, titles: GuideTitles): string {
  const link = (url: string, label: string) =>
    `<li><a href="${url}"${url === current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`;
  const guides = GUIDES.map((slug) => link(`/docs/guides/${slug}`, titles.get(slug)!)).join("");
  const references = AUDIENCE_NAMES.map((audience) => link(`/docs/reference/${audience}`, AUDIENCE_LABELS[audience])).join("");
  return `<nav class="side" aria-label="Portal"><h2>Guides</h2><ul>${guides}</ul><h2>API reference</h2><ul>${references}</ul><h2>Errors</h2><ul>${link("/docs/errors", "Problem types")}</ul></nav>`;
}

/** The reference's version selector: every released version, the latest first and chosen unless the URL's ?version= names another. */
const versionSelector = () =>
  `<div class="version"><label for="api-version">API version</label><select id="api-version">${[...API_VERSIONS]
    .reverse()
    .map((version) => `<option value="${version}">${version === LATEST_VERSION ? `${version} (latest)` : version}</option>`)
    .join("")}</select></div>`;

const header = (reference: boolean) => `<header class="top">
  <a class="brand" href="/docs">Medparts <span>developers</span></a>
  <div class="search" role="search">
    <label for="portal-search" class="visually-hidden">Search the guides, errors and API operations</label>
    <input id="portal-search" type="search" placeholder="Search guides, errors and API operations" autocomplete="off" aria-controls="portal-results" />
    <ul id="portal-results" class="results" hidden></ul>
  </div>${reference ? versionSelector() : ""}
</header>`;

function layout(
  titles: GuideTitles,
  options: { url: string; title: string; description: string; main: string; reference?: Audience },
): string {
  const scripts = `<script src="/docs/assets/portal.js" defer></script>${options.reference ? `\n<script src="/docs/assets/reference.js" defer></script>` : ""}`;
  const body = options.reference
    ? // Scalar renders a <main> of its own: the reference's container is a plain element.
      `${header(true)}\n<div id="main" class="reference" data-audience="${options.reference}">${options.main}</div>`
    : `${header(false)}\n<div class="layout">${navigation(options.url, titles)}<main id="main">${options.main}</main></div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(options.title)} · Medparts developers</title>
<meta name="description" content="${escapeHtml(options.description)}" />
<link rel="icon" href="/docs/assets/favicon.svg" type="image/svg+xml" />
<link rel="stylesheet" href="/docs/assets/portal.css" />
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`;
}

function problemTypesTable(): string {
  const rows = Object.entries(PROBLEM_TYPES).map(
    ([slug, type]) => `| [\`${slug}\`](${PROBLEM_PAGE_PATH}${slug}) | ${type.status} | ${type.title} |`,
  );
  return ["| Type | Status | Title |", "|---|---|---|", ...rows].join("\n");
}

/** What a guide's `<!-- name -->` stands for: Markdown generated from the code, so that the guide cannot fall behind it. */
const GENERATED_BLOCKS: Record<string, () => string> = {
  "problem-types": problemTypesTable,
  changelog: changelogTable,
};

/** The example of an event type in the document's `webhooks`, as a code block. */
function eventExample(type: string): string {
  const delivered: readonly string[] = DELIVERED_EVENT_TYPES;
  if (!delivered.includes(type)) throw new Error(`<!-- event: ${type} --> names no event type`);
  return `\`\`\`json\n${JSON.stringify(documentedEvent(type as DeliveredEventType), null, 2)}\n\`\`\``;
}

/**
 * `<!-- include: snippets/x.py -->` becomes the file as a code block, `<!-- event: order.shipped -->` the example of
 * that event type, `<!-- name -->` its generated block.
 */
function expandDirectives(markdown: string, root: string): string {
  return markdown
    .replace(/<!-- event: ([\w.]+) -->/g, (_all, type: string) => eventExample(type))
    .replace(/<!-- include: ([\w./-]+) -->/g, (_all, file: string) => {
      const text = readFileSync(path.join(root, PORTAL_DIR, file), "utf8").trimEnd();
      const language = { py: "python", ts: "typescript", java: "java", cs: "csharp" }[path.extname(file).slice(1)] ?? "";
      return `\`\`\`${language}\n${text}\n\`\`\``;
    })
    .replace(/<!-- ([a-z-]+) -->/g, (_all, name: string) => {
      const block = GENERATED_BLOCKS[name];
      if (!block) throw new Error(`<!-- ${name} --> is no generated block (${Object.keys(GENERATED_BLOCKS).join(", ")})`);
      return block();
    });
}

/** The part of highlight.js the build uses. */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}
// Loaded without its type declarations: they add the DOM library to the scripts' program (`/// <reference lib="dom">`),
// whose globals clash with the Workers types the scripts compile against.
const load = createRequire(import.meta.url);
const highlighter = load("highlight.js/lib/core") as Highlighter;
/** The code blocks' languages (a fence's info string, an included file's extension), highlighted at build time. */
const HIGHLIGHTED = { sh: "bash", json: "json", typescript: "typescript", python: "python", java: "java", csharp: "csharp" };
for (const [name, grammar] of Object.entries(HIGHLIGHTED))
  highlighter.registerLanguage(name, load(`highlight.js/lib/languages/${grammar}`));

/** Markdown as the portal renders it: GitHub's flavour, each heading with an id to link to, code highlighted. */
const marked = new Marked({ gfm: true, async: false }).use({
  renderer: {
    heading(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Heading) {
      const html = this.parser.parseInline(token.tokens);
      return `<h${token.depth} id="${slugify(html)}">${html}</h${token.depth}>\n`;
    },
    code(token: Tokens.Code) {
      const language = token.lang?.trim() ?? "";
      if (language && !(language in HIGHLIGHTED)) throw new Error(`a code block is in ${language}, which the portal does not highlight`);
      const html = language ? highlighter.highlight(token.text, { language, ignoreIllegals: true }).value : escapeHtml(token.text);
      // A code block wider than the page scrolls: it takes the keyboard focus so that it can be scrolled without a mouse.
      return `<pre tabindex="0"><code class="hljs${language ? ` language-${language}` : ""}">${html}</code></pre>\n`;
    },
  },
});

/**
 * `<!-- tabs: Label -->` ... `<!-- /tabs -->` around `###` sections: one tab per section, named by its heading (which
 * keeps its id, so a link to the section selects its tab). portal/assets/portal.js switches them.
 */
function tabs(html: string): string {
  return html.replace(/<!-- tabs: ([^>]+?) -->([\s\S]*?)<!-- \/tabs -->/g, (_all, label: string, inner: string) => {
    const sections = [...inner.matchAll(/<h3 id="([^"]+)">([\s\S]*?)<\/h3>([\s\S]*?)(?=<h3 id=|$)/g)];
    if (sections.length < 2) throw new Error(`tabs "${label}" need two or more ### sections`);
    const list = sections
      .map(
        ([, id, title], index) =>
          `<button type="button" role="tab" id="${id}" aria-controls="${id}-panel" aria-selected="${index === 0}"${index === 0 ? "" : ' tabindex="-1"'}>${title}</button>`,
      )
      .join("");
    const panels = sections
      .map(
        ([, id, , content], index) =>
          `<div role="tabpanel" id="${id}-panel" aria-labelledby="${id}"${index === 0 ? "" : " hidden"}>${content!.trim()}</div>`,
      )
      .join("\n");
    return `<div class="tabs"><div role="tablist" aria-label="${escapeHtml(label)}">${list}</div>\n${panels}</div>`;
  });
}

function renderMarkdown(markdown: string): string {
  // A table wider than the page scrolls (portal.css): it takes the keyboard focus, as a code block does.
  return tabs((marked.parse(markdown) as string).replace(/<table>/g, '<table tabindex="0">'));
}

const plainText = (html: string) =>
  decodeEntities(html.replace(/<pre[\s\S]*?<\/pre>/g, " ").replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

/** Fails on a link to a portal page that was not built: a guide's link or an error page's. */
function checkLinks(pages: Page[], html: Map<string, string>): void {
  const urls = new Set(pages.map((page) => page.url));
  for (const [url, content] of html) {
    for (const [, href] of content.matchAll(/href="(\/docs[^"#?]*)/g)) {
      if (!urls.has(href!) && !href!.startsWith("/docs/assets/"))
        throw new Error(`${url} links to ${href}, which the portal does not have`);
    }
  }
}

export function buildPortal(root: string, out: string): BuiltPortal {
  rmSync(path.join(out, "docs"), { recursive: true, force: true });
  rmSync(path.join(out, NOT_FOUND_FILE), { force: true });
  const files: string[] = [];
  const pages: Page[] = [];
  const html = new Map<string, string>();
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    writeFileSync(path.join(out, file), content);
    files.push(file);
  };
  /** A page of the portal: indexed for search, its links checked, written where the docs Worker serves its URL. */
  const publish = (page: Page, content: string) => {
    html.set(page.url, content);
    pages.push(page);
    write(`${page.url.slice(1)}.html`, content);
  };
  const guideSources = new Map(GUIDES.map((slug) => [slug, readFileSync(path.join(root, PORTAL_DIR, "guides", `${slug}.md`), "utf8")]));
  const titles: GuideTitles = new Map([...guideSources].map(([slug, source]) => [slug, /^# (.+)$/m.exec(source)?.[1] ?? slug]));
  const present = readdirSync(path.join(root, PORTAL_DIR, "guides")).filter((f) => f.endsWith(".md"));
  const unlisted = present.filter((f) => !(GUIDES as readonly string[]).includes(f.slice(0, -3)));
  if (unlisted.length > 0) throw new Error(`portal/guides has guides not in GUIDES: ${unlisted.join(", ")}`);

  for (const [slug, source] of guideSources) {
    const url = `/docs/guides/${slug}`;
    const body = renderMarkdown(expandDirectives(source, root));
    const summary = plainText(/<\/h1>\s*<p>([\s\S]*?)<\/p>/.exec(body)?.[1] ?? "");
    const repo = REPO_REFERENCE.exec(plainText(body.replace(/<pre[\s\S]*?<\/pre>/g, "")));
    if (repo) throw new Error(`${url} names ${repo[0]}, which a reader of the portal cannot open`);
    const title = titles.get(slug)!;
    publish(
      { url, title, summary, text: plainText(body) },
      layout(titles, { url, title, description: summary, main: `<article class="guide">${body}</article>` }),
    );
  }

  const errorsSummary = "Every problem type the Medparts APIs answer with.";
  publish(
    { url: "/docs/errors", title: "Problem types", summary: errorsSummary, text: "" },
    layout(titles, {
      url: "/docs/errors",
      title: "Problem types",
      description: errorsSummary,
      main: `<article class="guide"><h1>Problem types</h1><p>A problem's <code>type</code> is the address of one of these pages. Branch on its last segment, the slug. The <a href="/docs/guides/errors">errors guide</a> explains the body forms and what to retry.</p>${renderMarkdown(problemTypesTable())}</article>`,
    }),
  );
  for (const [slug, type] of Object.entries(PROBLEM_TYPES) as [ProblemSlug, (typeof PROBLEM_TYPES)[ProblemSlug]][]) {
    const url = `${PROBLEM_PAGE_PATH}${slug}`;
    const inline = (text: string) => renderMarkdown(text).replace(/^<p>|<\/p>\s*$/g, "");
    const main = `<article class="guide problem"><p class="eyebrow">Problem type · HTTP ${type.status}</p><h1>${escapeHtml(type.title)}</h1>
<p><code>type</code>: <code>https://&lt;host&gt;${url}</code></p>
<h2 id="what-happened">What happened</h2><p>${inline(type.happened)}</p>
<h2 id="what-to-do">What to do</h2><p>${inline(type.toDo)}</p>
<p>Every problem carries a <code>correlationId</code>: quote it when you contact support. <a href="/docs/guides/errors">How errors work</a>.</p></article>`;
    const summary = `${type.happened} ${type.toDo}`.replace(/`/g, "");
    const title = `${type.title} (${slug})`;
    publish({ url, title, summary, text: summary }, layout(titles, { url, title, description: summary, main }));
  }

  for (const audience of AUDIENCE_NAMES) {
    const url = `/docs/reference/${audience}`;
    const spec = AUDIENCES[audience];
    const main = `<h1 class="visually-hidden">${escapeHtml(spec.title)} reference</h1><div id="reference-app"><p class="loading">Loading the ${escapeHtml(spec.title)} reference…</p></div>`;
    publish(
      { url, title: `${spec.title} reference`, summary: spec.summary, text: spec.summary },
      layout(titles, { url, title: `${AUDIENCE_LABELS[audience]} reference`, description: spec.summary, main, reference: audience }),
    );
  }

  const cards = AUDIENCE_NAMES.map(
    (audience) =>
      `<li><a href="/docs/reference/${audience}"><strong>${escapeHtml(AUDIENCES[audience].title)}</strong></a><span>${escapeHtml(AUDIENCES[audience].summary)}</span></li>`,
  ).join("");
  const guideCards = GUIDES.map((slug) => {
    const page = pages.find((p) => p.url === `/docs/guides/${slug}`)!;
    return `<li><a href="${page.url}"><strong>${escapeHtml(page.title)}</strong></a><span>${escapeHtml(page.summary)}</span></li>`;
  }).join("");
  const home = layout(titles, {
    url: "/docs",
    title: "Developer portal",
    description: "Guides and API references for integrating hospital procurement systems, vendors and identity providers with Medparts.",
    main: `<article class="home"><h1>Medparts developer portal</h1>
<p class="lead">Integrate a hospital's ERP or procurement system, a vendor's order desk or an identity provider with the Medparts parts marketplace. Start with <a href="/docs/guides/getting-started">getting started</a>: a token, a search and an order in five minutes.</p>
<h2 id="references">API references</h2><ul class="cards">${cards}</ul>
<h2 id="guides">Guides</h2><ul class="cards">${guideCards}</ul>
<p>The whole contract, for code generators: <a href="/customer/api/openapi.json">OpenAPI 3.1 document</a>. Current version: <code>${LATEST_VERSION}</code>; every version: ${API_VERSIONS.map((v) => `<code>${v}</code>`).join(", ")} (<a href="/docs/guides/versions">versions</a>).</p></article>`,
  });
  // The home page is no search result: it lists the others.
  const results = [...pages];
  publish({ url: "/docs", title: "Developer portal", summary: "", text: "" }, home);

  const notFound = layout(titles, {
    url: NOT_FOUND_FILE,
    title: "Page not found",
    description: "The developer portal has no page at this address.",
    main: `<article class="guide"><p class="eyebrow">HTTP 404</p><h1>Page not found</h1>
<p>The developer portal has no page at this address. Search the guides and problem types above, or start from one of these:</p>
<ul>
<li><a href="/docs">The portal's home</a>: every guide and API reference</li>
<li><a href="/docs/guides/getting-started">Getting started</a>: a token, a search and an order in five minutes</li>
<li><a href="/docs/errors">Problem types</a>: the page of every <code>type</code> a problem names</li>
${AUDIENCE_NAMES.map((audience) => `<li><a href="/docs/reference/${audience}">${escapeHtml(AUDIENCE_LABELS[audience])} reference</a></li>`).join("\n")}
</ul></article>`,
  });
  // Not a page of its own: the docs Worker serves it, with status 404, for any address it has no file for.
  html.set(NOT_FOUND_FILE, notFound);
  write(NOT_FOUND_FILE, notFound);

  checkLinks(pages, html);
  const index = results.map(({ url, title, summary, text }) => ({ id: url, title, summary, text }));
  write("docs/assets/search-index.json", JSON.stringify(index));
  const portalConfig = {
    versions: [...API_VERSIONS],
    latest: LATEST_VERSION,
    audiences: AUDIENCES,
    codeSamples: CODE_SAMPLES,
    tryIt: TRY_IT_EXAMPLES,
  };
  write("docs/assets/portal-config.json", JSON.stringify(portalConfig));
  // The SDKs' call of each operation, beside curl in the references of the version the SDKs speak (reference.js).
  const sdkDocument = JSON.parse(readFileSync(path.join(root, "sdks/openapi.json"), "utf8"));
  write("docs/assets/sdk-samples.json", JSON.stringify({ version: sdkDocument.info.version, samples: sdkSamples(sdkDocument) }));

  // Their exports maps hide these browser builds from require.resolve; npm installs both at the top of node_modules.
  const modules = path.join(root, "node_modules");
  // Scalar's ES module build: the reference loads its entry and the chunks it imports, and the rest (the Try-it
  // client, icons) only when used. Source maps stay behind.
  const scalar = path.join(modules, "@scalar/api-reference/dist/browser");
  const vendored: [string, string][] = [
    [path.join(scalar, "standalone.esm.js"), SCALAR_ENTRY.slice(1)],
    ...readdirSync(path.join(scalar, "chunks"))
      .filter((file) => file.endsWith(".js"))
      .map((file): [string, string] => [path.join(scalar, "chunks", file), `${path.dirname(SCALAR_ENTRY.slice(1))}/chunks/${file}`]),
    [path.join(modules, "minisearch/dist/umd/index.js"), "docs/assets/minisearch.js"],
  ];
  for (const [from, to] of vendored) {
    mkdirSync(path.dirname(path.join(out, to)), { recursive: true });
    copyFileSync(from, path.join(out, to));
    files.push(to);
  }
  for (const asset of readdirSync(path.join(root, PORTAL_DIR, "assets"))) {
    copyFileSync(path.join(root, PORTAL_DIR, "assets", asset), path.join(out, "docs/assets", asset));
    files.push(`docs/assets/${asset}`);
  }
  return { pages, files };
}
