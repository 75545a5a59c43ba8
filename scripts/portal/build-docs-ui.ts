import path from "node:path";
import { pathToFileURL } from "node:url";
import { cliArgs } from "../cli";
import { buildPortal } from "./build";

/**
 * Builds the docs Worker's static assets ([assets] in docs-worker/wrangler.toml): the developer portal
 * (scripts/portal/build.ts) into public/ (git-ignored). Run by npm start, the vitest configs and `npm run build`, so a
 * fresh clone needs nothing committed from node_modules.
 */

export const ASSETS_DIR = "public";

export function buildDocsUi(root = process.cwd()): void {
  buildPortal(root, path.join(root, ASSETS_DIR));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cliArgs("build", "Builds the developer portal (/docs) into public/, the docs Worker's assets.", {});
  buildDocsUi();
  console.log(`Built the developer portal (/docs) into ${ASSETS_DIR}/`);
}
