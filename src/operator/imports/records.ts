import { createHash } from "node:crypto";
import { z } from "zod";
import { closestName } from "../../platform/closest-name";
import { hasControlCharacters } from "../../platform/control-characters";
import { isJsonObject } from "../../platform/json-object";
import { hasLoneSurrogate } from "../../platform/well-formed-text";
import { toGtin14 } from "../../shared/catalog/gtin";
import { normalizePartNumber } from "../../shared/catalog/part-numbers";

/**
 * One product of a catalog import, whatever the file's format (docs/api.md, "Catalog import"): an NDJSON line is this
 * object; a CSV row and a GUDID device are turned into it. The key is `id`, the operator's own product id; a record
 * without one is matched by its unit GTIN, then by manufacturer and part number, and a product it matches nowhere gets
 * an id made from the same (src/operator/imports/keys.ts).
 */
/**
 * Text that is not plain: anything but printable ASCII, or a leading, trailing or double space. Plain text is left as
 * it is by NFC, the white space rule and the control character check, so it skips them (a third of a window's time).
 */
const NOT_PLAIN = /[^\x20-\x7e]| {2}|^ | $/;

/** Text as stored: NFC, white space runs made one space, trimmed. */
const cleanText = (value: string) => (NOT_PLAIN.test(value) ? value.normalize("NFC").replace(/\s+/g, " ").trim() : value);

const text = (max: number) =>
  z
    .string()
    .max(max, `At most ${max} characters.`)
    .transform(cleanText)
    // Tabs and line breaks are white space, made one space above; any other C0 control character (or DEL) left is refused.
    .refine((value) => !hasControlCharacters(value), {
      message: "Control characters (U+0000-U+001F, U+007F) are not text.",
      params: { code: "control_character" },
    });

const requiredText = (max: number) => text(max).refine((value) => value.length > 0, "Must not be empty.");

export const PRODUCT_STATUSES = ["active", "discontinued", "withdrawn"] as const;
export const AGENCIES = ["GS1", "HIBCC", "ICCBBA"] as const;

/** A record's fields, in the schema's order (the CSV columns follow them: src/operator/imports/formats/csv.ts). */
export const RECORD_FIELD_NAMES = [
  "id",
  "partNumber",
  "displayPartNumber",
  "title",
  "description",
  "manufacturer",
  "categories",
  "status",
  "deviceIdentifiers",
] as const;

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
/** A record's limits, in characters or items: the schema's, and the plain path's (plainRecord). */
const MAX = {
  id: 64,
  partNumber: 64,
  displayPartNumber: 80,
  title: 200,
  description: 4000,
  manufacturer: 120,
  category: 80,
  categories: 10,
  deviceIdentifiers: 20,
  deviceId: 64,
  quantity: 1_000_000,
} as const;

export const DeviceIdentifierRecordSchema = z
  .object({
    agency: z.enum(AGENCIES).default("GS1"),
    deviceId: z.string().min(1).max(MAX.deviceId),
    /** A package level (a case): the device identifier of what it contains, and how many. */
    containsDeviceId: z.string().min(1).max(MAX.deviceId).optional(),
    quantity: z.number().int().min(1).max(MAX.quantity).optional(),
  })
  .strict();

export const ImportRecordSchema = z
  .object({
    id: z.string().min(1).max(MAX.id).regex(ID_PATTERN, "Letters, digits and . _ : / - only, starting with a letter or digit.").optional(),
    partNumber: requiredText(MAX.partNumber),
    displayPartNumber: text(MAX.displayPartNumber).optional(),
    title: requiredText(MAX.title),
    description: text(MAX.description).default(""),
    manufacturer: requiredText(MAX.manufacturer),
    categories: z.array(requiredText(MAX.category)).max(MAX.categories, `At most ${MAX.categories} categories.`).default([]),
    status: z.enum(PRODUCT_STATUSES).default("active"),
    deviceIdentifiers: z
      .array(DeviceIdentifierRecordSchema)
      .max(MAX.deviceIdentifiers, `At most ${MAX.deviceIdentifiers} device identifiers.`)
      .default([]),
  })
  .strict();

export type ImportRecordInput = z.input<typeof ImportRecordSchema>;
type ParsedRecord = z.output<typeof ImportRecordSchema>;

