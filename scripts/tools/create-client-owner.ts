/**
 * Whether the owner of a new client exists in the local database (npm run create-client). What it lists in its stead
 * are the owners a person can name: a tenant's sandbox twin (a negative id, src/platform/test-mode.ts) is internal and
 * is reached through `--test`, never named.
 */
export async function missingOwnerMessage(db: D1Database, kind: "tenant" | "vendor", ownerId: number): Promise<string | null> {
  const table = kind === "vendor" ? "vendors" : "tenants";
  if (await db.prepare(`SELECT id FROM ${table} WHERE id = ?1 AND id > 0`).bind(ownerId).first()) return null;
  const { results } = await db.prepare(`SELECT id FROM ${table} WHERE id > 0 ORDER BY id LIMIT 20`).all<{ id: number }>();
  const known =
    results.length > 0 ? `the local database has ${results.map((row) => row.id).join(", ")}` : "run `npm start` or `npm run seed` first";
  return `There is no ${kind} ${ownerId}: ${known}.`;
}
