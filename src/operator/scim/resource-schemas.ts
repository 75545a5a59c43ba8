import { isJsonObject } from "../../platform/json-object";
import { type Json, keyOf } from "./attributes";
import { scimBadRequest } from "./errors";

/**
 * The schemas this service provider declares (RFC 7643 7), served by /Schemas and /ResourceTypes and enforced on
 * writes: a resource holds only attributes one of its resource type's schemas declares, and a PATCH targets only those.
 */

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const USER_EXTENSION_SCHEMA = "urn:medparts:params:scim:schemas:extension:medparts:2.0:User";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const GROUP_EXTENSION_SCHEMA = "urn:medparts:params:scim:schemas:extension:medparts:2.0:Group";

export interface Attribute {
  name: string;
  type: "string" | "boolean" | "complex" | "integer" | "dateTime" | "reference" | "binary";
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server" | "global";
  subAttributes?: Attribute[];
  referenceTypes?: string[];
}

export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: Attribute[];
}

export interface ResourceTypeDefinition {
  id: "User" | "Group";
  endpoint: string;
  description: string;
  schema: SchemaDefinition;
  extensions: SchemaDefinition[];
}

const attribute = (name: string, description: string, options: Partial<Attribute> = {}): Attribute => ({
  name,
  type: "string",
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...options,
});

/** A multi-valued complex attribute with RFC 7643 2.4's sub-attributes (value, display, type, primary) and its own. */
const multiValued = (name: string, description: string, value: Partial<Attribute> = {}, extra: Attribute[] = []) =>
  attribute(name, description, {
    type: "complex",
    multiValued: true,
    subAttributes: [
      attribute("value", `The ${name} value`, value),
      attribute("display", "A human-readable name"),
      attribute("type", "A label: work, home, other"),
      attribute("primary", "The preferred value", { type: "boolean" }),
      ...extra,
    ],
  });

const externalId = (kind: string) => attribute("externalId", `The identity provider's id for the ${kind}`, { caseExact: true });

const USER: SchemaDefinition = {
  id: USER_SCHEMA,
  name: "User",
  description: "A buyer user (RFC 7643 4.1); the attributes without a column in Medparts are kept as sent and answered back",
  attributes: [
    attribute("userName", "Unique within the tenant, case-insensitively: the customer API's loginUserId", {
      required: true,
      uniqueness: "server",
    }),
    attribute("name", "The user's name", {
      type: "complex",
      subAttributes: [
        attribute("formatted", "The full name, as displayed"),
        attribute("familyName", "Last name (the customer API's lastName)"),
        attribute("givenName", "First name (the customer API's firstName)"),
        attribute("middleName", "Middle names"),
        attribute("honorificPrefix", "e.g. Ms."),
        attribute("honorificSuffix", "e.g. III"),
      ],
    }),
    attribute("displayName", "The name as displayed"),
    attribute("nickName", "The casual name"),
    attribute("profileUrl", "The user's online profile", { type: "reference", referenceTypes: ["external"] }),
    attribute("title", "The user's title, e.g. Biomedical technician"),
    attribute("userType", "The relation to the organization, e.g. Employee"),
    attribute("preferredLanguage", "e.g. en-US"),
    attribute("locale", "e.g. en-US"),
    attribute("timezone", "e.g. America/Chicago"),
    attribute("active", "false: deprovisioned; not a requester in the customer API any more (403)", { type: "boolean" }),
    attribute("password", "Never stored nor answered (Okta's password sync sends one)", { mutability: "writeOnly", returned: "never" }),
    multiValued("emails", "E-mail addresses; the primary one (else work, else the first) is the customer API's email"),
    multiValued("phoneNumbers", "Phone numbers"),
    multiValued("ims", "Instant messaging addresses"),
    multiValued("photos", "Photos' URLs", { type: "reference", referenceTypes: ["external"] }),
    attribute("addresses", "Physical mailing addresses", {
      type: "complex",
      multiValued: true,
      subAttributes: [
        attribute("formatted", "The full address"),
        attribute("streetAddress", "The street"),
        attribute("locality", "The city"),
        attribute("region", "The state or region"),
        attribute("postalCode", "The postal code"),
        attribute("country", "ISO 3166-1 alpha-2"),
        attribute("type", "work, home, other"),
        attribute("primary", "The preferred address", { type: "boolean" }),
      ],
    }),
    attribute("groups", "The groups the user is in: read them from /Groups", {
      type: "complex",
      multiValued: true,
      mutability: "readOnly",
      subAttributes: [
        attribute("value", "A group's id", { mutability: "readOnly" }),
        attribute("$ref", "The group's URI", { type: "reference", mutability: "readOnly", referenceTypes: ["Group"] }),
        attribute("display", "The group's displayName", { mutability: "readOnly" }),
        attribute("type", "direct", { mutability: "readOnly" }),
      ],
    }),
    multiValued("entitlements", "Entitlements"),
    multiValued("roles", "Roles"),
    multiValued("x509Certificates", "Certificates", { type: "binary" }),
    externalId("user"),
  ],
};

