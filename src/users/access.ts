import { and, eq, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { companies, facilities, userFacilities, users } from "../db/schema";
import { forbidden } from "../platform/errors";

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
export function requireFacilityAccess(
  db: Database,
  tenantId: number,
  requesterContactId: number,
  facilityId: number,
): Promise<OrderingContext> {
  return facilityAccess(
    db,
    tenantId,
    facilityId,
    eq(users.contactId, requesterContactId),
    "The requester may not order for this facility.",
  );
}

/** The same rule for a user given by userId (the user placing an order). */
export function requireUserFacilityAccess(db: Database, tenantId: number, userId: number, facilityId: number): Promise<OrderingContext> {
  return facilityAccess(db, tenantId, facilityId, eq(users.id, userId), "The user may not order for this facility.");
}

async function facilityAccess(db: Database, tenantId: number, facilityId: number, user: SQL, denial: string): Promise<OrderingContext> {
  const row = await db
    .select({ userId: users.id, contactId: users.contactId, companyId: facilities.companyId })
    .from(users)
    .innerJoin(userFacilities, and(eq(userFacilities.userId, users.id), eq(userFacilities.facilityId, facilityId)))
    .innerJoin(facilities, eq(facilities.id, userFacilities.facilityId))
    .innerJoin(companies, and(eq(companies.id, facilities.companyId), eq(companies.tenantId, tenantId)))
    .where(and(user, eq(users.tenantId, tenantId)))
    .get();
  if (!row) throw forbidden(denial);
  return { ...row, tenantId, facilityId };
}