/** A valid record, normalized: what is stored and hashed. */
export interface ImportRecord {
  id?: string;
  partNumber: string;
  displayPartNumber: string;
  normalizedPartNumber: string;
  title: string;
  description: string;
  manufacturer: string;
  categories: string[];
  status: (typeof PRODUCT_STATUSES)[number];
  deviceIdentifiers: { agency: (typeof AGENCIES)[number]; deviceId: string; containsDeviceId: string | null; quantity: number | null }[];
}

/** Why a row is rejected: the field (a dotted path, or null for the whole row), a code and a message. */
export interface RowProblem {
  field: string | null;
  code: string;
  message: string;
}

/** A rejected row of a file: its line, the product it names when known, and the problem. */
export interface Rejection {
  line: number;
  key: string | null;
  problem: RowProblem;
}

export class RowRejected extends Error {
  constructor(readonly problem: RowProblem) {
    super(problem.message);
  }
}

const MESSAGES: Record<string, string> = { invalid_type: "Wrong type.", unrecognized_keys: "Unknown field." };

/** The value at a path of the record as sent (to tell a missing field from a wrong one). */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let at = input;
  for (const key of path) at = typeof at === "object" && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

function problemOf(error: z.ZodError, input: unknown, fields: readonly string[]): RowProblem {
  const issue = error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const suggestion = closestName(key, fields);
    return {
      field: [...issue.path, key].join("."),
      code: "unknown_field",
      message: `Unknown field.${suggestion ? ` Did you mean ${suggestion}?` : ""}`,
    };
  }
  const field = issue.path.join(".") || null;
  const ownCode = issue.code === "custom" ? issue.params?.code : undefined;
  if (typeof ownCode === "string") return { field, code: ownCode, message: issue.message };
  // closedObject's catchall (src/platform/schemas.ts) names an unknown top-level field in a custom issue.
  if (issue.path.length === 1 && !fields.includes(String(issue.path[0]))) {
    return { field, code: "unknown_field", message: issue.message };
  }
  const missing = issue.code === "invalid_type" && valueAt(input, issue.path) === undefined;
  return {
    field,
    code: missing ? "missing_field" : issue.code === "invalid_type" ? "wrong_type" : "invalid_value",
    message: missing ? "Required." : (issue.message ?? MESSAGES[issue.code] ?? "Invalid."),
  };
}

/** GS1 identifiers are stored as GTIN-14; HIBCC and ICCBBA as sent, upper-case. */
function deviceIdOf(agency: (typeof AGENCIES)[number], value: string, field: string): string {
  if (agency === "GS1") {
    const gtin = toGtin14(value);
    if (!gtin) throw new RowRejected({ field, code: "invalid_gtin", message: "Not a GTIN-8, -12, -13 or -14 with a valid check digit." });
    return gtin;
  }
  if (!/^[A-Za-z0-9+$/.%-]{4,64}$/.test(value)) {
    throw new RowRejected({ field, code: "invalid_device_identifier", message: `Not a ${agency} device identifier.` });
  }
  return value.toUpperCase();
}

function normalize(parsed: ParsedRecord): ImportRecord {
  const deviceIdentifiers = parsed.deviceIdentifiers.map((di, i) => {
    const at = `deviceIdentifiers.${i}`;
    if ((di.containsDeviceId === undefined) !== (di.quantity === undefined)) {
      throw new RowRejected({
        field: `${at}.${di.quantity === undefined ? "quantity" : "containsDeviceId"}`,
        code: "invalid_value",
        message: "A package level names both what it contains (containsDeviceId) and how many (quantity).",
      });
    }
    return {
      agency: di.agency,
      deviceId: deviceIdOf(di.agency, di.deviceId, `${at}.deviceId`),
      containsDeviceId: di.containsDeviceId === undefined ? null : deviceIdOf(di.agency, di.containsDeviceId, `${at}.containsDeviceId`),
      quantity: di.quantity ?? null,
    };
  });
  const seen = new Set<string>();
  deviceIdentifiers.forEach((di, i) => {
    const key = `${di.agency} ${di.deviceId}`;
    if (seen.has(key)) {
      throw new RowRejected({ field: `deviceIdentifiers.${i}.deviceId`, code: "duplicate_device_identifier", message: "Listed twice." });
    }
    seen.add(key);
  });
  for (const [i, di] of deviceIdentifiers.entries()) {
    if (di.containsDeviceId !== null && !seen.has(`${di.agency} ${di.containsDeviceId}`)) {
      throw new RowRejected({
        field: `deviceIdentifiers.${i}.containsDeviceId`,
        code: "invalid_value",
        message: "Must be another device identifier of this product.",
      });
    }
  }
  const normalizedPartNumber = normalizePartNumber(parsed.partNumber);
  if (!normalizedPartNumber) {
    throw new RowRejected({ field: "partNumber", code: "invalid_value", message: "Must contain a letter or a digit." });
  }
  return {
    ...(parsed.id === undefined ? {} : { id: parsed.id }),
    partNumber: parsed.partNumber,
    displayPartNumber: parsed.displayPartNumber || parsed.partNumber,
    normalizedPartNumber,
    title: parsed.title,
    description: parsed.description,
    manufacturer: parsed.manufacturer,
    categories: [...new Set(parsed.categories)],
    status: parsed.status,
    deviceIdentifiers,
  };
}

