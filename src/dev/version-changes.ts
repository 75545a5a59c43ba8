import { LATEST_VERSION } from "../platform/versions/calendar";
import type { VersionChange } from "../platform/versions/change";

/**
 * A version change the API has not released, for the tests and the bench of request transforms: a field of the
 * operations' bodies called `before` until the latest version and `after` since, renamed in requests (forward) and in
 * the data of 200 and 201 answers (back).
 */

const renamed = (from: string, to: string) => (value: unknown) => {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !(from in value)) return value;
  const { [from]: moved, ...rest } = value as Record<string, unknown>;
  return { ...rest, [to]: moved };
};

export function fieldRenamed(operations: readonly string[], { before, after }: { before: string; after: string }): VersionChange {
  return {
    version: LATEST_VERSION,
    description: `\`${before}\` is called \`${after}\`.`,
    operations,
    request: renamed(before, after),
    response: async (response) => {
      if (response.status !== 200 && response.status !== 201) return response;
      const body = await response.json<{ data: unknown }>();
      return new Response(JSON.stringify({ ...body, data: renamed(after, before)(body.data) }), response);
    },
  };
}
