import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Builds the Worker's static assets ([assets] in wrangler.toml): our /docs page from site/ plus the
 * Swagger UI files from node_modules/swagger-ui-dist, into public/ (git-ignored). Run by npm start,
 * the vitest configs and `npm run build`, so a fresh clone needs nothing committed from node_modules.
 */

export const ASSETS_DIR = "public";
const SITE_DIR = "site";
const SWAGGER_UI_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "LICENSE", "NOTICE"];

function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    if (statSync(source).isDirectory()) copyTree(source, path.join(to, name));
    else copyFileSync(source, path.join(to, name));
  }
}

export function buildDocsUi(root = process.cwd()): void {
  const out = path.join(root, ASSETS_DIR);
  copyTree(path.join(root, SITE_DIR), out);
  const swaggerUi = path.dirname(createRequire(path.join(root, "package.json")).resolve("swagger-ui-dist/package.json"));
  mkdirSync(path.join(out, "docs"), { recursive: true });
  for (const file of SWAGGER_UI_FILES) copyFileSync(path.join(swaggerUi, file), path.join(out, "docs", file));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildDocsUi();
  console.log(`Built the /docs page into ${ASSETS_DIR}/`);
}
