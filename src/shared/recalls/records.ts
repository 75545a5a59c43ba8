import { jsonGroups, MAX_PARAMETER_BYTES } from "../../db/bulk-insert";
import { sha256Hex } from "../../platform/sha256";
import { parseCodeInfo, type Scope } from "./code-info";
import { comparableDeviceKey } from "./identifiers";

/**
 * Recalls as the main database holds them (migrations/0047, docs/recalls.md "Where recalls live"): the FDA's, a vendor's
 * own field safety notices, and the sandbox's. Every writer (the recall import, the vendor API, the sandbox scenario)
 * writes through recallWrites: the scope read from code_info once, the keys a store asks by, a revision raised only
 * when the record changed.
 */

export const RECALL_CLASSES = ["Class I", "Class II", "Class III"] as const;
/** Open until the FDA terminates it; `completed` is the firm's report that its action is done (still not terminated). */
export const RECALL_STATUSES = ["open", "completed", "terminated"] as const;
export type RecallClass = (typeof RECALL_CLASSES)[number];
export type RecallStatusName = (typeof RECALL_STATUSES)[number];

/** Whose recall it is: the FDA's, a vendor's, or one sandbox store's. */
export type RecallOwner = "fda" | `vendor:${number}` | `sandbox:${number}`;
export const vendorOwner = (vendorId: number): RecallOwner => `vendor:${vendorId}`;
export const sandboxOwner = (storeTenantId: number): RecallOwner => `sandbox:${storeTenantId}`;

/** What a writer gives of a recall. */
export interface RecallInput {
  productNumber: string;
  eventId: string | null;
  classification: RecallClass | null;
  status: RecallStatusName;
  firm: string | null;
  productDescription: string | null;
  productCode: string | null;
  reason: string | null;
  codeInfo: string;
  initiatedOn: string | null;
  classifiedOn: string | null;
  terminatedOn: string | null;
  /** Catalog, model or part numbers named beside code_info (the FDA's product description; a vendor's part numbers). */
  catalogNumbers: string[];
  /** The scope as data, when the writer has it so (a vendor's notice): code_info is then only what people read. */
  scope?: Scope;
}

/** A recall ready to write: the input with its scope and keys, and the hash of what it was written from. */
export interface RecallWrite extends RecallInput {
  owner: RecallOwner;
  vendorId: number | null;
  scope: Scope;
  keys: string[];
  hash: string;
}

export const DEVICE_KEY_PREFIX = "di:";
export const PRODUCT_KEY_PREFIX = "pn:";

/** The key of a device identifier (a scope's are comparable already: code-info.ts). */
export const deviceIdKey = (deviceId: string) => DEVICE_KEY_PREFIX + comparableDeviceKey(deviceId);
/** The key of a catalog, model or part number. */
export const productKey = (partNumber: string) => PRODUCT_KEY_PREFIX + partNumber.toUpperCase();

/** The keys a recall names its devices by: its device identifiers and its product numbers (recall_keys). */
export function keysOfScope(scope: Scope): string[] {
  const parts = [scope, ...scope.groups];
  const dis = parts.flatMap((part) => [...part.deviceIds, ...part.labels.map((label) => label.deviceId)]);
  const products = parts.flatMap((part) => part.products);
  return [...new Set([...dis.map((di) => DEVICE_KEY_PREFIX + di), ...products.map(productKey)])];
}

/** The keys a unit is matched by: its device identifier and the part number it was sold as, those it has. */
export function unitKeys(deviceId: string | null, partNumber: string | null): string[] {
  return [...(deviceId ? [deviceIdKey(deviceId)] : []), ...(partNumber ? [productKey(partNumber)] : [])];
}

/** The scope of a recall: the one given as data, else its code_info read with the catalog numbers found beside it. */
export const scopeOf = (input: RecallInput): Scope => input.scope ?? parseCodeInfo(input.codeInfo, input.catalogNumbers);

/** A recall to write, its scope read (the CPU of it: a caller that reads many lets others in between, in slices). */
export function recallWrite(owner: RecallOwner, vendorId: number | null, input: RecallInput): Omit<RecallWrite, "hash"> {
  const scope = scopeOf(input);
  return { ...input, owner, vendorId, scope, keys: keysOfScope(scope) };
}

/** The recall with the hash of what it is written from (WebCrypto: the API Worker has no node:crypto). */
export async function hashed<T extends Omit<RecallWrite, "hash">>(write: T): Promise<T & { hash: string }> {
  const { keys: _, owner, vendorId: __, ...input } = write;
  return { ...write, hash: await sha256Hex(JSON.stringify([owner, input])) };
}

/** A written row's fields, in the order of the recalls table's columns in recallWrites' INSERT. */
const ROW_FIELDS = [
  "owner",
  "vendorId",
  "productNumber",
  "eventId",
  "classification",
  "status",
  "firm",
  "productDescription",
  "productCode",
  "reason",
  "codeInfo",
  "initiatedOn",
  "classifiedOn",
  "terminatedOn",
  "scope",
  "hash",
] as const;

/**
 * Writes recalls (one D1 batch: all or none): a new one is created, a changed one updated with a new revision and its
 * keys written again, an unchanged one (the same hash) left as it is. The revisions of one batch follow the highest
 * stored one, one per recall, so a store that read up to a revision has read every recall changed before it.
 * A record without a classification keeps the one stored (openFDA's recall database has none; its enforcement report
 * has): a later import from the other source does not erase it.
 */
