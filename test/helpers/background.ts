/**
 * Work of the test Worker that outlives the request that started it: `waitUntil` promises (e.g. the outbox dispatch
 * after an order's answer), queue consumer invocations, and queue messages sent but not yet handed to the consumer.
 * The test entry (test/helpers/worker.ts) reports them here, and every test file waits for them to settle before it
 * ends (test/setup/apply-migrations.ts). Otherwise a delivery started by one file runs during the next file's
 * database reset, or logs after the last file, when vitest has closed its channel for console output.
 */

/** What is running, by what started it (for the error when it does not settle). */
const running = new Map<Promise<unknown>, string>();
/**
 * Work reported by name, not by a promise: a tenant store's alarm still owed. A promise made inside a Durable Object
 * belongs to that object's I/O context, and the test runner (another object) may not await it.
 */
const owed = new Set<string>();
/** Queue message bodies (as JSON) sent without a delay and not yet received by the consumer, with their counts. */
const queued = new Map<string, number>();

/** How long the last file may wait; longer means something in the background never settles, which is a bug. */
const SETTLE_DEADLINE_MS = 20_000;
/** How often it looks again while work runs or messages are on their way (the queue hands them over after 1 s). */
const QUEUE_POLL_MS = 25;

export function track<T>(work: Promise<T>, startedBy: string): Promise<T> {
  running.set(work, startedBy);
  const forget = () => running.delete(work);
  work.then(forget, forget);
  return work;
}

/** `name` (e.g. a store's alarm) is running until `settle(name)`. */
export const owe = (name: string) => void owed.add(name);
export const settle = (name: string) => void owed.delete(name);

/** A producer that reports what it sends; delayed messages are a later test's business and are not awaited. */
export function trackedQueue<Body>(queue: Queue<Body>): Queue<Body> {
  const enqueue = (body: unknown) => {
    const key = JSON.stringify(body);
    queued.set(key, (queued.get(key) ?? 0) + 1);
  };
  return {
    send: async (body, options) => {
      const response = await queue.send(body, options);
      if (!options?.delaySeconds) enqueue(body);
      return response;
    },
    sendBatch: async (messages, options) => {
      const sent = [...messages];
      const response = await queue.sendBatch(sent, options);
      for (const message of sent) if (!(message.delaySeconds ?? options?.delaySeconds)) enqueue(message.body);
      return response;
    },
    metrics: () => queue.metrics(),
  };
}

/** The consumer got these messages: they are no longer on their way. */
export function received(batch: MessageBatch): void {
  for (const message of batch.messages) {
    const key = JSON.stringify(message.body);
    const count = queued.get(key) ?? 0;
    if (count <= 1) queued.delete(key);
    else queued.set(key, count - 1);
  }
}

/** Resolves when no background work is running and no message is on its way to the consumer. */
export async function backgroundSettled(): Promise<void> {
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  while (running.size > 0 || queued.size > 0 || owed.size > 0) {
    if (Date.now() > deadline)
      throw new Error(
        `background work did not settle in ${SETTLE_DEADLINE_MS} ms: ${[...running.values(), ...owed].join(", ") || "nothing"} running, ${queued.size} queued messages`,
      );
    // Polled, never awaited: work started in another context (a queue consumer a store's alarm fed, a store) settles
    // there, and a promise of this context chained to it would be resolved from that one, which workerd refuses ("I/O
    // on behalf of a different Durable Object").
    await new Promise((resolve) => setTimeout(resolve, QUEUE_POLL_MS));
  }
}
