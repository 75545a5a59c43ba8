import type { z } from "zod";
import { isJsonObject } from "../../platform/json-object";
import { scimBadRequest } from "./errors";

/** A SCIM resource or value object as JSON; its attribute names are case-insensitive (RFC 7643 2.1). */
export type Json = Record<string, unknown>;

/** The key of `object` that names `name` case-insensitively, or `name` itself when none does. */
export function keyOf(object: Json, name: string): string {
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower) ?? name;
}

/** The object with the known attribute names in their canonical spelling; other keys as sent. */
export function canonicalKeys(object: Json, names: readonly string[]): Json {
  const result: Json = {};
  for (const [key, value] of Object.entries(object)) {
    result[names.find((name) => name.toLowerCase() === key.toLowerCase()) ?? key] = value;
  }
  return result;
}

/** A body checked against its resource's schema once canonical: 400 invalidSyntax if not an object, invalidValue naming the attribute. */
export function validResource<S extends z.ZodTypeAny>(schema: S, body: unknown, canonical: (object: Json) => Json): z.output<S> {
  if (!isJsonObject(body)) throw scimBadRequest("invalidSyntax", "The body must be a JSON object.");
  const result = schema.safeParse(canonical(body));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw scimBadRequest("invalidValue", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return result.data;
}
