/**
 * Per-isolate memory of positive answers (a client found enabled, an access found granted), each trusted for a
 * number of seconds so that a request does not spend a sequential D1 round trip on it. Only what `keep` accepts is
 * remembered; a negative answer (or an error) is asked about again every time. Bounded: past `max` entries the
 * oldest is forgotten. A revocation therefore takes effect on every isolate within the TTL (docs/security.md).
 * `expiresAt`: a value's own end of validity (epoch ms, e.g. a token's expiry), before which the TTL may not reach.
 */
export class Remembered<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 10_000,
    private readonly expiresAt?: (value: V) => number,
  ) {}

  async get(key: string, ttlSeconds: number, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const entry = this.entries.get(key);
    if (entry !== undefined && this.isFresh(entry, ttlSeconds)) return entry.value;
    this.entries.delete(key);
    const value = await load();
    if (ttlSeconds > 0 && keep(value)) this.remember(key, value);
    return value;
  }

  /** The value remembered under `key` if still fresh, without loading anything. */
  peek(key: string, ttlSeconds: number): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && this.isFresh(entry, ttlSeconds) ? entry.value : undefined;
  }

  /** Remembers a value learned elsewhere (e.g. just computed), as `get` would after loading it. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.remember(key, value);
  }

  /** Forgets one key (a value known to have ended here). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private isFresh(entry: { value: V; at: number }, ttlSeconds: number): boolean {
    const now = this.now();
    return now - entry.at < ttlSeconds * 1000 && (this.expiresAt === undefined || now < this.expiresAt(entry.value));
  }

  private remember(key: string, value: V): void {
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, at: this.now() });
  }
}
