import { type SQL, sql } from "drizzle-orm";
import { companies, companyGrants, users } from "../../db/schema";
import { defineSearchResource } from "../../query/fields";

/** A user matches when any of the user's companies satisfies the condition. */
const anyCompany = (condition: SQL) =>
  sql`exists (select 1 from ${companyGrants} inner join ${companies} on ${companies.id} = ${companyGrants.companyId} where ${companyGrants.userId} = ${users.id} and ${condition})`;

/** GET and POST /users/search: users of the caller's tenant. */
export const userSearch = defineSearchResource({
  name: "users",
  path: "/users/search",
  idColumn: users.id,
  defaultSort: "lastName",
  fields: [
    {
      name: "id",
      aliases: ["userId"],
      type: "Numeric",
      unit: "integer",
      column: users.id,
      sortable: true,
      description: "User id (as in `/users/lookup?userId=`)",
    },
    {
      name: "contactId",
      type: "Numeric",
      unit: "integer",
      column: users.contactId,
      sortable: true,
      description: "Contact id, used as `requesterId` in catalog and order calls",
    },
    {
      name: "userName",
      aliases: ["loginUserId"],
      type: "String",
      column: users.loginUserId,
      sortable: true,
      description: "Login user name, e.g. `jsmith`",
    },
    { name: "email", type: "String", column: users.email, sortable: true, description: "E-mail address (may be missing: `email:null`)" },
    { name: "firstName", type: "String", column: users.firstName, sortable: true, description: "First name" },
    { name: "lastName", type: "String", column: users.lastName, sortable: true, description: "Last name" },
    {
      name: "customerId",
      aliases: ["companyId"],
      type: "Numeric",
      unit: "integer",
      column: companyGrants.companyId,
      sortable: false,
      related: anyCompany,
      description: "Id of a company (customer account) the user belongs to; matches if any does",
    },
    {
      name: "companyName",
      type: "String",
      column: companies.name,
      sortable: false,
      related: anyCompany,
      description: "Name of a company the user belongs to; matches if any does",
    },
  ],
});
