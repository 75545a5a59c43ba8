import { describe, expect, it } from "vitest";
import apiDoc from "../../docs/api.md?raw";
import { SEARCH_RESOURCES } from "../../src/api/app";
import { DOCS_BEGIN, DOCS_END, replaceGeneratedSection, searchFieldsMarkdown } from "../../src/query/docs";
import { USER_BODY_FILTERS } from "../../src/shared/users/search-routes";

describe("docs/api.md stays in step with the search field registry", () => {
  it("has the generated field tables (run `npm run docs:search` after changing a search-fields.ts)", () => {
    expect(apiDoc).toContain(DOCS_BEGIN);
    expect(apiDoc).toContain(DOCS_END);
    expect(replaceGeneratedSection(apiDoc, searchFieldsMarkdown(SEARCH_RESOURCES))).toBe(apiDoc);
  });

  it("documents every field with its type and sortability", () => {
    const tables = apiDoc.slice(apiDoc.indexOf(DOCS_BEGIN), apiDoc.indexOf(DOCS_END));
    for (const resource of SEARCH_RESOURCES) {
      for (const field of resource.fields) {
        expect(tables).toMatch(
          new RegExp(`\\| \`${field.name}\`[^|]* \\| ${field.type} \\| [^|]+ \\| ${field.sortable ? "yes" : "no"} \\|`),
        );
      }
    }
  });

  it("lists every POST /users/search filter", () => {
    const post = apiDoc.slice(apiDoc.indexOf("### POST /users/search"));
    for (const name of Object.keys(USER_BODY_FILTERS)) expect(post, name).toContain(`\`${name}\``);
  });
});
