import { PROBLEM_PAGE_PATH } from "../../platform/problem-types";
import type { VersionChange } from "../../platform/versions/change";

/** Where problem types pointed before 2026-11-29: an identifier only, on a host that never resolved. */
export const FORMER_PROBLEM_TYPE_BASE = "https://medparts.example/problems/";

/** A type of this version (its page: `https://<host>/docs/errors/<slug>`) as before it; any other value as it is. */
const formerType = (type: string): string => {
  const at = type.indexOf(PROBLEM_PAGE_PATH);
  return at < 0 ? type : FORMER_PROBLEM_TYPE_BASE + type.slice(at + PROBLEM_PAGE_PATH.length);
};

/**
 * A problem's `type` is the URI of its error page on the deployment that answered (`https://<host>/docs/errors/<slug>`):
 * a person can open it. Clients pinned before see the former identifiers, which they may compare against.
 */
export const problemTypePages: VersionChange = {
  version: "2026-11-29",
  description:
    "A problem's `type` is the URI of its error page on this deployment, `https://<host>/docs/errors/<slug>`; it was " +
    "`https://medparts.example/problems/<slug>`, which did not resolve. The slugs are the same.",
  operations: [],
  document: (document) => {
    for (const name of ["Problem", "ValidationProblem"]) {
      const schema = document.components?.schemas?.[name] as
        | { example?: { type?: string }; properties?: { type?: { description?: string } } }
        | undefined;
      if (schema?.example?.type) schema.example.type = formerType(schema.example.type);
      if (schema?.properties?.type) delete schema.properties.type.description;
    }
  },
  problem: (problem) => (typeof problem.type === "string" ? { ...problem, type: formerType(problem.type) } : problem),
};
