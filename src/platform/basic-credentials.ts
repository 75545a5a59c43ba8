/** RFC 6749 2.3.1: client_secret_basic, with URL-encoded id and secret. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | null | "malformed" {
  if (!header?.toLowerCase().startsWith("basic ")) return null;
  try {
    const decoded = atob(header.slice(6).trim());
    const colon = decoded.indexOf(":");
    if (colon < 0) return "malformed";
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}
