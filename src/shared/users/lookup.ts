import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { addresses, companies, companyGrants, facilities, facilityGrants, users } from "../../db/schema";
import { forbidden, notFound } from "../../platform/errors";
import { Remembered } from "../../platform/remembered";

export type UserRow = typeof users.$inferSelect;
export type UserKey = { userId: number } | { loginUserId: string };

const addressView = (a: typeof addresses.$inferSelect) => ({
  id: a.id,
  attentionTo: a.attentionTo,
  line1: a.line1,
  city: a.city,
  state: a.state,
  zip: a.zip,
  country: a.country,
});

/** A user id is global (another tenant's is a 403); a user name is looked up in the caller's tenant only. */
const keyCondition = (key: UserKey, tenantId: number) =>
  and(
    "userId" in key ? eq(users.id, key.userId) : and(eq(users.loginUserId, key.loginUserId), eq(users.tenantId, tenantId)),
    isNull(users.deletedAt),
  );

/**
 * User (spec 2.1) with companies, their addresses, and the facilities the user may order for, in one D1
 * round trip. A user id of another tenant is 403 (spec 5.6: cross-tenant access), an unknown one 404, and a user name
 * not of the tenant 404 (another tenant's or none); the
 * related rows are read through the caller's tenant only, so another tenant's data is never even loaded.
 */
export async function lookupUserProfile(db: Database, tenantId: number, key: UserKey) {
  const tenantUserId = db
    .select({ id: users.id })
    .from(users)
    .where(and(keyCondition(key, tenantId), eq(users.tenantId, tenantId)));
  const companyIds = db.select({ id: companyGrants.companyId }).from(companyGrants).where(inArray(companyGrants.userId, tenantUserId));
  const [userRows, companyRows, addressRows, facilityRows] = await db.batch([
    db.select().from(users).where(keyCondition(key, tenantId)).limit(1),
    db
      .select()
      .from(companies)
      .where(and(inArray(companies.id, companyIds), isNull(companies.disabledAt)))
      .orderBy(companies.id),
    db
      .select()
      .from(addresses)
      .where(and(inArray(addresses.companyId, companyIds), isNull(addresses.disabledAt)))
      .orderBy(addresses.id),
    db
      .selectDistinct({ id: facilities.id, name: facilities.name, companyId: facilities.companyId })
      .from(facilityGrants)
      .innerJoin(facilities, and(eq(facilities.id, facilityGrants.facilityId), isNull(facilities.disabledAt)))
      .where(inArray(facilityGrants.userId, tenantUserId))
      .orderBy(facilities.id),
  ]);
  const user = userRows[0];
  // A user name is looked up in the caller's directory only: another tenant's name is as unknown as no name at all
  // (names are personal data; an answer that differed would tell who has an account elsewhere). A user id is global:
  // another tenant's is the spec's 403 (5.6), an id of no user its 404 (7.1). docs/decisions.md.
  if (!user || (user.tenantId !== tenantId && "loginUserId" in key)) throw notFound("No user of your tenant matches the given id.");
  if (user.tenantId !== tenantId) throw forbidden("The user belongs to another tenant.");
  // Deprovisioned by the tenant's identity provider (SCIM active=false): not a requester any more (docs/api.md, "SCIM").
  if (!user.active) throw forbidden("The user is deactivated.");
  return {
    contactId: user.contactId,
    userId: user.id,
    loginUserId: user.loginUserId,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email ?? "",
    companies: companyRows.map((company) => ({
      id: company.id,
      name: company.name,
      shippingAddresses: addressRows.filter((a) => a.companyId === company.id && a.kind === "shipping").map(addressView),
      billingAddresses: addressRows.filter((a) => a.companyId === company.id && a.kind === "billing").map(addressView),
      facilities: facilityRows.filter((f) => f.companyId === company.id).map(({ id, name }) => ({ id, name })),
    })),
  };
}

export type UserProfile = Awaited<ReturnType<typeof lookupUserProfile>>;

/**
 * Per-isolate memory of found profiles (USER_PROFILE_CACHE_SECONDS). The API never writes the directory (users,
 * companies, addresses, facilities): it changes only by administration, which then shows on lookups within the TTL,
 * as a replica's lag would. Orders and quotes check addresses and facilities on D1 every time, so a remembered
 * profile can never place an order the directory no longer allows. Keyed by tenant: another tenant's token never
 * reads a profile remembered for this one (it asks D1 and gets its 403). A 403 or 404 is never remembered. At most
 * 1,000 profiles (a few MB of the isolate's 128 MB), the oldest forgotten first.
 */
const rememberedProfiles = new Remembered<UserProfile>(Date.now, 1_000);

const profileKey = (tenantId: number, key: UserKey) =>
  "userId" in key ? `${tenantId}:id:${key.userId}` : `${tenantId}:login:${key.loginUserId}`;

export function lookupRememberedUserProfile(db: Database, tenantId: number, key: UserKey, ttlSeconds: number): Promise<UserProfile> {
  return rememberedProfiles.get(profileKey(tenantId, key), ttlSeconds, () => lookupUserProfile(db, tenantId, key));
}

/** Forgets remembered profiles (test files that recreate the database). */
export const forgetUserProfiles = () => rememberedProfiles.clear();
