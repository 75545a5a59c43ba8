import { z } from "zod";
import { NO_CONTROL_CHARACTERS } from "../../platform/control-characters";
import { isJsonObject } from "../../platform/json-object";
import { auditStatement } from "../onboarding/audit";
import { canonicalKeys, type Json, keyOf, validResource } from "./attributes";
import { ScimError, scimBadRequest, scimNotFound, violatesConstraint } from "./errors";
import type { FilterColumn } from "./filter-sql";
import { checkedAgainst, extensionOf, USER_EXTENSION_SCHEMA, USER_SCHEMA, USER_TYPE } from "./resource-schemas";
import { EMAIL_ADDRESS } from "./text";

/**
 * SCIM Users (RFC 7643 4.1) stored as the tenant's users (docs/api.md, "SCIM"): userName, name, emails, active and
 * externalId in the columns the buyer API reads; the contact id (the buyer API's requesterId) assigned by Medparts and
 * shown in the extension schema; any other attribute the identity provider sends kept as sent and answered back.
 */

const USER_SCHEMA_URNS = [USER_SCHEMA, USER_EXTENSION_SCHEMA] as const;

export interface UserRow {
  id: number;
  tenant_id: number;
  contact_id: number;
  user_name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  external_id: string | null;
  active: number;
  scim: string | null;
  created_at: string;
  updated_at: string | null;
  version: number;
}

const noControl = (max: number) => z.string().max(max).regex(NO_CONTROL_CHARACTERS, "No control characters.");

/** "True", "false", true: Entra ID sends booleans as strings. */
const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i, "true or false")
    .transform((value) => value.toLowerCase() === "true"),
]);

const EmailSchema = z
  .object({
    value: z.string().max(320).regex(EMAIL_ADDRESS, "An e-mail address."),
    type: noControl(50).optional().nullable(),
    primary: scimBoolean.optional().nullable(),
    display: noControl(320).optional().nullable(),
  })
  .passthrough();

/** What a User must be after a create, a replace or a patch; unknown attributes are kept as sent. */
export const UserInputSchema = z
  .object({
    userName: noControl(256)
      .transform((value) => value.trim())
      .pipe(z.string().min(1, "userName is required and may not be blank.")),
    externalId: noControl(256).nullable().optional(),
    active: scimBoolean.optional().nullable(),
    displayName: noControl(256).nullable().optional(),
    name: z
      .object({
        givenName: noControl(200).nullable().optional(),
        familyName: noControl(200).nullable().optional(),
        formatted: noControl(400).nullable().optional(),
      })
      .passthrough()
      .nullable()
      .optional(),
    emails: z.array(EmailSchema).max(20, "At most 20 emails.").nullable().optional(),
  })
  .passthrough();

export type UserInput = z.infer<typeof UserInputSchema>;

const KNOWN = ["userName", "externalId", "active", "displayName", "name", "emails", "schemas", "id", "meta"];
const KNOWN_NAME = ["givenName", "familyName", "formatted", "middleName", "honorificPrefix", "honorificSuffix"];
const KNOWN_EMAIL = ["value", "type", "primary", "display"];

/** Known attribute names in their canonical spelling, the name's and the e-mails' too. */
function canonicalUser(body: Json): Json {
  const user = canonicalKeys(body, [...KNOWN, USER_EXTENSION_SCHEMA]);
  if (isJsonObject(user.name)) user.name = canonicalKeys(user.name, KNOWN_NAME);
  if (Array.isArray(user.emails)) user.emails = user.emails.map((e) => (isJsonObject(e) ? canonicalKeys(e, KNOWN_EMAIL) : e));
  return user;
}

/** Validates a user's representation; 400 invalidSyntax for its schemas list, invalidValue naming the attribute. */
export const validUser = (body: unknown): UserInput =>
  validResource(UserInputSchema, body, (user) => canonicalUser(checkedAgainst(USER_TYPE, user)));

/** The e-mail the buyer API shows: the primary one, else the work one, else the first. */
function chosenEmail(emails: UserInput["emails"]): string | null {
  if (!emails || emails.length === 0) return null;
  return (emails.find((e) => e.primary === true) ?? emails.find((e) => e.type?.toLowerCase() === "work") ?? emails[0]!).value;
}

