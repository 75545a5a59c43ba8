import type { Clause } from "./ast";
import { queryError } from "./errors";
import type { SearchField } from "./fields";
import { printClause, printValue } from "./printer";

/** Turns a clause's value into the operand its field's type needs, or a 400 naming the problem. */

export function textOperand(field: SearchField, clause: Clause): string {
  const { value } = clause;
  if (value.kind === "string") return value.value;
  if (field.type === "Token" && (value.kind === "word" || value.kind === "number")) return value.text;
  throw queryError(
    `In '${printClause(clause)}': '${field.name}' is a ${field.type} field, write its value in double quotes, e.g. ${field.name}:"${printValue(value).replace(/"/g, "")}".`,
  );
}

/** Spec 4.13 and 8: a substring (`~`, and the `...Contains` body filters) needs at least 3 characters. */
export const MIN_SUBSTRING_LENGTH = 3;

export function substringOperand(field: SearchField, clause: Clause): string {
  const text = textOperand(field, clause);
  const length = [...text].length;
  if (length < MIN_SUBSTRING_LENGTH) {
    throw queryError(
      `In '${printClause(clause)}': a substring search (~) needs at least ${MIN_SUBSTRING_LENGTH} characters, this one has ${length}.`,
    );
  }
  return text;
}

/** A Numeric operand in the unit of the column: whole numbers, or money as integer cents. */
export function numericOperand(field: SearchField & { type: "Numeric" }, clause: Clause): number {
  const { value } = clause;
  if (value.kind !== "number") {
    const example = field.unit === "cents" ? "19.99" : "100";
    throw queryError(
      `In '${printClause(clause)}': '${field.name}' is a Numeric field, expected a bare number without quotes, e.g. ${field.name}>${example}.`,
    );
  }
  const [whole, fraction = ""] = value.text.split(".");
  let result: number;
  if (field.unit === "integer") {
    if (fraction) throw queryError(`In '${printClause(clause)}': '${field.name}' takes whole numbers only.`);
    result = Number(whole);
  } else {
    if (fraction.length > 2) throw queryError(`In '${printClause(clause)}': '${field.name}' is an amount with at most 2 decimal places.`);
    const sign = whole!.startsWith("-") ? -1 : 1;
    result = Number(whole) * 100 + sign * Number(fraction.padEnd(2, "0"));
  }
  if (!Number.isSafeInteger(result)) throw queryError(`In '${printClause(clause)}': the number is out of range.`);
  return result;
}

/**
 * A DateTime operand. A date (`2026-01-31`) stands for the whole UTC day [start, end); a timestamp
 * for one instant (start === end). Timestamps without an offset are UTC. Both bounds are canonical
 * ISO 8601 UTC strings (`toISOString()`), the format timestamps are stored in, so text comparison
 * orders them correctly.
 */
export interface DateTimeOperand {
  start: string;
  end: string;
  isDay: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?$/i;
const DAY_MS = 24 * 60 * 60 * 1000;

export function dateTimeOperand(field: SearchField, clause: Clause): DateTimeOperand {
  const { value } = clause;
  const problem = () =>
    queryError(
      `In '${printClause(clause)}': '${field.name}' is a DateTime field, expected an ISO 8601 date or timestamp in double quotes, e.g. ${field.name}>"2026-01-31" or ${field.name}<"2026-01-31T12:00:00Z".`,
    );
  if (value.kind !== "string") throw problem();
  const date = DATE.exec(value.value);
  if (date) {
    const start = utc(date.slice(1, 4).map(Number));
    if (start === null) throw problem();
    return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString(), isDay: true };
  }
  const stamp = TIMESTAMP.exec(value.value);
  if (!stamp) throw problem();
  const [, y, mo, d, h, mi, s = "0", ms = "0", zone = "Z"] = stamp;
  const local = utc([y, mo, d, h, mi, s, ms.padEnd(3, "0")].map(Number));
  const offset = zoneOffsetMs(zone);
  if (local === null || offset === null) throw problem();
  const instant = new Date(local - offset).toISOString();
  return { start: instant, end: instant, isDay: false };
}

/** Milliseconds since the epoch for valid calendar parts, else null (no rolling 02-30 into March). */
function utc([year, month, day, hour = 0, minute = 0, second = 0, ms = 0]: number[]): number | null {
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute, second, ms);
  const valid =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return valid ? date.getTime() : null;
}

function zoneOffsetMs(zone: string): number | null {
  if (zone.toUpperCase() === "Z") return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}
