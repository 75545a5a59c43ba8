import { dayOfYear } from "./dates";

/**
 * ISBT 128 (ICCBBA) device data, the subset AccessGUDID's parse_udi reads for medical products of human origin
 * (docs/api.md, "Scan to order"): data structures concatenated, each starting with its data identifier:
 * - `=/` the Processor Product Identification Code: the device identifier (DI);
 * - `=,` a serial number;
 * - `=` and a letter or digit: the Donation Identification Number (13 characters and 2 flag characters);
 * - `=>` expiry and `=}` production date as cyyjjj, `&>` and `&}` the same with hhmm;
 * - `&,1` the lot number (up to 18 characters).
 * ISBT 128 carries no check character in the bar code data (the DIN's is printed only, eye-readable).
 */

export interface IsbtProblem {
  /** The data identifier of the structure at fault, or null for the whole code. */
  element: string | null;
  code: "not_isbt128" | "unknown_data_identifier" | "bad_characters" | "too_short" | "too_long" | "bad_date" | "missing_device_identifier";
  message: string;
}

export interface IsbtData {
  deviceId: string;
  serial: string | null;
  lot: string | null;
  donationId: string | null;
  expiry: string | null;
  production: string | null;
}

export type IsbtReading = ({ ok: true } & IsbtData) | { ok: false; problem: IsbtProblem };

const fail = (element: string | null, code: IsbtProblem["code"], message: string): IsbtReading => ({
  ok: false,
  problem: { element, code, message },
});

/** Whether a code is ISBT 128 data: it starts with a data identifier (`=` or `&` and a second character). */
export const looksLikeIsbt128 = (data: string) => /^[=&]/.test(data);

/** Where the next data structure starts: its first character `=` or `&`. Values hold letters and digits only. */
const nextStart = (data: string, from: number) => {
  const match = /[=&]/.exec(data.slice(from));
  return match ? from + match.index : data.length;
};

type DateField = "expiry" | "production";
const DATES: Record<string, [DateField, boolean]> = {
  "=>": ["expiry", false],
  "&>": ["expiry", true],
  "=}": ["production", false],
  "&}": ["production", true],
};

export function readIsbt128(input: string): IsbtReading {
  const data = input.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "").toUpperCase();
  if (!looksLikeIsbt128(data)) return fail(null, "not_isbt128", "ISBT 128 data starts with a data identifier: = or &.");
  const found: Partial<IsbtData> = {};
  let at = 0;
  while (at < data.length) {
    const identifier = data.slice(at, at + 2);
    const date = DATES[identifier];
    if (identifier === "&," && data[at + 2] === "1") {
      const end = nextStart(data, at + 3);
      const lot = data.slice(at + 3, end);
      if (!/^[A-Z0-9]{1,18}$/.test(lot))
        return fail("&,1", lot.length > 18 ? "too_long" : "bad_characters", "A lot number (&,1) is 1 to 18 letters or digits.");
      found.lot = lot;
      at = end;
    } else if (date) {
      const [field, withTime] = date;
      const digits = data.slice(at + 2, at + 2 + (withTime ? 10 : 6));
      const value = isbtDate(digits, withTime);
      if (!value) return fail(identifier, "bad_date", `${digits} is not a date ${withTime ? "cyyjjjhhmm" : "cyyjjj"}.`);
      found[field] = value;
      at += 2 + digits.length;
    } else if (identifier === "=/" || identifier === "=,") {
      const end = nextStart(data, at + 2);
      const value = data.slice(at + 2, end);
      if (identifier === "=/") {
        if (!/^[A-Z0-9]{6,18}$/.test(value)) {
          return fail("=/", value.length > 18 ? "too_long" : "bad_characters", "The device identifier (=/) is 6 to 18 letters or digits.");
        }
        found.deviceId = value;
      } else {
        if (!/^[A-Z0-9]{1,18}$/.test(value)) return fail("=,", "bad_characters", "A serial number (=,) is 1 to 18 letters or digits.");
        found.serial = value;
      }
      at = end;
    } else if (/^=[A-Z0-9]$/.test(identifier)) {
      const end = nextStart(data, at + 1);
      const din = data.slice(at + 1, end);
      if (!/^[A-Z0-9]{13}[A-Z0-9]{0,2}$/.test(din)) {
        return fail(
          "=",
          din.length > 15 ? "too_long" : "too_short",
          "A donation identification number (=) is 13 letters or digits and 2 flag characters.",
        );
      }
      found.donationId = din;
      at = end;
    } else {
      return fail(
        identifier,
        "unknown_data_identifier",
        `Unknown data identifier "${identifier}": Medparts reads =/ =, = >} &> &} &,1 and the DIN.`,
      );
    }
  }
  if (!found.deviceId) return fail("=/", "missing_device_identifier", "An ISBT 128 UDI carries its device identifier (=/).");
  return {
    ok: true,
    deviceId: found.deviceId,
    serial: found.serial ?? null,
    lot: found.lot ?? null,
    donationId: found.donationId ?? null,
    expiry: found.expiry ?? null,
    production: found.production ?? null,
  };
}

/** cyyjjj[hhmm]: century digit (0 for 2000-2099), year, day of the year; with the time as UTC. */
function isbtDate(digits: string, withTime: boolean): string | null {
  const match = (withTime ? /^(\d)(\d\d)(\d{3})(\d\d)(\d\d)$/ : /^(\d)(\d\d)(\d{3})$/).exec(digits);
  if (!match) return null;
  const [, century, yy, jjj, hh, mm] = match;
  const date = dayOfYear(2000 + 100 * Number(century) + Number(yy), Number(jjj));
  if (!date || !withTime) return date;
  if (Number(hh) > 23 || Number(mm) > 59) return null;
  return `${date}T${hh}:${mm}Z`;
}
