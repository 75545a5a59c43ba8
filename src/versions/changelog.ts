import { API_VERSIONS, FIRST_VERSION } from "../platform/versions/calendar";
import { VERSION_CHANGES } from ".";

/**
 * The changelog as docs/api.md and the portal's versions guide show it, generated from the version changes: a row per
 * released version.
 */
export function changelogTable(): string {
  const rows = API_VERSIONS.map((version) => {
    const changes =
      version === FIRST_VERSION
        ? "The contract as the service specification describes it"
        : VERSION_CHANGES.filter((change) => change.version === version)
            .map((change) => change.description)
            .join("<br>");
    return `| \`${version}\` | ${changes} |`;
  });
  return ["| Version | What changed |", "|---|---|", ...rows].join("\n");
}
