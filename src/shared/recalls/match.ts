import { codeKey, type LotEntry, type Scope, type ScopePart } from "./code-info";
import { comparableDeviceKey } from "./identifiers";

/**
 * Whether a recall touches a delivered unit (docs/recalls.md, "Matching"): the notice's scope (code-info.ts) against
 * what the shipment recorded of the unit. Clauses AND together: the unit must be of the notice's device (its
 * identifiers or product numbers), then of a listed lot, serial or window. A clause the record cannot decide makes the
 * unit `needs_review`, never `not_affected`; the outcome names the clause that decided.
 */

export interface DeliveredUnit {
  /** The device identifier scanned (GTIN, or HIBCC with or without `+`). */
  di?: string | undefined;
  lot?: string | undefined;
  serial?: string | undefined;
  /** YYYY-MM-DD. */
  expiry?: string | undefined;
  /** Production date, YYYY-MM-DD, when the label carried one. */
  manufactured?: string | undefined;
  /** The catalog, model or part number the unit was sold as. */
  catalog?: string | undefined;
  model?: string | undefined;
}

export type Outcome = "affected" | "not_affected" | "needs_review";

export interface Match {
  outcome: Outcome;
  /** The clause that decided, in words. */
  reason: string;
}

const decided = (outcome: Outcome, reason: string): Match => ({ outcome, reason });

const parts = (scope: Scope): ScopePart[] => [scope, ...scope.groups];
const withoutZeros = (code: string) => code.replace(/^0+/, "");

/** Which parts of the notice are the unit's: by device identifier, else by product number. */
/** The unit's device identifier as compared: normalised, or as recorded when it is no valid one (a typo stays comparable). */
const unitDeviceKey = (unit: DeliveredUnit) => (unit.di ? comparableDeviceKey(unit.di) : null);

function unitParts(scope: Scope, unit: DeliveredUnit): { parts: ScopePart[]; by: string } | Match {
  const di = unitDeviceKey(unit);
  const products = [unit.catalog, unit.model].filter((p): p is string => Boolean(p)).map((p) => p.toUpperCase());
  const listedDis = parts(scope).flatMap((part) => [...part.deviceIds, ...part.labels.map((label) => label.deviceId)]);
  const listedProducts = parts(scope).flatMap((part) => part.products);
  if (di && listedDis.includes(di)) {
    const own = parts(scope).filter((part) => part.deviceIds.includes(di) || part.labels.some((label) => label.deviceId === di));
    return { parts: own, by: `device identifier ${di}` };
  }
  const byProduct = parts(scope).filter((part) => part.products.some((product) => products.includes(product)));
  if (byProduct.length > 0) return { parts: byProduct, by: `product number ${products.join(", ")}` };
  if (di && scope.deviceIdTypos.some((typo) => di.includes(typo.replace(/^0+/, "")))) {
    return decided(
      "needs_review",
      `the notice lists ${scope.deviceIdTypos.join(", ")}, not a valid device identifier: it may be this unit's ${di}`,
    );
  }
  if (listedDis.length > 0 && di) return decided("not_affected", `device identifier ${di} is not among ${listedDis.join(", ")}`);
  if (listedProducts.length > 0 && products.length > 0) {
    return decided("not_affected", `product number ${products.join(", ")} is not among ${listedProducts.join(", ")}`);
  }
  if (listedDis.length > 0 || listedProducts.length > 0) {
    return decided("needs_review", "the notice names its devices by identifiers or product numbers the unit's record does not carry");
  }
  // No gate in the text: the recall's own product linkage chose the unit.
  return { parts: parts(scope), by: "the recall's product" };
}

type Clause = Match | "met" | "absent";

function lotClause(scope: Scope, own: ScopePart[], unit: DeliveredUnit): Clause {
  const lots = own.flatMap((part) => part.lots);
  const di = unitDeviceKey(unit);
  if (
    unit.lot &&
    di &&
    own.some((part) => part.labels.some((label) => label.deviceId === di && codeKey(label.lot) === codeKey(unit.lot!)))
  ) {
    return "met";
  }
  const window = own.find((part) => part.allLots)?.allLots;
  if (window) {
    if (window.from === null && window.to === null) return "met";
    if (!unit.manufactured)
      return decided("needs_review", "the notice takes every lot produced in a window, and the unit's production date is not recorded");
    const inside = (window.from === null || unit.manufactured >= window.from) && (window.to === null || unit.manufactured <= window.to);
    return inside ? "met" : decided("not_affected", `produced ${unit.manufactured}, outside ${window.from ?? "…"} to ${window.to ?? "…"}`);
  }
  if (own.some((part) => part.lotsMasked)) return decided("needs_review", "the notice's lots are masked (xxxxx)");
  const labelLots = own.flatMap((part) =>
    part.labels.map((label): LotEntry => ({ lot: label.lot, ...(label.expiry ? { expiry: label.expiry } : {}) })),
  );
  const listed = [...lots, ...labelLots];
  if (listed.length === 0) {
    if (own.some((part) => part.lotRanges.length > 0))
      return unit.lot ? decided("needs_review", "the notice gives a range of lots") : "absent";
    return "absent";
  }
  if (!unit.lot) return decided("needs_review", "the notice lists lots, and the unit's lot is not recorded");
  const key = codeKey(unit.lot);
  const hit = listed.find((entry) => codeKey(entry.lot) === key);
  if (hit) {
    if (hit.expiry && unit.expiry && hit.expiry !== unit.expiry) {
      return decided("needs_review", `lot ${hit.lot} is listed with expiry ${hit.expiry}, and the unit's is ${unit.expiry}`);
    }
    return "met";
  }
  if (listed.some((entry) => withoutZeros(codeKey(entry.lot)) === withoutZeros(key))) {
    return decided("needs_review", `lot ${unit.lot} differs from a listed lot only by leading zeros`);
  }
  const elsewhere = parts(scope)
    .filter((part) => !own.includes(part))
    .some((part) => part.lots.some((entry) => codeKey(entry.lot) === key));
  if (elsewhere) return decided("needs_review", `lot ${unit.lot} is listed under another product of the notice`);
  return decided("not_affected", `lot ${unit.lot} is not listed`);
}

