import type { Context } from "hono";
import type { AppEnv } from "../env";
import { type FieldErrors, noFieldErrors, ValidationError } from "./errors";
import { requireShallowJson } from "./json-depth";
import { fieldPath } from "./zod-errors";

/** A UTF-16 surrogate without its pair: JSON can carry one (`"\ud800"`), UTF-8 storage cannot, and D1 would alter it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
const MESSAGE = "Must be well-formed Unicode text: it contains a lone UTF-16 surrogate.";
/** No request body defines it, and zod skips it (so closed objects could not refuse it as an unknown field). */
const PROTOTYPE_KEY = "__proto__";
const PROTOTYPE_KEY_MESSAGE = "Unknown field.";
const MAX_REPORTED = 20;

type Trail = { key: PropertyKey; parent: Trail } | null;

function pathOf(trail: Trail): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at = trail; at; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Where a parsed JSON value has ill-formed Unicode (a lone surrogate in a string or key) or a `__proto__` key: the
 * field paths (under `root` for the value itself) and what is wrong there, at most 20; null when there is none.
 */
export function illFormedText(value: unknown, root = "body"): FieldErrors | null {
  const errors = noFieldErrors();
  let reported = 0;
  const report = (at: Trail, message = MESSAGE) => {
    errors[fieldPath(pathOf(at), root)] = [message];
    reported++;
  };
  // Iterative, with the path kept as a trail of parents: bodies may nest hundreds of thousands deep.
  const pending: [unknown, Trail][] = [[value, null]];
  while (pending.length > 0 && reported < MAX_REPORTED) {
    const [item, trail] = pending.pop()!;
    if (typeof item === "string") {
      if (hasLoneSurrogate(item)) report(trail);
    } else if (Array.isArray(item)) {
      item.forEach((element, i) => {
        pending.push([element, { key: i, parent: trail }]);
      });
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) {
        const at = { key, parent: trail };
        if (hasLoneSurrogate(key)) report(at);
        else if (key === PROTOTYPE_KEY) report(at, PROTOTYPE_KEY_MESSAGE);
        pending.push([inner, at]);
      }
    }
  }
  return reported > 0 ? errors : null;
}

/**
 * Refuses (400, validation form) a JSON body nested deeper than MAX_JSON_DEPTH, or any of whose strings or keys is
 * ill-formed Unicode, wherever it is: stored text must come back as it was sent, or searching by the submitted value
 * finds nothing. A `__proto__` key,
 * wherever it is, is refused as an unknown field too. A body that is not JSON is left to the route's validation.
 */
export async function requireWellFormedText(c: Context<AppEnv>): Promise<void> {
  let body: unknown;
  try {
    body = await c.req.json(); // hono keeps the body's text, not this parse: the route's validator parses it again
  } catch {
    return;
  }
  // Refused here, before anything walks it or parses it again (the route's validator, the idempotency fingerprint).
  requireShallowJson(body);
  const errors = illFormedText(body);
  if (errors) throw new ValidationError(errors, "The request body has a field name or text it cannot have.");
}