/**
 * A row of any kind of import parsed by its schema (a catalog record, a vendor's offer), or a RowRejected naming the
 * first field at fault and why: a missing field, a wrong type, an unknown field (with the closest known name), an
 * invalid value, ill-formed text.
 */
export function parseRow<S extends z.ZodType>(schema: S, fields: readonly string[], value: unknown): z.output<S> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RowRejected({ field: null, code: "wrong_type", message: "A record is a JSON object." });
  }
  const ill = wellFormedProblem(value);
  if (ill) throw new RowRejected(ill);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RowRejected(problemOf(parsed.error, value, fields));
  return parsed.data;
}

const RECORD_FIELDS = Object.keys(ImportRecordSchema.shape);

/**
 * The record of one row, normalized, or a RowRejected naming the field and the reason. A row the plain path
 * (plainRecord) is sure of skips the schema, whose interpretation costs about 25 µs a row in the Workers runtime (no
 * code generation there); every other row, and every rejection, is the schema's.
 */
export function recordOf(value: unknown): ImportRecord {
  return normalize(plainRecord(value) ?? parseRow(ImportRecordSchema, RECORD_FIELDS, value));
}

/** recordOf by the schema alone: what the plain path must equal (test/imports/record-plain-path.node.test.ts). */
export const recordBySchema = (value: unknown): ImportRecord => normalize(parseRow(ImportRecordSchema, RECORD_FIELDS, value));