/**
 * The columns of a valid user, and what is kept of the representation: readOnly attributes dropped, and a password
 * (writeOnly in RFC 7643, which Okta's password sync sends) never stored nor answered. `active` left out keeps the
 * user's current state (a PUT or PATCH that omits it never reactivates a deprovisioned user); new users are active.
 */
export function columnsOf(input: UserInput, currentlyActive = true) {
  const kept: Json = { ...input };
  for (const dropped of ["id", "meta", "schemas", "groups", "password"]) delete kept[keyOf(kept, dropped)];
  delete kept[keyOf(kept, USER_EXTENSION_SCHEMA)];
  // At most one primary e-mail (RFC 7643 2.4): the last one marked, as an add of a new primary one means.
  if (Array.isArray(kept.emails)) {
    const primaries = (kept.emails as Json[]).filter((email) => email.primary === true);
    for (const email of primaries.slice(0, -1)) email.primary = false;
  }
  return {
    userName: input.userName,
    firstName: input.name?.givenName ?? "",
    lastName: input.name?.familyName ?? "",
    email: chosenEmail(kept.emails as UserInput["emails"]),
    externalId: input.externalId ?? null,
    active: input.active ?? currentlyActive,
    scim: JSON.stringify(kept),
  };
}

export type UserColumns = ReturnType<typeof columnsOf>;

/** The user's columns in the order both writes bind them (?3 to ?9): user_name, first_name, last_name, email, external_id, active, scim. */
const columnValues = (user: UserColumns) =>
  [user.userName, user.firstName, user.lastName, user.email, user.externalId, user.active ? 1 : 0, user.scim] as const;

const isDeclaredTopLevel = (key: string) =>
  extensionOf(USER_TYPE, key) !== undefined || USER_TYPE.schema.attributes.some((a) => a.name.toLowerCase() === key.toLowerCase());

