import { type Filter, filter as filterTester, parse } from "scim2-parse-filter";
import { hasControlCharacters } from "../../platform/control-characters";
import { isJsonObject } from "../../platform/json-object";
import { type Json, keyOf } from "./attributes";
import { scimBadRequest } from "./errors";
import { declaredAttribute, isCommonAttribute, type ResourceTypeDefinition, schemaUrns } from "./resource-schemas";

/**
 * SCIM PATCH (RFC 7644 3.5.2) applied to a resource's JSON, as identity providers really send it:
 * - `op` in any case (Entra ID sends "Replace" and "Add");
 * - a path-less operation whose value object names attributes, or attribute paths ("name.givenName",
 *   `emails[type eq "work"].value`), as its keys;
 * - value paths with a filter; an add or replace whose `eq` filter matches no element creates it (Entra ID's
 *   `emails[type eq "work"].value` on a user without a work e-mail);
 * - attribute names case-insensitive (RFC 7643 2.1), extension attributes behind their schema URN.
 * A path must name an attribute one of the resource type's schemas declares (400 invalidPath), and never change a
 * readOnly one (400 mutability; the value it has already is accepted, as Okta's group rename repeats the id).
 * Values are checked afterwards, by validating the whole resulting resource.
 */

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

/** A parsed PATCH path: [schema URN:]attribute[.sub] or attribute[filter][.sub]. */
export interface AttributePath {
  urn?: string;
  attribute: string;
  filter?: Filter;
  sub?: string;
}

const NAME = /^[A-Za-z$][\w$-]*$/;
/** A schema's URN (it ends with its version and resource type, e.g. urn:...:enterprise:2.0:User), not an attribute's. */
export const SCHEMA_URN = /^urn:[A-Za-z0-9.:-]*:\d+\.\d+:[A-Za-z]+$/i;
const MAX_PATH_LENGTH = 300;

/** Parses a PATCH path; 400 invalidPath when it is not one. */
export function parsePath(path: string, schemaUrns: readonly string[]): AttributePath {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH || hasControlCharacters(path)) {
    throw scimBadRequest("invalidPath", "A path is 1-300 characters without control characters.");
  }
  let rest = path;
  let urn: string | undefined;
  const lower = path.toLowerCase();
  const knownUrn = [...schemaUrns].sort((a, b) => b.length - a.length).find((u) => lower.startsWith(`${u.toLowerCase()}:`));
  if (knownUrn) {
    rest = path.slice(knownUrn.length + 1);
    // The core schema's URN is only a qualifier: its attributes are the resource's own.
    urn = knownUrn.includes(":core:") ? undefined : knownUrn;
  } else if (lower.startsWith("urn:")) {
    const cut = path.lastIndexOf(":", path.indexOf("[") === -1 ? path.length : path.indexOf("["));
    urn = path.slice(0, cut);
    rest = path.slice(cut + 1);
  }
  let filter: Filter | undefined;
  let sub: string | undefined;
  let attribute = rest;
  const open = rest.indexOf("[");
  if (open !== -1) {
    const close = rest.lastIndexOf("]");
    if (close < open) throw scimBadRequest("invalidPath", `The path ${path} opens a filter it does not close.`);
    attribute = rest.slice(0, open);
    filter = parseFilterText(rest.slice(open + 1, close), "invalidPath");
    const after = rest.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(".")) throw scimBadRequest("invalidPath", `The path ${path} has text after its filter.`);
      sub = after.slice(1);
    }
  } else if (rest.includes(".")) {
    [attribute, sub] = [rest.slice(0, rest.indexOf(".")), rest.slice(rest.indexOf(".") + 1)];
  }
  if (!NAME.test(attribute) || (sub !== undefined && !NAME.test(sub))) {
    throw scimBadRequest("invalidPath", `${path} is not an attribute path.`);
  }
  return { urn, attribute, filter, sub };
}

