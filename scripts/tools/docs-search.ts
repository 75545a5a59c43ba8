import { readFileSync, writeFileSync } from "node:fs";
import { cliArgs } from "../cli";

cliArgs("docs:search", "Rewrites the search field tables of docs/api.md from the search field registry.", {});

/** `npm run docs:search`: rewrites the field tables of docs/api.md from the search field registry. */
// Imported after the command line: the API's app takes seconds to load, --help none.
const [{ SEARCH_RESOURCES }, { replaceGeneratedSection, searchFieldsMarkdown }] = await Promise.all([
  import("../../src/api/app"),
  import("../../src/query/docs"),
]);
const path = new URL("../../docs/api.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = replaceGeneratedSection(before, searchFieldsMarkdown(SEARCH_RESOURCES));
writeFileSync(path, after);
console.log(before === after ? "docs/api.md is up to date" : "docs/api.md search field tables regenerated");
