import { OPERATORS_BY_TYPE, type SearchResource } from "./fields";

export const DOCS_BEGIN =
  "<!-- search-fields:begin (generated from each feature's search-fields.ts by `npm run docs:search`; a test fails if it drifts) -->";
export const DOCS_END = "<!-- search-fields:end -->";

/** The field tables of docs/api.md, generated from the registry so that the docs cannot drift. */
export function searchFieldsMarkdown(resources: readonly SearchResource[]): string {
  return resources.map(resourceMarkdown).join("\n");
}

function resourceMarkdown(resource: SearchResource): string {
  const rows = resource.fields.map((field) => {
    const names = [field.name, ...(field.aliases ?? [])].map((n) => `\`${n}\``).join(", ");
    const operators = OPERATORS_BY_TYPE[field.type].map((o) => `\`${o}\``).join(" ");
    return `| ${names} | ${field.type} | ${operators} | ${field.sortable ? "yes" : "no"} | ${field.description} |`;
  });
  return [
    `#### \`GET ${resource.path}\``,
    "",
    `Default sort: \`${resource.defaultSortField.name}\` (ties broken by id).`,
    "",
    "| Field (aliases) | Type | Operators | Sortable | Meaning |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** Replaces the generated part of a Markdown document, between the markers. */
export function replaceGeneratedSection(document: string, generated: string): string {
  const begin = document.indexOf(DOCS_BEGIN);
  const end = document.indexOf(DOCS_END);
  if (begin < 0 || end < begin) throw new Error("docs/api.md lacks the search-fields markers");
  return `${document.slice(0, begin + DOCS_BEGIN.length)}\n${generated}${document.slice(end)}`;
}