/** Parses a SCIM filter (RFC 7644 3.4.2.2) with scim2-parse-filter; 400 with `scimType` when it is not one. */
export function parseFilterText(text: string, scimType: "invalidFilter" | "invalidPath" = "invalidFilter"): Filter {
  // The parser's string token can backtrack badly on raw line breaks, and it recurses on parentheses: neither is ever
  // needed (a filter's strings are JSON strings, with \n escaped), so such input never reaches it.
  const nesting = (text.match(/\(|\[|\bnot\b/gi)?.length ?? 0) > 20;
  if (text.length === 0 || text.length > 1000 || hasControlCharacters(text) || nesting) {
    throw scimBadRequest(
      scimType,
      "A filter is 1-1000 characters, without control characters, with at most 20 parentheses, brackets and nots.",
    );
  }
  try {
    return parse(text);
  } catch {
    throw scimBadRequest(scimType, `Not a SCIM filter: ${text.slice(0, 100)}.`);
  }
}

/** The object an attribute lives in: the resource itself, or its extension's object (created for add and replace). */
function containerOf(resource: Json, path: AttributePath, create: boolean): Json | undefined {
  if (!path.urn) return resource;
  const key = keyOf(resource, path.urn);
  if (!isJsonObject(resource[key])) {
    if (!create) return undefined;
    resource[key] = {};
  }
  return resource[key] as Json;
}

/** A copy with every string value lower-cased (attribute names and operators untouched). */
function lowerCased(value: unknown): unknown {
  if (typeof value === "string") return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowerCased);
  if (isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, key === "op" || key === "attrPath" ? inner : lowerCased(inner)]),
    );
  }
  return value;
}

/** A simple `attr eq value` filter (possibly and-ed): the element to create when an add or replace matches none. */
function elementFromFilter(filter: Filter): Json | null {
  if (filter.op === "eq" && !filter.attrPath.includes(".") && !filter.attrPath.includes(":"))
    return { [filter.attrPath]: filter.compValue };
  if (filter.op === "and") {
    const parts = filter.filters.map(elementFromFilter);
    return parts.every((p): p is Json => p !== null) ? Object.assign({}, ...parts) : null;
  }
  return null;
}

const NO_VALUE = Symbol("no value");
const META = new Set(["resourcetype", "created", "lastmodified", "location", "version"]);

/** The current value of an attribute path without a filter: NO_VALUE where the resource has none. */
function currentValue(resource: Json, path: AttributePath): unknown {
  const container = containerOf(resource, path, false);
  if (!container) return NO_VALUE;
  const value = container[keyOf(container, path.attribute)];
  if (path.sub === undefined) return value === undefined ? NO_VALUE : value;
  if (!isJsonObject(value)) return NO_VALUE;
  const inner = value[keyOf(value, path.sub)];
  return inner === undefined ? NO_VALUE : inner;
}

const sameJson = (a: unknown, b: unknown) => a !== NO_VALUE && JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether the operation may touch its target: 400 invalidPath when no schema of the type declares it (or a filter is
 * put on a single-valued attribute), 400 mutability when it would change a readOnly one; false when it names a
 * readOnly attribute with the value it has (nothing to do).
 */
export function checkTarget(
  type: ResourceTypeDefinition,
  op: "add" | "replace" | "remove",
  path: AttributePath,
  text: string,
  resource: Json,
  value: unknown,
): boolean {
  let readOnly: boolean;
  if (path.urn === undefined && isCommonAttribute(path.attribute)) {
    const metaSub = path.attribute.toLowerCase() === "meta" && META.has(path.sub?.toLowerCase() ?? "");
    if (path.filter || (path.sub !== undefined && !metaSub)) {
      throw scimBadRequest("invalidPath", `${text} is not an attribute path of a ${type.id}.`);
    }
    readOnly = true;
  } else {
    const attribute = declaredAttribute(type, path.urn, path.attribute);
    const sub = path.sub === undefined ? undefined : declaredAttribute(type, path.urn, path.attribute, path.sub);
    if (!attribute || (path.sub !== undefined && !sub)) {
      throw scimBadRequest("invalidPath", `${text}: no schema of a ${type.id} declares that attribute (see /Schemas).`);
    }
    if (path.filter && !attribute.multiValued) throw scimBadRequest("invalidPath", `${text}: ${attribute.name} is single-valued.`);
    readOnly = attribute.mutability === "readOnly" || sub?.mutability === "readOnly";
  }
  if (!readOnly) return true;
  if (op !== "remove" && !path.filter && sameJson(currentValue(resource, path), value)) return false;
  throw scimBadRequest("mutability", `${text} is readOnly: the service provider sets it.`);
}