const MEDPARTS_USER: SchemaDefinition = {
  id: USER_EXTENSION_SCHEMA,
  name: "MedpartsUser",
  description: "Medparts' attributes of a user",
  attributes: [
    attribute("contactId", "Assigned by Medparts: the customer API's requesterId", {
      type: "integer",
      mutability: "readOnly",
      uniqueness: "global",
    }),
  ],
};

const ENTERPRISE_USER: SchemaDefinition = {
  id: ENTERPRISE_USER_SCHEMA,
  name: "EnterpriseUser",
  description: "RFC 7643 4.3: kept as sent and answered back",
  attributes: [
    attribute("employeeNumber", "The employee's number"),
    attribute("costCenter", "The cost center"),
    attribute("organization", "The organization"),
    attribute("division", "The division"),
    attribute("department", "The department"),
    attribute("manager", "The user's manager", {
      type: "complex",
      subAttributes: [
        attribute("value", "The manager's id"),
        attribute("$ref", "The manager's URI", { type: "reference", referenceTypes: ["User"] }),
        attribute("displayName", "The manager's displayName", { mutability: "readOnly" }),
      ],
    }),
  ],
};

const GROUP: SchemaDefinition = {
  id: GROUP_SCHEMA,
  name: "Group",
  description: "Facility access: members may order for the tenant's facility the displayName names (its externalId, GLN or name)",
  attributes: [
    attribute("displayName", "Names the facility (its externalId, else GLN, else name); unique within the tenant", {
      required: true,
      uniqueness: "server",
    }),
    externalId("group"),
    attribute("members", "Users of the tenant", {
      type: "complex",
      multiValued: true,
      subAttributes: [
        attribute("value", "A user's id", { mutability: "immutable" }),
        attribute("display", "The user's userName", { mutability: "readOnly" }),
        attribute("$ref", "The user's URI", { type: "reference", mutability: "immutable", referenceTypes: ["User"] }),
        attribute("type", "User", { mutability: "immutable" }),
      ],
    }),
  ],
};

const MEDPARTS_GROUP: SchemaDefinition = {
  id: GROUP_EXTENSION_SCHEMA,
  name: "MedpartsGroup",
  description: "Medparts' attributes of a group",
  attributes: [
    attribute("facilityId", "The facility the group grants, or null when its displayName names none", {
      type: "integer",
      mutability: "readOnly",
    }),
  ],
};

export const USER_TYPE: ResourceTypeDefinition = {
  id: "User",
  endpoint: "/Users",
  description: "A buyer user of the tenant: a requester in the customer API",
  schema: USER,
  extensions: [MEDPARTS_USER, ENTERPRISE_USER],
};

export const GROUP_TYPE: ResourceTypeDefinition = {
  id: "Group",
  endpoint: "/Groups",
  description: "Access to the tenant's facility the displayName names (its externalId, GLN or name)",
  schema: GROUP,
  extensions: [MEDPARTS_GROUP],
};

