import { AS2_PATH, DESK_BASE, isProcurementPath, isScimPath } from "../planes";

/**
 * The dated versions of the API (docs/api.md, "Versions"), oldest first. The first is the contract as the service
 * specification describes it; each later one is the date its breaking changes were released (src/versions/changes/).
 * A client is pinned to the latest when it is created; `Medparts-Version` overrides the pin for one request.
 */
export const API_VERSIONS = ["2026-11-23", "2026-11-25", "2026-11-29", "2026-12-07"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const LATEST_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;
export const FIRST_VERSION: ApiVersion = API_VERSIONS[0];
export const VERSION_HEADER = "Medparts-Version";

export const isApiVersion = (value: string): value is ApiVersion => (API_VERSIONS as readonly string[]).includes(value);

/** A stored version (a client's pin, a webhook endpoint's): one no longer released reads as the oldest still served. */
export const servedVersion = (stored: string): ApiVersion => (isApiVersion(stored) ? stored : FIRST_VERSION);

/** SCIM (`/scim/v2`, RFC 7643/7644) is versioned by its own schema URNs: outside the dated versions. */
export const isVersionedPath = (path: string): boolean =>
  !isScimPath(path) && !isProcurementPath(path) && path !== AS2_PATH && path !== DESK_BASE && !path.startsWith(`${DESK_BASE}/`);
