/** One structured JSON line per event. Callers never pass secrets, tokens or request bodies. */
export function logEvent(level: "info" | "warn" | "error", fields: Record<string, unknown>): void {
  const line = JSON.stringify({ ts: new Date().toISOString(), level, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}
