import type { Database } from "../../db/client";
import { Remembered } from "../../platform/remembered";
import { isClientEnabled } from "./clients";

/**
 * Per-isolate memory of clients found enabled (src/platform/remembered.ts), so an authenticated request does not
 * spend a sequential D1 round trip on it (at a distant primary, that round trip is most of a read's latency). Only
 * "enabled" is remembered: disabling a client takes effect on every isolate within `ttlSeconds`
 * (CLIENT_STATUS_CACHE_SECONDS; docs/security.md); its tokens also expire.
 */
export class ClientStatusCache {
  private readonly enabled: Remembered<boolean>;

  constructor(now: () => number = Date.now) {
    this.enabled = new Remembered<boolean>(now);
  }

  isEnabled(db: Database, clientId: string, ttlSeconds: number): Promise<boolean> {
    return this.enabled.get(
      clientId,
      ttlSeconds,
      () => isClientEnabled(db, clientId),
      (enabled) => enabled,
    );
  }

  clear(): void {
    this.enabled.clear();
  }
}

export const clientStatus = new ClientStatusCache();