/** The SCIM representation of a stored user. */
export function presentUser(row: UserRow, base: string): Json {
  const stored: Json = row.scim ? (JSON.parse(row.scim) as Json) : {};
  // Attributes kept before only declared ones were taken are not answered: a PATCH of the user would refuse them.
  const kept = Object.fromEntries(Object.entries(stored).filter(([key]) => isDeclaredTopLevel(key)));
  const name: Json = isJsonObject(kept.name) ? { ...kept.name } : {};
  if (row.first_name) name.givenName = row.first_name;
  if (row.last_name) name.familyName = row.last_name;
  const emails = kept.emails ?? (row.email ? [{ value: row.email, type: "work", primary: true }] : undefined);
  // Every schema whose attributes the user carries: the core one, ours, and any extension kept (e.g. the enterprise one).
  const extensions = Object.keys(kept).filter(
    (key) => extensionOf(USER_TYPE, key) && !USER_SCHEMA_URNS.some((urn) => urn.toLowerCase() === key.toLowerCase()),
  );
  return {
    ...kept,
    schemas: [...USER_SCHEMA_URNS, ...extensions],
    id: String(row.id),
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    ...(emails ? { emails } : {}),
    active: row.active === 1,
    [USER_EXTENSION_SCHEMA]: { contactId: row.contact_id },
    meta: {
      resourceType: "User",
      created: row.created_at,
      lastModified: row.updated_at ?? row.created_at,
      location: `${base}/Users/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}

/** The attributes a Users filter may name (RFC 7644 3.4.2.2), and the column each is. */
export const USER_FILTER_COLUMNS: Record<string, FilterColumn> = {
  id: { type: "id", sql: "id" },
  username: { type: "string", sql: "user_name" },
  externalid: { type: "string", sql: "external_id", caseExact: true },
  active: { type: "boolean", sql: "active" },
  "name.givenname": { type: "string", sql: "first_name" },
  "name.familyname": { type: "string", sql: "last_name" },
  emails: { type: "string", sql: "email" },
  "emails.value": { type: "string", sql: "email" },
  "emails.type": { type: "string", sql: "CASE WHEN email IS NULL THEN NULL ELSE 'work' END" },
  "meta.created": { type: "datetime", sql: "created_at" },
  "meta.lastmodified": { type: "datetime", sql: "coalesce(updated_at, created_at)" },
  [`${USER_EXTENSION_SCHEMA.toLowerCase()}:contactid`]: {
    type: "custom",
    condition: (op, value) => {
      if (op !== "eq" || typeof value !== "number") throw scimBadRequest("invalidFilter", "Compare contactId with eq and a number.");
      return { sql: "contact_id = ?", params: [value] };
    },
  },
};

export interface Actor {
  tenantId: number;
  /** Who the audit log names: `scim:<token id>`. */
  name: string;
}

const audit = (db: D1Database, actor: Actor, action: string, targetId: string | null, before: unknown, after: unknown, at: string) =>
  auditStatement(db, { actor: actor.name, action: `user.${action}`, targetType: "user", targetId, before, after }, at);

const auditView = (row: Pick<UserRow, "user_name" | "active" | "external_id"> | UserColumns) =>
  "user_name" in row
    ? { userName: row.user_name, active: row.active === 1, externalId: row.external_id }
    : { userName: row.userName, active: row.active, externalId: row.externalId };

const uniqueness = (userName: string) =>
  new ScimError(409, `userName ${userName} is already a user of this tenant (user names are unique, case-insensitively).`, "uniqueness");

export async function readUser(db: D1Database, tenantId: number, id: number): Promise<UserRow> {
  const row = await db
    .prepare("SELECT * FROM users WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL")
    .bind(id, tenantId)
    .first<UserRow>();
  if (!row) throw scimNotFound(`No user ${id}.`);
  return row;
}

/** Creates a user with the next contact id; 409 uniqueness when the tenant has the userName (one statement decides). */
export async function createUser(db: D1Database, actor: Actor, user: UserColumns): Promise<UserRow> {
  const at = new Date().toISOString();
  const [inserted] = await db.batch([
    db
      .prepare(
        "INSERT INTO users (tenant_id, contact_id, login_user_id, user_name, first_name, last_name, email, external_id, active, scim, created_at, updated_at) " +
          "SELECT ?1, (SELECT coalesce(max(contact_id), 0) + 1 FROM users), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10 WHERE true " +
          "ON CONFLICT DO NOTHING RETURNING *",
      )
      .bind(actor.tenantId, `scim:${crypto.randomUUID()}`, ...columnValues(user), at),
    audit(db, actor, "created", null, null, auditView(user), at),
  ]);
  const row = (inserted!.results as UserRow[])[0];
  if (!row) throw uniqueness(user.userName);
  return row;
}

/**
 * Replaces a user's attributes when it is still at `expected`'s version (the audit's "before" is what was replaced);
 * null when another change came first.
 */
export async function replaceUser(db: D1Database, actor: Actor, expected: UserRow, user: UserColumns): Promise<UserRow | null> {
  const at = new Date().toISOString();
  try {
    const [updated] = await db.batch([
      db
        .prepare(
          "UPDATE users SET user_name = ?3, first_name = ?4, last_name = ?5, email = ?6, external_id = ?7, active = ?8, scim = ?9, " +
            "updated_at = ?10, version = version + 1 WHERE id = ?1 AND tenant_id = ?11 AND version = ?2 AND deleted_at IS NULL RETURNING *",
        )
        .bind(expected.id, expected.version, ...columnValues(user), at, actor.tenantId),
      audit(
        db,
        actor,
        user.active === (expected.active === 1) ? "replaced" : user.active ? "activated" : "deactivated",
        String(expected.id),
        auditView(expected),
        auditView(user),
        at,
      ),
    ]);
    return (updated!.results as UserRow[])[0] ?? null;
  } catch (err) {
    if (violatesConstraint(err, "UNIQUE")) throw uniqueness(user.userName);
    throw err;
  }
}

/**
 * Deletes a user: gone from SCIM and the buyer API at once, its group memberships with it; the row stays for the
 * orders and quotes that name it, and its userName is free again.
 */
export async function deleteUser(db: D1Database, actor: Actor, id: number): Promise<void> {
  const at = new Date().toISOString();
  const before = await readUser(db, actor.tenantId, id);
  const [deleted] = await db.batch([
    db
      .prepare(
        "UPDATE users SET deleted_at = ?3, active = 0, updated_at = ?3, version = version + 1 WHERE id = ?1 AND tenant_id = ?2 AND deleted_at IS NULL",
      )
      .bind(id, actor.tenantId, at),
    audit(db, actor, "deleted", String(id), auditView(before), null, at),
    db.prepare("DELETE FROM scim_group_members WHERE user_id = ? AND (SELECT deleted_at FROM users WHERE id = ?) = ?").bind(id, id, at),
  ]);
  if (deleted!.meta.changes === 0) throw scimNotFound(`No user ${id}.`);
}
