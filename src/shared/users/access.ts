import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { companies, facilities, facilityGrants, users } from "../../db/schema";
import { forbidden } from "../../platform/errors";
import { Remembered } from "../../platform/remembered";

export interface OrderingContext {
  userId: number;
  contactId: number;
  tenantId: number;
  facilityId: number;
  companyId: number;
}

/**
 * The requester (a contactId) must be an active user of the caller's tenant who may order for the facility: granted
 * directly or by a SCIM group (facility_grants), the facility not disabled. Every failure is the same 403, so a
 * caller learns nothing about other tenants' ids; a deactivated or deleted user is refused at once (docs/api.md, "SCIM").
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

/**
 * Per-isolate memory of granted facility access, for reads of data that is not the tenant's (the catalog): an
 * isolate asks D1 again after `ttlSeconds` (ACCESS_CACHE_SECONDS), so a revoked access stops there within that
 * delay. Writes (quotes, orders) always check D1. A refusal is never remembered.
 */
const grantedAccess = new Remembered<OrderingContext>();

export function requireRememberedFacilityAccess(
  db: Database,
  tenantId: number,
  requesterContactId: number,
  facilityId: number,
  ttlSeconds: number,
): Promise<OrderingContext> {
  return grantedAccess.get(`${tenantId}:${requesterContactId}:${facilityId}`, ttlSeconds, () =>
    requireFacilityAccess(db, tenantId, requesterContactId, facilityId),
  );
}

/** Forgets remembered access (test files that recreate the database). */
export const forgetGrantedAccess = () => grantedAccess.clear();

/** The same rule for a user given by userId (the user placing an order). */
export function requireUserFacilityAccess(db: Database, tenantId: number, userId: number, facilityId: number): Promise<OrderingContext> {
  return facilityAccess(db, tenantId, facilityId, eq(users.id, userId), "The user may not order for this facility.");
}

async function facilityAccess(db: Database, tenantId: number, facilityId: number, user: SQL, denial: string): Promise<OrderingContext> {
  const row = await db
    .select({ userId: users.id, contactId: users.contactId, companyId: facilities.companyId })
    .from(users)
    .innerJoin(facilityGrants, and(eq(facilityGrants.userId, users.id), eq(facilityGrants.facilityId, facilityId)))
    .innerJoin(facilities, and(eq(facilities.id, facilityGrants.facilityId), isNull(facilities.disabledAt)))
    .innerJoin(companies, and(eq(companies.id, facilities.companyId), eq(companies.tenantId, tenantId), isNull(companies.disabledAt)))
    .where(and(user, eq(users.tenantId, tenantId), eq(users.active, true), isNull(users.deletedAt)))
    .limit(1)
    .get();
  if (!row) throw forbidden(denial);
  return { ...row, tenantId, facilityId };
}
