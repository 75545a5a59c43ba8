/**
 * Which facility a SCIM group grants (migrations/0021; docs/api.md, "SCIM"): the enabled facility of the group's tenant
 * whose externalId, else GLN, else name (the lowest id of those) equals the group's displayName, case-insensitively.
 * Kept in scim_groups.facility_id, so the access checks (facility_grants) join on ids; written again for the groups a
 * write can concern: the group written, or the groups naming a facility written (or pointing at it).
 */

const FACILITY_OF_GROUP =
  "coalesce(" +
  [
    "f.external_id = scim_groups.display_name COLLATE NOCASE",
    "f.gln = scim_groups.display_name",
    "f.name = scim_groups.display_name COLLATE NOCASE",
  ]
    .map(
      (match) =>
        "(SELECT f.id FROM facilities f JOIN companies c ON c.id = f.company_id " +
        `WHERE c.tenant_id = scim_groups.tenant_id AND f.disabled_at IS NULL AND ${match} ORDER BY f.id LIMIT 1)`,
    )
    .join(", ") +
  ")";

export type RemapScope =
  /** A group just written, by id. */
  | { groupId: number }
  /** A group just created, by its tenant and name. */
  | { tenantId: number; displayName: string }
  /** A facility changed or disabled: the groups naming it now, and those that pointed at it. */
  | { facilityId: number }
  /** A facility just created under a company, by what it can be named by. */
  | { companyId: number; names: readonly (string | null)[] };

export function remapGroupsStatement(db: D1Database, scope: RemapScope): D1PreparedStatement {
  const update = `UPDATE scim_groups SET facility_id = ${FACILITY_OF_GROUP} WHERE `;
  if ("groupId" in scope) return db.prepare(`${update}id = ?1`).bind(scope.groupId);
  if ("displayName" in scope) return db.prepare(`${update}tenant_id = ?1 AND display_name = ?2`).bind(scope.tenantId, scope.displayName);
  if ("facilityId" in scope) {
    return db
      .prepare(
        `${update}tenant_id = (SELECT c.tenant_id FROM facilities f JOIN companies c ON c.id = f.company_id WHERE f.id = ?1) AND ` +
          "(facility_id = ?1 OR display_name IN (SELECT external_id FROM facilities WHERE id = ?1 UNION ALL SELECT gln FROM facilities WHERE id = ?1 " +
          "UNION ALL SELECT name FROM facilities WHERE id = ?1))",
      )
      .bind(scope.facilityId);
  }
  return db
    .prepare(`${update}tenant_id = (SELECT tenant_id FROM companies WHERE id = ?1) AND display_name IN (SELECT value FROM json_each(?2))`)
    .bind(scope.companyId, JSON.stringify(scope.names.filter((name) => name !== null)));
}
