import { and, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { companies, companyGrants, users } from "../../db/schema";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageOf, pageWithTotal, type SearchPlan } from "../../query/search";

/**
 * User search records (spec 2.12) of one tenant for a compiled plan (from `q` or from POST filters): its active users
 * (deactivated and deleted ones are no requesters; docs/api.md, "SCIM").
 */
export async function searchUsers(db: Database, tenantId: number, plan: SearchPlan, page: Page) {
  const where: SQL = and(eq(users.tenantId, tenantId), eq(users.active, true), isNull(users.deletedAt), plan.filter)!;
  const {
    rows,
    total,
    related: [memberships],
  } = await pageWithTotal(
    db,
    pageOf(
      db
        .select({
          id: users.id,
          contactId: users.contactId,
          userName: users.loginUserId,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(users)
        .$dynamic(),
      where,
      plan,
      page,
    ),
    users,
    where,
    [
      // The page's companies in the same batch: the page query again, as the set of its user ids.
      db
        .selectDistinct({ userId: companyGrants.userId, id: companies.id, name: companies.name })
        .from(companyGrants)
        .innerJoin(companies, eq(companies.id, companyGrants.companyId))
        .where(inArray(companyGrants.userId, pageOf(db.select({ id: users.id }).from(users).$dynamic(), where, plan, page)))
        .orderBy(companies.id),
    ],
  );
  const items = rows.map((user) => ({
    ...user,
    companies: memberships.filter((m) => m.userId === user.id).map(({ id, name }) => ({ id, name })),
  }));
  return { items, pagination: paginationOf(page, total, rows.length) };
}
