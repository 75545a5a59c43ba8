import type { Database } from "../../../db/client";
import type { Bindings } from "../../../env";
import { linesById } from "../lines";
import type { LineChange, LineChangesMessage } from "./messages";
import { vendorProjection } from "./stub";

/** Changed lines published per alarm; more wait for the next one, armed at once. */
const PUBLISH_LIMIT = 500;
/** A queue message holds at most 128 KB and a batch 256 KB (Cloudflare Queues' limits, in bytes), with room to spare. */
const MESSAGE_BYTES = 100_000;
const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).byteLength;
const BATCH_BYTES = 200_000;
const BATCH_MESSAGES = 100;

type PendingChange = {
  lineId: number;
  vendorId: number;
  revision: number;
  changedAt: number;
};

/** Groups one vendor's changes into messages under the size limit. */
function messagesOf(tenantId: number, vendorId: number, changes: LineChange[]): { body: LineChangesMessage; bytes: number }[] {
  const messages: { body: LineChangesMessage; bytes: number }[] = [];
  let current: { body: LineChangesMessage; bytes: number } | undefined;
  for (const change of changes) {
    const bytes = bytesOf(change) + 1;
    if (!current || current.bytes + bytes > MESSAGE_BYTES) {
      current = { body: { tenantId, vendorId, changes: [] }, bytes: 64 };
      messages.push(current);
    }
    current.body.changes.push(change);
    current.bytes += bytes;
  }
  return messages;
}

/** Sends the messages in batches under the queue's limits. */
async function sendAll(queue: Queue, messages: { body: LineChangesMessage; bytes: number }[]): Promise<void> {
  let batch: { body: LineChangesMessage }[] = [];
  let bytes = 0;
  for (const message of messages) {
    if (batch.length === BATCH_MESSAGES || (batch.length > 0 && bytes + message.bytes > BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body: message.body });
    bytes += message.bytes;
  }
  if (batch.length > 0) await queue.sendBatch(batch);
}

/**
 * Publishes a tenant store's changed lines to their vendors' projections, each to the vendor's shard of this tenant
 * (the store's alarm; docs/tenant-stores.md, "Vendors' lines"): reads the changes, renders each line as its vendor reads
 * it, sends them to the medparts-vendor-lines queue, and only then marks them published at the revision read. A crash
 * before the mark sends them again (at least once); a change made meanwhile has a newer revision and stays to publish.
 * Whether more remain.
 */
export async function publishLineChanges(
  storage: DurableObjectStorage,
  db: Database,
  env: Pick<Bindings, "VENDOR_LINE_CHANGES" | "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS">,
  tenantId: number,
): Promise<boolean> {
  const pending = storage.sql
    .exec<PendingChange>(
      "SELECT line_id AS lineId, vendor_id AS vendorId, revision, changed_at AS changedAt FROM vendor_line_changes " +
        "WHERE revision > published_revision AND (SELECT publishing FROM vendor_projection) = 1 ORDER BY revision LIMIT ?",
      PUBLISH_LIMIT + 1,
    )
    .toArray();
  const changes = pending.slice(0, PUBLISH_LIMIT);
  if (changes.length === 0) return false;
  const lines = await linesById(
    db,
    changes.map((change) => change.lineId),
  );
  const byVendor = new Map<number, LineChange[]>();
  for (const { lineId, vendorId, revision, changedAt } of changes) {
    const list = byVendor.get(vendorId) ?? [];
    list.push({ lineId, revision, changedAt, line: lines.get(lineId) ?? null });
    byVendor.set(vendorId, list);
  }
  const messages = [...byVendor].flatMap(([vendorId, list]) => messagesOf(tenantId, vendorId, list));
  // A line too big for a queue message on its own (a line's custom fields can be long) goes to its projection directly.
  await sendAll(
    env.VENDOR_LINE_CHANGES,
    messages.filter((message) => message.bytes <= MESSAGE_BYTES),
  );
  for (const { body } of messages.filter((message) => message.bytes > MESSAGE_BYTES)) {
    await vendorProjection(env, body.vendorId, body.tenantId).apply(body.tenantId, body.changes);
  }
  const publishedAt = Date.now();
  storage.transactionSync(() => {
    for (const { lineId, revision } of changes) {
      storage.sql.exec(
        "UPDATE vendor_line_changes SET published_revision = ?2, published_at = ?3 WHERE line_id = ?1 AND published_revision < ?2",
        lineId,
        revision,
        publishedAt,
      );
    }
  });
  return pending.length > PUBLISH_LIMIT;
}
