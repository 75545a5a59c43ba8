import type { Database } from "../db/client";
import { isClientEnabled } from "./clients";

/**
 * Per-isolate memory of clients found enabled, so an authenticated request does not spend a sequential D1 round
 * trip on it (at a distant primary, that round trip is most of a read's latency). Only "enabled" is remembered:
 * a disabled or unknown client is asked about every time. Disabling a client therefore takes effect on every
 * isolate within `ttlSeconds` (CLIENT_STATUS_CACHE_SECONDS; docs/security.md); its tokens also expire.
 */
const MAX_REMEMBERED = 10_000;

export class ClientStatusCache {
  /** When each client was last found enabled. */
  private readonly enabledAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async isEnabled(db: Database, clientId: string, ttlSeconds: number): Promise<boolean> {
    const checkedAt = this.enabledAt.get(clientId);
    if (checkedAt !== undefined && this.now() - checkedAt < ttlSeconds * 1000) return true;
    this.enabledAt.delete(clientId);
    const enabled = await isClientEnabled(db, clientId);
    if (enabled) this.remember(clientId, this.now());
    return enabled;
  }

  clear(): void {
    this.enabledAt.clear();
  }

  private remember(clientId: string, at: number): void {
    if (this.enabledAt.size >= MAX_REMEMBERED) {
      const oldest = this.enabledAt.keys().next().value;
      if (oldest !== undefined) this.enabledAt.delete(oldest);
    }
    this.enabledAt.set(clientId, at);
  }
}

export const clientStatus = new ClientStatusCache();
