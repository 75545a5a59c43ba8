import type { Agency } from "../catalog/device-ids";
import { normalizePartNumber } from "../catalog/part-numbers";
import { GS, PLAIN_SYMBOLOGIES, readGs1 } from "./gs1";
import { type HibccSecondary, hibccDeviceId, looksLikeHibcc, readHibcc } from "./hibcc";

import { looksLikeIsbt128, readIsbt128 } from "./isbt128";

/**
 * One scanned or typed code read as UDI data of the agency its form shows (docs/api.md, "Scan to order"): HIBCC by its
 * `+` flag, ISBT 128 by its `=` or `&` data identifier, GS1 otherwise (element strings, the bracketed form, Digital
 * Link, a bare GTIN). A plain QR Code, Data Matrix or DotCode (`]Q1`, `]d1`, `]J0`) is read by the marks of its
 * payload: HIBCC, ISBT 128, or a GS1 Digital Link. A code with no mark of its format at all (no symbology identifier, bracket, URL, GS, flag or data
 * identifier) may also be a part number: the resolver decides against the catalog (src/shared/udi/resolve.ts).
 */

export type ReadingKind = "gs1" | "gtin" | "hibcc" | "isbt128";

/** What a label says, whatever its agency. */
export interface UdiData {
  agency: Agency;
  /** The device identifier: GTIN-14 for GS1; labeler, product and unit of measure for HIBCC; the PPIC for ISBT 128. Null when the code carries none (a lot alone, an HIBCC secondary). */
  deviceId: string | null;
  lot: string | null;
  serial: string | null;
  /** ISO dates (GS1 day 00 and HIBCC MMYY: the month's last day). */
  expiry: string | null;
  production: string | null;
  /** GS1 AI 240 and 241. */
  additionalProductId: string | null;
  customerPartNumber: string | null;
  /** HIBCC's quantity ($$8, $$9, /Q); GS1's variable count (AI 30). */
  quantity: number | null;
  /** ISBT 128's Donation Identification Number. */
  donationId: string | null;
}

export interface ScanProblem {
  /** The element at fault (a GS1 AI, an HIBCC part, an ISBT 128 data identifier), or null for the whole code. */
  element: string | null;
  code: string;
  message: string;
}

export interface HibccLink {
  structure: "primary" | "secondary" | "concatenated";
  /** A primary's check character: what its secondary names as its link character. */
  check?: string;
  link?: string;
}

export interface ScannedCode {
  /** The code without the whitespace, CR and LF around it. */
  code: string;
  reading: { kind: ReadingKind; form: string; data: UdiData; hibcc?: HibccLink } | null;
  problem: ScanProblem | null;
  /** The normalized part number a code without any mark of its format may be; null otherwise. */
  partNumber: string | null;
}

const empty = (agency: Agency): UdiData => ({
  agency,
  deviceId: null,
  lot: null,
  serial: null,
  expiry: null,
  production: null,
  additionalProductId: null,
  customerPartNumber: null,
  quantity: null,
  donationId: null,
});

/** A code that shows no format of its own: it may be a part number as well as GS1 data. */
const unmarked = (code: string) => !/^(\]|\(|https?:\/\/|\*?\+|[=&])/i.test(code) && !code.includes(GS);

export function scanCode(input: string, now = new Date()): ScannedCode {
  const code = input.replace(/^[ \t\r\n]+|[\t\r\n]+$/g, "");
  const partNumber = unmarked(code.trim()) ? normalizePartNumber(code.trim()) || null : null;
  const payload = PLAIN_SYMBOLOGIES.has(code.slice(0, 3)) ? code.slice(3) : code;
  if (looksLikeHibcc(payload)) return { code, partNumber, ...fromHibcc(payload) };
  const trimmed = code.trim();
  if (looksLikeIsbt128(payload.trim())) {
    const read = readIsbt128(payload.trim());
    if (!read.ok) return { code: trimmed, partNumber, reading: null, problem: read.problem };
    const { ok: _, ...data } = read;
    return {
      code: trimmed,
      partNumber,
      reading: { kind: "isbt128", form: "isbt128", data: { ...empty("ICCBBA"), ...data } },
      problem: null,
    };
  }
  const read = readGs1(trimmed, now);
  if (!read.ok) return { code: trimmed, partNumber, reading: null, problem: read.problem };
  const value = (ai: string) => read.elements.find((element) => element.ai === ai);
  const data: UdiData = {
    ...empty("GS1"),
    deviceId: value("01")?.value ?? null,
    lot: value("10")?.value ?? null,
    serial: value("21")?.value ?? null,
    expiry: value("17")?.date ?? null,
    production: value("11")?.date ?? null,
    additionalProductId: value("240")?.value ?? null,
    customerPartNumber: value("241")?.value ?? null,
    quantity: value("30") ? Number(value("30")!.value) : null,
  };
  return { code: trimmed, partNumber, reading: { kind: read.form === "gtin" ? "gtin" : "gs1", form: read.form, data }, problem: null };
}

function fromHibcc(code: string): Pick<ScannedCode, "reading" | "problem"> {
  const read = readHibcc(code);
  if (!read.ok) return { reading: null, problem: read.problem };
  const secondary = (s: HibccSecondary) => ({
    lot: s.lot,
    serial: s.serial,
    expiry: s.expiry,
    production: s.production,
    quantity: s.quantity,
  });
  if (read.structure === "secondary") {
    const data = { ...empty("HIBCC"), ...secondary(read.secondary) };
    return { reading: { kind: "hibcc", form: "hibcc-secondary", data, hibcc: { structure: "secondary", link: read.link } }, problem: null };
  }
  const data = {
    ...empty("HIBCC"),
    deviceId: hibccDeviceId(read.primary),
    ...(read.structure === "concatenated" ? secondary(read.secondary) : {}),
  };
  const hibcc: HibccLink = read.structure === "primary" ? { structure: "primary", check: read.check } : { structure: "concatenated" };
  return { reading: { kind: "hibcc", form: `hibcc-${read.structure}`, data, hibcc }, problem: null };
}
