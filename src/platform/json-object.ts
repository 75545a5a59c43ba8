/** A JSON object: not null, not an array (JSON.parse's other results are primitives). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