function applyOne(resource: Json, op: "add" | "replace" | "remove", path: AttributePath, value: unknown): void {
  const container = containerOf(resource, path, op !== "remove");
  if (!container) return;
  const key = keyOf(container, path.attribute);
  if (path.filter) {
    const current = container[key];
    const elements = Array.isArray(current) ? (current as unknown[]) : [];
    // String comparisons of a value path are case-insensitive (type, value: caseExact false in RFC 7643).
    const test = filterTester(lowerCased(path.filter) as Filter);
    const matching = elements.filter((element) => isJsonObject(element) && test(lowerCased(element))) as Json[];
    if (op === "remove") {
      if (path.sub) for (const element of matching) delete element[keyOf(element, path.sub)];
      else container[key] = elements.filter((element) => !matching.includes(element as Json));
      return;
    }
    if (matching.length === 0) {
      const created = elementFromFilter(path.filter);
      if (!created) throw scimBadRequest("noTarget", `No ${path.attribute} value matches the path's filter.`);
      matching.push(created);
      container[key] = [...elements, created];
    }
    for (const element of matching) {
      if (path.sub) element[keyOf(element, path.sub)] = value;
      else if (isJsonObject(value)) Object.assign(element, value);
      else throw scimBadRequest("invalidValue", `The value for ${path.attribute}[...] must be an object.`);
    }
    return;
  }
  if (path.sub) {
    if (op === "remove") {
      if (isJsonObject(container[key])) delete (container[key] as Json)[keyOf(container[key] as Json, path.sub)];
      return;
    }
    if (!isJsonObject(container[key])) container[key] = {};
    const parent = container[key] as Json;
    parent[keyOf(parent, path.sub)] = value;
    return;
  }
  if (op === "remove") {
    delete container[key];
    return;
  }
  const current = container[key];
  // RFC 7644 3.5.2.3: replacing a complex attribute changes the sub-attributes given and leaves the others.
  if (op === "replace" && isJsonObject(current) && isJsonObject(value)) {
    Object.assign(current, value);
    return;
  }
  if (op === "add" && Array.isArray(current)) {
    const added = Array.isArray(value) ? value : [value];
    const seen = new Set(current.map((element) => JSON.stringify(element)));
    container[key] = [...current, ...added.filter((element) => !seen.has(JSON.stringify(element)))];
  } else if (op === "add" && isJsonObject(current) && isJsonObject(value)) {
    Object.assign(current, value);
  } else {
    container[key] = value;
  }
}

const OPS = new Set(["add", "replace", "remove"]);

/**
 * The paths and values a path-less operation's value names: its keys, and for a key that is a schema's URN
 * (`{ "urn:...:2.0:User": { ... } }`: the core one, ours, the enterprise one) each of that object's attributes.
 */
export function pathsOf(value: Json): [string, unknown][] {
  return Object.entries(value).flatMap(([name, inner]): [string, unknown][] =>
    SCHEMA_URN.test(name) && isJsonObject(inner) ? Object.entries(inner).map(([key, v]) => [`${name}:${key}`, v]) : [[name, inner]],
  );
}

/** Applies the operations in order to a copy of `resource`; any failure leaves nothing applied. */
export function applyPatch(resource: Json, operations: readonly PatchOperation[], type: ResourceTypeDefinition): Json {
  const result = structuredClone(resource);
  const urns = schemaUrns(type);
  const apply = (verb: "add" | "replace" | "remove", text: string, value: unknown) => {
    const path = parsePath(text, urns);
    if (checkTarget(type, verb, path, text, result, value)) applyOne(result, verb, path, value);
  };
  for (const operation of operations) {
    const op = String(operation.op).toLowerCase();
    if (!OPS.has(op)) throw scimBadRequest("invalidSyntax", `op must be add, replace or remove, not ${String(operation.op).slice(0, 20)}.`);
    const verb = op as "add" | "replace" | "remove";
    if (operation.path === undefined || operation.path === null || operation.path === "") {
      if (verb === "remove") throw scimBadRequest("noTarget", "A remove needs a path.");
      if (!isJsonObject(operation.value)) throw scimBadRequest("invalidValue", "An operation without a path needs an object value.");
      for (const [path, value] of pathsOf(operation.value)) apply(verb, path, value);
      continue;
    }
    if (typeof operation.path !== "string") throw scimBadRequest("invalidPath", "path must be a string.");
    if (verb !== "remove" && operation.value === undefined) throw scimBadRequest("invalidValue", `${op} needs a value.`);
    apply(verb, operation.path, operation.value);
  }
  return result;
}
