/**
 * Per-isolate memory of client secrets that recently passed the slow PBKDF2 check, so that a client asking
 * for tokens repeatedly pays the 100,000 iterations once per isolate and window, not per request.
 * Keys are SHA-256 of (stored hash, presented secret): a secret rotation changes the stored hash and so
 * misses; only successes are remembered, so a guessing attacker still pays the full hash on every attempt.
 * Secrets are 32 random bytes, so a fast digest of them held in memory gives nothing to brute-force.
 */
const TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 1024;

const verified = new Map<string, number>();
const encoder = new TextEncoder();

async function cacheKey(storedHash: string, secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${storedHash}\n${secret}`));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

export async function recentlyVerified(storedHash: string, secret: string, now = Date.now()): Promise<boolean> {
  const key = await cacheKey(storedHash, secret);
  const expiresAt = verified.get(key);
  if (expiresAt === undefined) return false;
  if (expiresAt <= now) {
    verified.delete(key);
    return false;
  }
  return true;
}

export async function rememberVerified(storedHash: string, secret: string, now = Date.now()): Promise<void> {
  if (verified.size >= MAX_ENTRIES) {
    // Map iteration is insertion order: drop the oldest entry.
    const oldest = verified.keys().next().value;
    if (oldest !== undefined) verified.delete(oldest);
  }
  verified.set(await cacheKey(storedHash, secret), now + TTL_MS);
}
