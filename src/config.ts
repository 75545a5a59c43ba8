/** Numeric settings arrive as strings from wrangler.toml [vars]; a missing or invalid value falls back to the default. */
export function positiveNumberVar(value: string | number | undefined, fallback: number): number {
  const parsed = typeof value === "number" ? value : Number(value);
  return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
