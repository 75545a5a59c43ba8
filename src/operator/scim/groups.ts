import { z } from "zod";
import { NO_CONTROL_CHARACTERS } from "../../platform/control-characters";
import { isJsonObject } from "../../platform/json-object";
import { remapGroupsStatement } from "../../shared/users/group-facilities";
import { auditStatement } from "../onboarding/audit";
import { canonicalKeys, type Json, validResource } from "./attributes";
import { ScimError, scimBadRequest, scimNotFound, violatesConstraint } from "./errors";
import type { FilterColumn } from "./filter-sql";
import { checkTarget, type PatchOperation, parsePath, pathsOf } from "./patch";
import { checkedAgainst, GROUP_EXTENSION_SCHEMA, GROUP_TYPE, schemaUrns } from "./resource-schemas";
import type { Actor } from "./users";

/**
 * SCIM Groups (RFC 7643 4.2) as facility access (docs/api.md, "SCIM"): a group grants its members the tenant's facility
 * its displayName names (the facility's externalId, else its GLN, else its name, case-insensitively); a group that names
 * no facility grants nothing until one does. Members are users of the tenant. Membership changes are set operations in
 * SQL (a group of thousands is never read and written back whole).
 */

const GROUP_SCHEMA_URNS = schemaUrns(GROUP_TYPE);

export interface GroupRow {
  id: number;
  tenant_id: number;
  display_name: string;
  external_id: string | null;
  facility_id: number | null;
  created_at: string;
  updated_at: string;
  version: number;
}

const MAX_MEMBERS_PER_REQUEST = 1000;

const MemberSchema = z
  .object({ value: z.string().max(20), display: z.string().max(300).optional(), type: z.string().max(20).optional() })
  .passthrough();

const GroupInputSchema = z
  .object({
    displayName: z
      .string()
      .max(200)
      .regex(NO_CONTROL_CHARACTERS, "No control characters.")
      .transform((value) => value.trim())
      .pipe(z.string().min(1, "displayName is required and may not be blank.")),
    externalId: z.string().max(256).nullable().optional(),
    members: z.array(MemberSchema).max(MAX_MEMBERS_PER_REQUEST).nullable().optional(),
  })
  .passthrough();

export type GroupInput = z.infer<typeof GroupInputSchema>;

export const validGroup = (body: unknown): GroupInput =>
  validResource(GroupInputSchema, body, (group) =>
    canonicalKeys(checkedAgainst(GROUP_TYPE, group), ["displayName", "externalId", "members"]),
  );

/** Member values are user ids: anything else names no user of the tenant (400 invalidValue, checked by `checkMembers`). */
function memberIds(members: readonly { value: string }[]): number[] {
  return [...new Set(members.map((m) => (/^[1-9]\d{0,15}$/.test(m.value) ? Number(m.value) : -1)))];
}

/** 400 unless every id is a live user of the tenant. */
async function checkMembers(db: D1Database, tenantId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .prepare("SELECT count(*) AS n FROM users WHERE tenant_id = ?1 AND deleted_at IS NULL AND id IN (SELECT value FROM json_each(?2))")
    .bind(tenantId, JSON.stringify(ids))
    .first<{ n: number }>();
  if (found!.n !== ids.length) throw scimBadRequest("invalidValue", "Every member value must be the id of a user of this tenant.");
}

export async function readGroup(db: D1Database, tenantId: number, id: number): Promise<GroupRow> {
  const row = await db.prepare("SELECT * FROM scim_groups WHERE id = ? AND tenant_id = ?").bind(id, tenantId).first<GroupRow>();
  if (!row) throw scimNotFound(`No group ${id}.`);
  return row;
}

