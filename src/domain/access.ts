import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { companies, facilities, userFacilities, users } from "../db/schema";
import { forbidden } from "../http/errors";

export interface OrderingContext {
  userId: number;
  contactId: number;
  tenantId: number;
  facilityId: number;
  companyId: number;
}

/**
 * The requester (a contactId) must be a user of the caller's tenant who may order for the facility.
 * Every failure is the same 403, so a caller learns nothing about other tenants' ids.
 */
export async function requireFacilityAccess(
  db: Database,
  tenantId: number,
  requesterContactId: number,
  facilityId: number,
): Promise<OrderingContext> {
  const row = await db
    .select({ userId: users.id, contactId: users.contactId, companyId: facilities.companyId })
    .from(users)
    .innerJoin(userFacilities, and(eq(userFacilities.userId, users.id), eq(userFacilities.facilityId, facilityId)))
    .innerJoin(facilities, eq(facilities.id, userFacilities.facilityId))
    .innerJoin(companies, and(eq(companies.id, facilities.companyId), eq(companies.tenantId, tenantId)))
    .where(and(eq(users.contactId, requesterContactId), eq(users.tenantId, tenantId)))
    .get();
  if (!row) throw forbidden("The requester may not order for this facility.");
  return { ...row, tenantId, facilityId };
}
