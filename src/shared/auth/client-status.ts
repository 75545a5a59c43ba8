import type { Database } from "../../db/client";
import { Remembered } from "../../platform/remembered";
import { type EnabledClient, enabledClient } from "./clients";

/**
 * Per-isolate memory of clients found enabled, with the version each is pinned to (src/platform/remembered.ts), so an
 * authenticated request does not spend a sequential D1 round trip on it (at a distant primary, that round trip is most
 * of a read's latency). Only "enabled" is remembered: disabling a client or moving its version takes effect on every
 * isolate within `ttlSeconds` (CLIENT_STATUS_CACHE_SECONDS; docs/security.md); its tokens also expire.
 */
export class ClientStatusCache {
  private readonly enabled: Remembered<EnabledClient | null>;

  constructor(now: () => number = Date.now) {
    this.enabled = new Remembered<EnabledClient | null>(now);
  }

  /** An enabled client's version and its tenant's home; null when it is disabled or unknown. */
  enabledClient(db: Database, clientId: string, ttlSeconds: number): Promise<EnabledClient | null> {
    return this.enabled.get(
      clientId,
      ttlSeconds,
      () => enabledClient(db, clientId),
      (client) => client !== null,
    );
  }

  async isEnabled(db: Database, clientId: string, ttlSeconds: number): Promise<boolean> {
    return (await this.enabledClient(db, clientId, ttlSeconds)) !== null;
  }

  clear(): void {
    this.enabled.clear();
  }
}

export const clientStatus = new ClientStatusCache();