export const RESOURCE_TYPES = [USER_TYPE, GROUP_TYPE] as const;
export const SCHEMAS: readonly SchemaDefinition[] = RESOURCE_TYPES.flatMap((type) => [type.schema, ...type.extensions]);

/** The URNs of a resource type's schemas, its core one first. */
export const schemaUrns = (type: ResourceTypeDefinition) => [type.schema.id, ...type.extensions.map((schema) => schema.id)];

/** RFC 7643 3.1's common attributes, on every resource: the server's, so readOnly (externalId is in each core schema). */
const COMMON = new Set(["id", "meta", "schemas"]);
export const isCommonAttribute = (name: string) => COMMON.has(name.toLowerCase());

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const findIn = (attributes: readonly Attribute[] | undefined, name: string) => attributes?.find((a) => sameName(a.name, name));

/** The extension of the resource type that `urn` names (case-insensitively), if it declares one. */
export const extensionOf = (type: ResourceTypeDefinition, urn: string) => type.extensions.find((schema) => sameName(schema.id, urn));

/**
 * 400 invalidSyntax unless `schemas`, when given, is a list of the resource type's schema URNs that has its core one
 * (RFC 7643 3: "schemas" is what the body claims to be).
 */
export function checkSchemasList(type: ResourceTypeDefinition, schemas: unknown): void {
  if (schemas === undefined) return;
  const urns = schemaUrns(type);
  const valid =
    Array.isArray(schemas) &&
    schemas.every((urn) => typeof urn === "string" && urns.some((known) => sameName(known, urn))) &&
    schemas.some((urn) => sameName(urn as string, type.schema.id));
  if (!valid) {
    throw scimBadRequest("invalidSyntax", `schemas must list ${type.schema.id}, and only schemas a ${type.id} has: ${urns.join(", ")}.`);
  }
}

/** The attribute `name` (core when `urn` is undefined) and, with `sub`, its sub-attribute; undefined where none is declared. */
export function declaredAttribute(type: ResourceTypeDefinition, urn: string | undefined, name: string, sub?: string) {
  const schema = urn === undefined ? type.schema : extensionOf(type, urn);
  const found = findIn(schema?.attributes, name);
  if (!found || sub === undefined) return found;
  return findIn(found.subAttributes, sub);
}

/**
 * The attributes of `resource` that none of its type's schemas declares ("name.nickname", "urn:x:2.0:User"), each
 * as a path; common attributes are left to the caller.
 */
export function undeclaredAttributes(type: ResourceTypeDefinition, resource: Json): string[] {
  const found: string[] = [];
  const walk = (object: Json, attributes: readonly Attribute[], prefix: string) => {
    for (const [key, value] of Object.entries(object)) {
      const declared = findIn(attributes, key);
      if (!declared) {
        found.push(`${prefix}${key}`);
      } else if (declared.subAttributes && value !== null) {
        const elements = Array.isArray(value) ? value : [value];
        for (const element of elements) if (isJsonObject(element)) walk(element, declared.subAttributes, `${prefix}${declared.name}.`);
      }
    }
  };
  for (const [key, value] of Object.entries(resource)) {
    if (isCommonAttribute(key)) continue;
    const extension = extensionOf(type, key);
    if (extension) {
      if (isJsonObject(value)) walk(value, extension.attributes, `${extension.id}:`);
      else if (value !== null) found.push(key);
    } else {
      walk({ [key]: value }, type.schema.attributes, "");
    }
  }
  return found;
}

/** 400 invalidValue naming the first attribute of `resource` no schema of its type declares. */
export function requireDeclared(type: ResourceTypeDefinition, resource: Json): void {
  const [first] = undeclaredAttributes(type, resource);
  if (first !== undefined) {
    throw scimBadRequest("invalidValue", `${first}: no schema of a ${type.id} declares it (see /Schemas).`);
  }
}

/** The resource, once its `schemas` list and its attributes are those its type declares (400 otherwise). */
export function checkedAgainst(type: ResourceTypeDefinition, resource: Json): Json {
  checkSchemasList(type, resource[keyOf(resource, "schemas")]);
  requireDeclared(type, resource);
  return resource;
}