/** Members of the given groups, as SCIM member values. */
export async function membersOf(db: D1Database, groupIds: readonly number[]): Promise<Map<number, Json[]>> {
  const byGroup = new Map<number, Json[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const { results } = await db
    .prepare(
      "SELECT m.group_id, u.id, u.user_name FROM scim_group_members m JOIN users u ON u.id = m.user_id " +
        "WHERE m.group_id IN (SELECT value FROM json_each(?1)) ORDER BY m.group_id, u.id",
    )
    .bind(JSON.stringify(groupIds))
    .all<{ group_id: number; id: number; user_name: string }>();
  for (const row of results) byGroup.get(row.group_id)!.push({ value: String(row.id), display: row.user_name, type: "User" });
  return byGroup;
}

export function presentGroup(row: GroupRow, base: string, members: Json[] | undefined): Json {
  return {
    schemas: [...GROUP_SCHEMA_URNS],
    id: String(row.id),
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(members ? { members: members.map((m) => ({ ...m, $ref: `${base}/Users/${m.value}` })) } : {}),
    [GROUP_EXTENSION_SCHEMA]: { facilityId: row.facility_id },
    meta: {
      resourceType: "Group",
      created: row.created_at,
      lastModified: row.updated_at,
      location: `${base}/Groups/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}

export const GROUP_FILTER_COLUMNS: Record<string, FilterColumn> = {
  id: { type: "id", sql: "id" },
  displayname: { type: "string", sql: "display_name" },
  externalid: { type: "string", sql: "external_id", caseExact: true },
  "meta.created": { type: "datetime", sql: "created_at" },
  "meta.lastmodified": { type: "datetime", sql: "updated_at" },
  "members.value": {
    type: "custom",
    condition: (op, value) => {
      if (op !== "eq" || typeof value !== "string") throw scimBadRequest("invalidFilter", "Compare members.value with eq and a user id.");
      const id = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : -1;
      return { sql: "EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = scim_groups.id AND m.user_id = ?)", params: [id] };
    },
  },
};
GROUP_FILTER_COLUMNS.members = GROUP_FILTER_COLUMNS["members.value"]!;

const audit = (db: D1Database, actor: Actor, action: string, targetId: string | null, before: unknown, after: unknown, at: string) =>
  auditStatement(db, { actor: actor.name, action: `group.${action}`, targetType: "group", targetId, before, after }, at);

const uniqueness = (name: string) =>
  new ScimError(409, `The tenant has a group named ${name} (names are unique, case-insensitively).`, "uniqueness");

/** Inserts the members (live users of the tenant only) of the group the statement before wrote, if it wrote one. */
const addMembersStatement = (db: D1Database, tenantId: number, groupId: number | null, ids: readonly number[]) =>
  db
    .prepare(
      "INSERT OR IGNORE INTO scim_group_members (group_id, user_id) SELECT coalesce(?1, (SELECT CAST(target_id AS INTEGER) FROM audit_log WHERE id = last_insert_rowid())), u.id " +
        "FROM users u WHERE (?1 IS NOT NULL OR changes() > 0) AND u.tenant_id = ?2 AND u.deleted_at IS NULL AND u.id IN (SELECT value FROM json_each(?3))",
    )
    .bind(groupId, tenantId, JSON.stringify(ids));

export async function createGroup(db: D1Database, actor: Actor, input: GroupInput): Promise<GroupRow> {
  const ids = memberIds(input.members ?? []);
  await checkMembers(db, actor.tenantId, ids);
  const at = new Date().toISOString();
  const [inserted] = await db.batch([
    db
      .prepare(
        "INSERT INTO scim_groups (tenant_id, display_name, external_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4) ON CONFLICT DO NOTHING RETURNING id",
      )
      .bind(actor.tenantId, input.displayName, input.externalId ?? null, at),
    audit(db, actor, "created", null, null, { displayName: input.displayName, externalId: input.externalId ?? null, members: ids }, at),
    addMembersStatement(db, actor.tenantId, null, ids),
    remapGroupsStatement(db, { tenantId: actor.tenantId, displayName: input.displayName }),
  ]);
  const created = (inserted!.results as { id: number }[])[0];
  if (!created) throw uniqueness(input.displayName);
  return readGroup(db, actor.tenantId, created.id);
}

/** PUT: name, externalId and the whole member list replaced, in one batch. */
export async function replaceGroup(db: D1Database, actor: Actor, id: number, input: GroupInput): Promise<GroupRow> {
  const before = await readGroup(db, actor.tenantId, id);
  const ids = memberIds(input.members ?? []);
  await checkMembers(db, actor.tenantId, ids);
  const at = new Date().toISOString();
  try {
    await db.batch([
      db
        .prepare(
          "UPDATE scim_groups SET display_name = ?3, external_id = ?4, updated_at = ?5, version = version + 1 WHERE id = ?1 AND tenant_id = ?2",
        )
        .bind(id, actor.tenantId, input.displayName, input.externalId ?? null, at),
      audit(db, actor, "replaced", String(id), { displayName: before.display_name }, { displayName: input.displayName, members: ids }, at),
      db
        .prepare("DELETE FROM scim_group_members WHERE group_id = ?1 AND user_id NOT IN (SELECT value FROM json_each(?2))")
        .bind(id, JSON.stringify(ids)),
      addMembersStatement(db, actor.tenantId, id, ids),
      remapGroupsStatement(db, { groupId: id }),
    ]);
  } catch (err) {
    if (violatesConstraint(err, "UNIQUE")) throw uniqueness(input.displayName);
    throw err;
  }
  return readGroup(db, actor.tenantId, id);
}

/**
 * PATCH: displayName and externalId replaced, members added, removed (by a `members[value eq "id"]` path or a value
 * list) or replaced; Entra ID's and Okta's forms alike. All operations commit in one batch.
 */
export async function patchGroup(
  db: D1Database,
  actor: Actor,
  id: number,
  operations: readonly PatchOperation[],
  base: string,
): Promise<GroupRow> {
  const before = await readGroup(db, actor.tenantId, id);
  // What readOnly attributes are compared with (the members are not: none of theirs a PATCH may name is readOnly).
  const current = presentGroup(before, base, undefined);
  let displayName = before.display_name;
  let externalId = before.external_id;
  const statements: D1PreparedStatement[] = [];
  const added: number[] = [];
  const memberValues = (value: unknown): number[] => {
    const list = Array.isArray(value) ? value : [value];
    const parsed = z.array(MemberSchema).max(MAX_MEMBERS_PER_REQUEST).safeParse(list);
    if (!parsed.success) throw scimBadRequest("invalidValue", "members: a list of { value: <user id> }.");
    return memberIds(parsed.data);
  };
  const apply = (op: "add" | "replace" | "remove", path: string | undefined, value: unknown) => {
    if (path === undefined) {
      if (!isJsonObject(value)) throw scimBadRequest("invalidValue", "An operation without a path needs an object value.");
      for (const [name, inner] of pathsOf(value)) apply(op, name, inner);
      return;
    }
    const parsed = parsePath(path, GROUP_SCHEMA_URNS);
    // Okta renames with a path-less value that also carries the group's id: a readOnly attribute at its value is no change.
    if (!checkTarget(GROUP_TYPE, op, parsed, path, current, value)) return;
    const attribute = parsed.attribute.toLowerCase();
    if (attribute === "displayname" && !parsed.filter && !parsed.sub) {
      if (op === "remove") throw scimBadRequest("mutability", "displayName is required.");
      displayName = validGroup({ displayName: value }).displayName;
    } else if (attribute === "externalid" && !parsed.filter && !parsed.sub) {
      externalId = op === "remove" ? null : (validGroup({ displayName: "x", externalId: value }).externalId ?? null);
    } else if (attribute === "members") {
      if (op === "add") {
        const ids = memberValues(value);
        added.push(...ids);
        statements.push(addMembersStatement(db, actor.tenantId, id, ids));
      } else if (op === "replace") {
        const ids = memberValues(value);
        added.push(...ids);
        statements.push(
          db.prepare("DELETE FROM scim_group_members WHERE group_id = ?").bind(id),
          addMembersStatement(db, actor.tenantId, id, ids),
        );
      } else if (parsed.filter) {
        const filter = parsed.filter;
        if (filter.op !== "eq" || filter.attrPath.toLowerCase() !== "value" || typeof filter.compValue !== "string") {
          throw scimBadRequest("invalidPath", 'Remove members by members[value eq "<user id>"].');
        }
        statements.push(
          db
            .prepare("DELETE FROM scim_group_members WHERE group_id = ? AND user_id = ?")
            .bind(id, memberIds([{ value: filter.compValue }])[0]!),
        );
      } else if (value === undefined) {
        statements.push(db.prepare("DELETE FROM scim_group_members WHERE group_id = ?").bind(id));
      } else {
        statements.push(
          db
            .prepare("DELETE FROM scim_group_members WHERE group_id = ? AND user_id IN (SELECT value FROM json_each(?))")
            .bind(id, JSON.stringify(memberValues(value))),
        );
      }
    } else {
      throw scimBadRequest("invalidPath", `A group has displayName, externalId and members; not ${path}.`);
    }
  };
  for (const operation of operations) {
    const op = String(operation.op).toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove") throw scimBadRequest("invalidSyntax", "op must be add, replace or remove.");
    if (op !== "remove" && operation.value === undefined) throw scimBadRequest("invalidValue", `${op} needs a value.`);
    if (op === "remove" && !operation.path) throw scimBadRequest("noTarget", "A remove needs a path.");
    apply(op, operation.path || undefined, operation.value);
  }
  await checkMembers(db, actor.tenantId, [...new Set(added)]);
  const at = new Date().toISOString();
  try {
    await db.batch([
      db
        .prepare(
          "UPDATE scim_groups SET display_name = ?3, external_id = ?4, updated_at = ?5, version = version + 1 WHERE id = ?1 AND tenant_id = ?2",
        )
        .bind(id, actor.tenantId, displayName, externalId, at),
      audit(db, actor, "patched", String(id), { displayName: before.display_name }, { displayName, operations }, at),
      ...statements,
      remapGroupsStatement(db, { groupId: id }),
    ]);
  } catch (err) {
    if (violatesConstraint(err, "UNIQUE")) throw uniqueness(displayName);
    // Deleted meanwhile: its members have no group to join.
    if (violatesConstraint(err, "FOREIGN KEY")) throw scimNotFound(`No group ${id}.`);
    throw err;
  }
  return readGroup(db, actor.tenantId, id);
}

export async function deleteGroup(db: D1Database, actor: Actor, id: number): Promise<void> {
  const before = await readGroup(db, actor.tenantId, id);
  const at = new Date().toISOString();
  await db.batch([
    db.prepare("DELETE FROM scim_group_members WHERE group_id = ?").bind(id),
    db.prepare("DELETE FROM scim_groups WHERE id = ? AND tenant_id = ?").bind(id, actor.tenantId),
    audit(db, actor, "deleted", String(id), { displayName: before.display_name }, null, at),
  ]);
}
