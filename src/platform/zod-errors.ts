import type { z } from "zod";
import { closestName } from "./closest-name";
import { type FieldErrors, noFieldErrors } from "./errors";

/** `["quoteItems", 1, "quantity"]` -> `quoteItems[1].quantity`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, root: string): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || root;
}

/** The 400 message for a field a request body object does not define (closedObject): the field meant, or all it defines. */
export function unknownFieldMessage(name: string, fields: readonly string[]): string {
  const meant = closestName(name, fields);
  return meant ? `Unknown field; did you mean ${meant}?` : `Unknown field; expected one of: ${fields.join(", ")}.`;
}

/** Groups zod issues by camelCase field path, the 400 validation form of spec 7.2. */
export function fieldErrorsFromZod(error: z.ZodError, root = "body"): FieldErrors {
  const errors = noFieldErrors();
  for (const issue of error.issues) {
    const key = fieldPath(issue.path, root);
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}