function wellFormedProblem(value: object, path?: string): RowProblem | undefined {
  for (const key of Object.keys(value)) {
    if (key === "__proto__")
      return { field: path === undefined ? key : `${path}.${key}`, code: "unknown_field", message: "Unknown field." };
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "string") {
      if (hasLoneSurrogate(item)) {
        return {
          field: path === undefined ? key : `${path}.${key}`,
          code: "ill_formed_text",
          message: "Ill-formed Unicode: a lone UTF-16 surrogate.",
        };
      }
    } else if (typeof item === "object" && item !== null) {
      const inner = wellFormedProblem(item, path === undefined ? key : `${path}.${key}`);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * The plain path of recordOf: a row that is certainly valid under ImportRecordSchema (and well-formed), parsed to what
 * the schema outputs; undefined at the first doubt, and the schema parses the row (and names the fault). It restates
 * the schema's rules with the schema's limits: test/imports/record-plain-path.node.test.ts compares the two on rows
 * mutated over the schema's own fields and fails on any difference (a field the schema gains and requires included).
 */
/** The fields the plain path reads: a row with any other (a field the schema gained since) goes to the schema. */
const RECORD_KEYS: ReadonlySet<string> = new Set(RECORD_FIELD_NAMES);
const DEVICE_KEYS: ReadonlySet<string> = new Set(["agency", "deviceId", "containsDeviceId", "quantity"]);
const STATUS_SET: ReadonlySet<unknown> = new Set(PRODUCT_STATUSES);
const AGENCY_SET: ReadonlySet<unknown> = new Set(AGENCIES);

/** The text schema's output for `value`, or undefined when the schema (or the well-formedness check) might refuse it. */
function plainText(value: unknown, max: number, required: boolean): string | undefined {
  if (typeof value !== "string" || value.length > max) return undefined;
  if (!NOT_PLAIN.test(value)) return required && value.length === 0 ? undefined : value;
  if (hasLoneSurrogate(value)) return undefined;
  const out = cleanText(value);
  return hasControlCharacters(out) || (required && out.length === 0) ? undefined : out;
}

export function plainRecord(value: unknown): ParsedRecord | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const key of Object.keys(value)) if (!RECORD_KEYS.has(key) || value[key] === undefined) return undefined;
  const { id, status } = value;
  if (id !== undefined && !(typeof id === "string" && id.length >= 1 && id.length <= MAX.id && ID_PATTERN.test(id))) return undefined;
  const partNumber = plainText(value.partNumber, MAX.partNumber, true);
  const title = plainText(value.title, MAX.title, true);
  const manufacturer = plainText(value.manufacturer, MAX.manufacturer, true);
  if (partNumber === undefined || title === undefined || manufacturer === undefined) return undefined;
  const displayPartNumber =
    value.displayPartNumber === undefined ? undefined : plainText(value.displayPartNumber, MAX.displayPartNumber, false);
  if (value.displayPartNumber !== undefined && displayPartNumber === undefined) return undefined;
  const description = value.description === undefined ? "" : plainText(value.description, MAX.description, false);
  if (description === undefined) return undefined;
  if (status !== undefined && !STATUS_SET.has(status)) return undefined;
  let categories: string[] = [];
  if (value.categories !== undefined) {
    const raw = value.categories;
    if (!Array.isArray(raw) || raw.length > MAX.categories) return undefined;
    categories = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const name = plainText(raw[i], MAX.category, true);
      if (name === undefined) return undefined;
      categories[i] = name;
    }
  }
  const deviceIdentifiers: ParsedRecord["deviceIdentifiers"] = [];
  if (value.deviceIdentifiers !== undefined) {
    const raw = value.deviceIdentifiers;
    if (!Array.isArray(raw) || raw.length > MAX.deviceIdentifiers) return undefined;
    for (let i = 0; i < raw.length; i++) {
      const di = raw[i];
      if (!isJsonObject(di)) return undefined;
      for (const key of Object.keys(di)) if (!DEVICE_KEYS.has(key) || di[key] === undefined) return undefined;
      const { agency = "GS1", deviceId, containsDeviceId, quantity } = di;
      if (!AGENCY_SET.has(agency)) return undefined;
      if (typeof deviceId !== "string" || deviceId.length < 1 || deviceId.length > MAX.deviceId || NOT_PLAIN.test(deviceId))
        return undefined;
      if (
        containsDeviceId !== undefined &&
        (typeof containsDeviceId !== "string" ||
          containsDeviceId.length < 1 ||
          containsDeviceId.length > MAX.deviceId ||
          NOT_PLAIN.test(containsDeviceId))
      )
        return undefined;
      if (
        quantity !== undefined &&
        !(typeof quantity === "number" && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX.quantity)
      )
        return undefined;
      deviceIdentifiers.push({
        agency: agency as (typeof AGENCIES)[number],
        deviceId,
        ...(containsDeviceId === undefined ? {} : { containsDeviceId: containsDeviceId as string }),
        ...(quantity === undefined ? {} : { quantity: quantity as number }),
      });
    }
  }
  return {
    ...(id === undefined ? {} : { id: id as string }),
    partNumber,
    ...(displayPartNumber === undefined ? {} : { displayPartNumber }),
    title,
    description,
    manufacturer,
    categories,
    status: (status ?? "active") as ParsedRecord["status"],
    deviceIdentifiers,
  };
}

/** SHA-256, 128 bits in hex: node:crypto's synchronous hash (nodejs_compat) is many times faster per row than awaiting WebCrypto. */
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * A record's content (all but its id) as JSON, as it is staged, and its hash: equal records write nothing. One
 * serialization serves both (the staged row keeps the product id in a column of its own).
 */
export function contentOf(record: ImportRecord): { json: string; hash: string } {
  const { id: _id, ...content } = record;
  const json = JSON.stringify(content);
  return { json, hash: sha256(json) };
}

/** The content hash of a record (without its id). */
export const contentHash = (record: ImportRecord): string => contentOf(record).hash;

/** The hash of a row's source text (its line; a CSV row's fields with the header): the same source, the same product. */
export const sourceHash = (source: string): string => sha256(source);
/**
 * The recipe of a row's source text and its hash, as a number: bump it when either changes (here, in
 * src/operator/imports/validate.ts or a format's reader). The same-file fingerprint includes it, so that files read
 * under an older recipe are read again (src/operator/imports/same-file.ts).
 */
export const SOURCE_RECIPE = 1;
