import { scimNotFound } from "./errors";
import { RESOURCE_TYPES, type ResourceTypeDefinition, SCHEMAS, type SchemaDefinition } from "./resource-schemas";

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

const resourceType = (type: ResourceTypeDefinition, base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
  id: type.id,
  name: type.id,
  endpoint: type.endpoint,
  description: type.description,
  schema: type.schema.id,
  schemaExtensions: type.extensions.map((schema) => ({ schema: schema.id, required: false })),
  meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/${type.id}` },
});

const schema = (definition: SchemaDefinition, base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
  ...definition,
  meta: { resourceType: "Schema", location: `${base}/Schemas/${definition.id}` },
});

export const resourceTypes = (base: string) => RESOURCE_TYPES.map((type) => resourceType(type, base));
export const schemas = (base: string) => SCHEMAS.map((definition) => schema(definition, base));

/** One resource type by its id (User, Group) or one schema by its URN, as RFC 7644 4 serves them; 404 for another. */
export function resourceTypeById(id: string, base: string) {
  const type = RESOURCE_TYPES.find((t) => t.id === id);
  if (!type) throw scimNotFound(`No resource type ${id.slice(0, 64)}: there are User and Group.`);
  return resourceType(type, base);
}

export function schemaById(id: string, base: string) {
  const definition = SCHEMAS.find((s) => s.id.toLowerCase() === id.toLowerCase());
  if (!definition) throw scimNotFound(`No schema ${id.slice(0, 120)}: GET /Schemas lists them.`);
  return schema(definition, base);
}
