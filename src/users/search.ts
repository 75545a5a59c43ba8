import { and, eq, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { companies, userCompanies, users } from "../db/schema";
import { type Page, paginationOf } from "../platform/pagination";
import { inIds, pageWithTotal, type SearchPlan } from "../query/search";

/** User search records (spec 2.12) of one tenant for a compiled plan (from `q` or from POST filters). */
export async function searchUsers(db: Database, tenantId: number, plan: SearchPlan, page: Page) {
  const where: SQL = and(eq(users.tenantId, tenantId), plan.filter)!;
  const { rows, total } = await pageWithTotal(
    db,
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
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    users,
    where,
  );
  const memberships = rows.length
    ? await db
        .select({ userId: userCompanies.userId, id: companies.id, name: companies.name })
        .from(userCompanies)
        .innerJoin(companies, eq(companies.id, userCompanies.companyId))
        .where(
          inIds(
            userCompanies.userId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(companies.id)
    : [];
  const items = rows.map((user) => ({
    ...user,
    companies: memberships.filter((m) => m.userId === user.id).map(({ id, name }) => ({ id, name })),
  }));
  return { items, pagination: paginationOf(page, total, rows.length) };
}
