import { GROUP_EXTENSION_SCHEMA, GROUP_SCHEMA } from "./groups";
import { USER_EXTENSION_SCHEMA, USER_SCHEMA } from "./users";

/** /scim/v2's discovery (RFC 7644 4; RFC 7643 5-7): what this service provider supports, for the identity provider. */

export const LIST_RESPONSE_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const MAX_RESULTS = 200;

export const serviceProviderConfig = (base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
  documentationUri: "https://medparts.example/docs#scim",
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "SCIM token",
      description:
        "A tenant SCIM token issued by the operator (POST /admin/api/tenants/{tenantId}/scim-tokens), sent as Authorization: Bearer <token>",
      primary: true,
    },
  ],
  meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
});

export const resourceTypes = (base: string) => [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "A buyer user of the tenant: a requester in the customer API",
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: USER_EXTENSION_SCHEMA, required: false }],
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "Access to the tenant's facility the displayName names (its externalId, GLN or name)",
    schema: GROUP_SCHEMA,
    schemaExtensions: [{ schema: GROUP_EXTENSION_SCHEMA, required: false }],
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` },
  },
];

interface Attribute {
  name: string;
  type: "string" | "boolean" | "complex" | "integer" | "dateTime" | "reference";
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

const schema = (id: string, name: string, description: string, attributes: Attribute[], base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
  id,
  name,
  description,
  attributes,
  meta: { resourceType: "Schema", location: `${base}/Schemas/${id}` },
});

export const schemas = (base: string) => [
  schema(
    USER_SCHEMA,
    "User",
    "A buyer user; attributes not listed here are kept as sent and answered back",
    [
      attribute("userName", "Unique within the tenant, case-insensitively: the customer API's loginUserId", {
        required: true,
        uniqueness: "server",
      }),
      attribute("name", "The user's name", {
        type: "complex",
        subAttributes: [
          attribute("givenName", "First name (the customer API's firstName)"),
          attribute("familyName", "Last name (the customer API's lastName)"),
          attribute("formatted", "The full name, as displayed"),
        ],
      }),
      attribute("displayName", "The name as displayed"),
      attribute("emails", "E-mail addresses; the primary one (else work, else the first) is the customer API's email", {
        type: "complex",
        multiValued: true,
        subAttributes: [
          attribute("value", "The address"),
          attribute("type", "work, home or other"),
          attribute("primary", "The preferred address", { type: "boolean" }),
        ],
      }),
      attribute("active", "false: deprovisioned; not a requester in the customer API any more (403)", { type: "boolean" }),
      attribute("externalId", "The identity provider's id for the user", { caseExact: true }),
    ],
    base,
  ),
  schema(
    USER_EXTENSION_SCHEMA,
    "MedpartsUser",
    "Medparts' attributes of a user",
    [
      attribute("contactId", "Assigned by Medparts: the customer API's requesterId", {
        type: "integer",
        mutability: "readOnly",
        uniqueness: "global",
      }),
    ],
    base,
  ),
  schema(
    GROUP_SCHEMA,
    "Group",
    "Facility access: members may order for the tenant's facility the displayName names (its externalId, GLN or name)",
    [
      attribute("displayName", "Names the facility (its externalId, else GLN, else name); unique within the tenant", {
        required: true,
        uniqueness: "server",
      }),
      attribute("externalId", "The identity provider's id for the group", { caseExact: true }),
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
    base,
  ),
  schema(
    GROUP_EXTENSION_SCHEMA,
    "MedpartsGroup",
    "Medparts' attributes of a group",
    [
      attribute("facilityId", "The facility the group grants, or null when its displayName names none", {
        type: "integer",
        mutability: "readOnly",
      }),
    ],
    base,
  ),
];
