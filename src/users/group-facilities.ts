/**
 * Which facility a SCIM group grants (migrations/0021; docs/api.md, "SCIM"): the one of the group's tenant whose
 * externalId, else GLN, else name equals the group's displayName, case-insensitively. Kept in scim_groups.facility_id,
 * so the access checks (facility_grants) join on ids; written again whenever a group or a facility of the tenant is.
 */
/**
 * Points a tenant's groups at the facilities their names name, after a group or a facility is written: the tenant given,
 * or the tenant of a company or of a facility.
 */
export function remapGroupsStatement(
  db: D1Database,
  tenantId: number | null,
  of: { companyId: number } | { facilityId: number } | null = null,
): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE scim_groups SET facility_id = (SELECT f.id FROM facilities f JOIN companies c ON c.id = f.company_id " +
        "WHERE c.tenant_id = scim_groups.tenant_id AND (f.external_id = scim_groups.display_name COLLATE NOCASE OR f.gln = scim_groups.display_name " +
        "OR f.name = scim_groups.display_name COLLATE NOCASE) " +
        "ORDER BY f.external_id = scim_groups.display_name COLLATE NOCASE DESC, f.gln IS scim_groups.display_name DESC, f.id LIMIT 1) " +
        "WHERE tenant_id = coalesce(?1, (SELECT tenant_id FROM companies WHERE id = ?2), " +
        "(SELECT c.tenant_id FROM facilities f JOIN companies c ON c.id = f.company_id WHERE f.id = ?3))",
    )
    .bind(tenantId, of && "companyId" in of ? of.companyId : null, of && "facilityId" in of ? of.facilityId : null);
}
