/** Part numbers compare as upper-case letters and digits only: "12-345 A", "12345a" and "12345A" are one part. */
export function normalizePartNumber(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}