export function recallWrites(db: D1Database, recalls: readonly RecallWrite[], now: Date): D1PreparedStatement[] {
  if (recalls.length === 0) return [];
  const rows = recalls.map((r) => ({
    owner: r.owner,
    vendorId: r.vendorId,
    productNumber: r.productNumber,
    eventId: r.eventId,
    classification: r.classification,
    status: r.status,
    firm: r.firm,
    productDescription: r.productDescription,
    productCode: r.productCode,
    reason: r.reason,
    codeInfo: r.codeInfo,
    initiatedOn: r.initiatedOn,
    classifiedOn: r.classifiedOn,
    terminatedOn: r.terminatedOn,
    scope: JSON.stringify({ ...r.scope, catalogNumbers: r.catalogNumbers }),
    hash: r.hash,
    keys: r.keys,
  }));
  // Each recall carries its code_info and scope: grouped so that a statement's parameter stays under D1's 2 MB. The
  // three statements of a group read the same rows.
  return jsonGroups(rows, MAX_PARAMETER_BYTES).flatMap((group) => [
    db
      .prepare(
        "INSERT INTO recalls (owner, vendor_id, product_number, event_id, classification, status, firm, product_description, " +
          "product_code, reason, code_info, initiated_on, classified_on, terminated_on, scope, record_hash, revision, created_at, updated_at) " +
          `SELECT ${ROW_FIELDS.map((name) => `j.value ->> '$.${name}'`).join(", ")}, ` +
          "(SELECT coalesce(max(revision), 0) FROM recalls) + j.key + 1, ?2, ?2 FROM json_each(?1) j WHERE true " +
          "ON CONFLICT (owner, product_number) DO UPDATE SET event_id = excluded.event_id, " +
          "classification = coalesce(excluded.classification, recalls.classification), status = excluded.status, firm = excluded.firm, " +
          "product_description = excluded.product_description, product_code = excluded.product_code, reason = excluded.reason, " +
          "code_info = excluded.code_info, initiated_on = excluded.initiated_on, " +
          "classified_on = coalesce(excluded.classified_on, recalls.classified_on), terminated_on = excluded.terminated_on, " +
          "scope = excluded.scope, record_hash = excluded.record_hash, revision = excluded.revision, updated_at = excluded.updated_at " +
          "WHERE recalls.record_hash != excluded.record_hash",
      )
      .bind(group, now.toISOString()),
    // The keys of the recalls this batch wrote: written again from the scope.
    db
      .prepare(
        "DELETE FROM recall_keys WHERE recall_id IN (SELECT r.id FROM json_each(?1) j JOIN recalls r " +
          "ON r.owner = j.value ->> '$.owner' AND r.product_number = j.value ->> '$.productNumber')",
      )
      .bind(group),
    db
      .prepare(
        "INSERT INTO recall_keys (key, recall_id) SELECT DISTINCT k.value, r.id FROM json_each(?1) j " +
          "JOIN recalls r ON r.owner = j.value ->> '$.owner' AND r.product_number = j.value ->> '$.productNumber' " +
          "JOIN json_each(j.value -> '$.keys') k WHERE true ON CONFLICT DO NOTHING",
      )
      .bind(group),
  ]);
}

/** The stored hashes of an owner's recalls by product number: what a write would change. */
export async function storedHashes(db: D1Database, owner: RecallOwner, productNumbers: readonly string[]): Promise<Map<string, string>> {
  if (productNumbers.length === 0) return new Map();
  const { results } = await db
    .prepare(
      "SELECT r.product_number AS productNumber, r.record_hash AS hash FROM json_each(?2) j " +
        "JOIN recalls r ON r.owner = ?1 AND r.product_number = j.value",
    )
    .bind(owner, JSON.stringify(productNumbers))
    .all<{ productNumber: string; hash: string }>();
  return new Map(results.map((row) => [row.productNumber, row.hash]));
}

/** A recall as a reader of the main database gets it (its scope as JSON). */
export interface StoredRecallRow {
  id: number;
  owner: string;
  vendor_id: number | null;
  product_number: string;
  classification: string | null;
  status: string;
  firm: string | null;
  product_description: string | null;
  reason: string | null;
  code_info: string;
  initiated_on: string | null;
  classified_on: string | null;
  terminated_on: string | null;
  scope: string;
  revision: number;
}

export const RECALL_COLUMNS =
  "r.id, r.owner, r.vendor_id, r.product_number, r.classification, r.status, r.firm, r.product_description, r.reason, r.code_info, " +
  "r.initiated_on, r.classified_on, r.terminated_on, r.scope, r.revision";

/** The recalls a store (its sandbox owner bound at `param`) sees: every recall but the sandbox's of other stores. */
export const visibleTo = (param: string) => `(r.owner NOT LIKE 'sandbox:%' OR r.owner = ${param})`;

/**
 * The recalls not terminated that name any of `keys`, as a store (`storeTenantId`) sees them: what a newly shipped unit
 * and a scanned one are matched against. `vendorNotices` false leaves out the vendors' own, which speak for the units
 * their vendor delivered only.
 */
export async function openRecallsNaming(
  db: D1Database,
  keys: readonly string[],
  storeTenantId: number,
  { vendorNotices }: { vendorNotices: boolean },
): Promise<StoredRecallRow[]> {
  if (keys.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT ${RECALL_COLUMNS} FROM recalls r WHERE r.status != 'terminated' AND ${visibleTo("?2")} ` +
        `${vendorNotices ? "" : "AND r.vendor_id IS NULL "}AND r.id IN ` +
        "(SELECT k.recall_id FROM json_each(?1) j JOIN recall_keys k ON k.key = j.value) ORDER BY r.id",
    )
    .bind(JSON.stringify(keys), sandboxOwner(storeTenantId))
    .all<StoredRecallRow>();
  return results;
}