/** A serial within a range of one width whose ends share what surrounds a number: the numbers compared. */
function inRange(serial: string, range: { from: string; to: string }): boolean | null {
  const [from, to, s] = [codeKey(range.from), codeKey(range.to), codeKey(serial)];
  if (s.length !== from.length) return false;
  let head = 0;
  while (head < from.length && from[head] === to[head] && s[head] === from[head]) head++;
  let tail = 0;
  while (tail < from.length - head && from.at(-1 - tail) === to.at(-1 - tail) && s.at(-1 - tail) === from.at(-1 - tail)) tail++;
  const middle = (text: string) => text.slice(head, text.length - tail);
  if (![from, to, s].every((text) => /^\d+$/.test(middle(text)))) return null;
  const value = Number(middle(s));
  return value >= Number(middle(from)) && value <= Number(middle(to));
}

function serialClause(own: ScopePart[], unit: DeliveredUnit): Clause {
  const unreadable = own.find((part) => part.serialsUnreadable)?.serialsUnreadable;
  const serials = own.flatMap((part) => part.serials);
  const ranges = own.flatMap((part) => part.serialRanges);
  const upTo = own.find((part) => part.serialsUpTo)?.serialsUpTo;
  if (!unreadable && serials.length === 0 && ranges.length === 0 && !upTo) return "absent";
  if (unreadable) return decided("needs_review", `the notice's serials are not readable: ${unreadable}`);
  if (!unit.serial) return decided("needs_review", "the notice lists serials, and the unit's serial is not recorded");
  const key = codeKey(unit.serial);
  if (serials.some((serial) => codeKey(serial) === key)) return "met";
  for (const range of ranges) {
    const inside = inRange(unit.serial, range);
    if (inside === null)
      return decided("needs_review", `serial ${unit.serial} against the range ${range.from} to ${range.to}: not comparable`);
    if (inside) return "met";
  }
  if (upTo) {
    if (/^\d+$/.test(upTo) && /^\d+$/.test(key)) {
      return Number(key) <= Number(upTo) ? "met" : decided("not_affected", `serial ${unit.serial} is above ${upTo}`);
    }
    return decided("needs_review", `serial ${unit.serial} against "up to ${upTo}": not comparable`);
  }
  if (serials.some((serial) => withoutZeros(codeKey(serial)) === withoutZeros(key))) {
    return decided("needs_review", `serial ${unit.serial} differs from a listed serial only by leading zeros`);
  }
  return decided("not_affected", `serial ${unit.serial} is not listed`);
}

/** The outcome of a recall's scope for one delivered unit, and the clause that decided it. */
export function matchUnit(scope: Scope, unit: DeliveredUnit): Match {
  const gate = unitParts(scope, unit);
  if ("outcome" in gate) return gate;
  if (scope.conditions.length > 0) {
    return decided("needs_review", `the notice's condition cannot be read from a shipment: ${scope.conditions.join("; ")}`);
  }
  const serial = serialClause(gate.parts, unit);
  if (typeof serial === "object" && serial.outcome !== "affected") return serial;
  const lot = lotClause(scope, gate.parts, unit);
  // A serial-numbered unit with no lot recorded is decided by its serial.
  if (serial === "met" && !unit.lot && typeof lot === "object" && lot.outcome === "needs_review") {
    return decided("affected", `${gate.by}, and its serial is listed`);
  }
  if (typeof lot === "object") return lot;
  if (lot === "absent" && serial === "absent") {
    const nothingRead = parts(scope).every((part) => part.deviceIds.length === 0 && part.products.length === 0);
    return nothingRead
      ? decided("needs_review", "nothing in the notice's code_info could be read")
      : decided("affected", `every unit of ${gate.by}`);
  }
  return decided("affected", `${gate.by}${lot === "met" ? ", its lot listed" : ""}${serial === "met" ? ", its serial listed" : ""}`);
}
