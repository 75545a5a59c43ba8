/**
 * The outbox of X12 documents per partner, in R2 (the operator plane's IMPORTS bucket): what the partner's transport
 * serves (the mailbox's `GET /vendor/api/edi/outbound`, the AS2 sender). Tenant data stays out of D1, which holds
 * only the control numbers and an opaque reference per interchange; the documents live here:
 * - `edi/outbox/{partnerId}/{ISA13, 9 digits}.x12`: waiting to be taken, listed in control number order;
 * - `edi/taken/{partnerId}/{ISA13}.x12`: taken (moved, with `takenAt`), kept for the bucket's lifecycle rule on
 *   `edi/taken/` (30 days) so a partner that lost a document can be served it again and an operator can read what
 *   was sent, and so that a document put again after it was taken is recognized and not offered twice.
 */

const OUTBOX = "edi/outbox";
const TAKEN = "edi/taken";
/** The most a page lists (R2 lists at most 1,000 keys). */
export const MAX_PAGE = 1000;

export interface OutboundMeta {
  /** The transaction set: 850, ... */
  document: string;
  /** The reference its control numbers were reserved for (opaque). */
  reference: string;
}

export interface OutboundDocument extends OutboundMeta {
  partnerId: number;
  controlNumber: number;
  key: string;
  size: number;
  storedAt: string;
}

const file = (controlNumber: number) => {
  if (!Number.isInteger(controlNumber) || controlNumber < 1 || controlNumber > 999_999_999) {
    throw new RangeError(`Not an interchange control number: ${controlNumber}.`);
  }
  return `${String(controlNumber).padStart(9, "0")}.x12`;
};
const partnerPrefix = (root: string, partnerId: number) => {
  if (!Number.isInteger(partnerId) || partnerId < 1) throw new RangeError(`Not a partner id: ${partnerId}.`);
  return `${root}/${partnerId}/`;
};
export const outboxKey = (partnerId: number, controlNumber: number) => partnerPrefix(OUTBOX, partnerId) + file(controlNumber);
export const takenKey = (partnerId: number, controlNumber: number) => partnerPrefix(TAKEN, partnerId) + file(controlNumber);

/**
 * Puts a document in the partner's outbox under its interchange control number, once: a document already waiting or
 * taken under that number is left as it is (`exists`), so the same message handed on twice offers one document.
 */
export async function putOutbound(
  bucket: R2Bucket,
  partnerId: number,
  controlNumber: number,
  text: string,
  meta: OutboundMeta,
): Promise<"stored" | "exists"> {
  const key = outboxKey(partnerId, controlNumber);
  const [waiting, taken] = await Promise.all([bucket.head(key), bucket.head(takenKey(partnerId, controlNumber))]);
  if (waiting || taken) return "exists";
  await bucket.put(key, text, {
    httpMetadata: { contentType: "application/edi-x12" },
    customMetadata: { document: meta.document, reference: meta.reference },
  });
  return "stored";
}

function documentOf(partnerId: number, object: R2Object): OutboundDocument {
  return {
    partnerId,
    controlNumber: Number(object.key.slice(object.key.lastIndexOf("/") + 1, -".x12".length)),
    key: object.key,
    size: object.size,
    storedAt: object.uploaded.toISOString(),
    document: object.customMetadata?.document ?? "",
    reference: object.customMetadata?.reference ?? "",
  };
}

/** The partner's documents not yet taken, oldest control number first, a page at a time (`cursor` from the last). */
export async function listOutbound(
  bucket: R2Bucket,
  partnerId: number,
  { limit = 100, cursor }: { limit?: number; cursor?: string | undefined } = {},
): Promise<{ documents: OutboundDocument[]; cursor: string | null }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new RangeError(`A page lists 1 to ${MAX_PAGE}, not ${limit}.`);
  const listed = await bucket.list({
    prefix: partnerPrefix(OUTBOX, partnerId),
    limit,
    ...(cursor ? { cursor } : {}),
    include: ["customMetadata"],
  });
  return {
    documents: listed.objects.map((object) => documentOf(partnerId, object)),
    cursor: listed.truncated ? listed.cursor : null,
  };
}

/** A document's text, waiting or taken; null when there is none under that number. */
export async function readOutbound(bucket: R2Bucket, partnerId: number, controlNumber: number): Promise<string | null> {
  const object = (await bucket.get(outboxKey(partnerId, controlNumber))) ?? (await bucket.get(takenKey(partnerId, controlNumber)));
  return object ? object.text() : null;
}

/**
 * Marks a document taken (the partner fetched it, or the AS2 sender delivered it): moved out of the outbox to
 * `edi/taken/`, the copy written before the original is deleted (a crash between leaves it waiting and taken; taking
 * it again finishes the move). Idempotent: a document taken before is `already-taken`; a number never put, `unknown`.
 */
export async function takeOutbound(
  bucket: R2Bucket,
  partnerId: number,
  controlNumber: number,
  takenAt: Date = new Date(),
): Promise<"taken" | "already-taken" | "unknown"> {
  const key = outboxKey(partnerId, controlNumber);
  const taken = takenKey(partnerId, controlNumber);
  if (!(await bucket.head(key))) return (await bucket.head(taken)) ? "already-taken" : "unknown";
  if (!(await bucket.head(taken))) {
    const waiting = await bucket.get(key);
    if (!waiting) return "already-taken"; // taken meanwhile by a concurrent call
    await bucket.put(taken, await waiting.arrayBuffer(), {
      httpMetadata: waiting.httpMetadata ?? {},
      customMetadata: { ...waiting.customMetadata, takenAt: takenAt.toISOString() },
    });
  }
  await bucket.delete(key);
  return "taken";
}
