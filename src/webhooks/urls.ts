/**
 * Which URLs may receive webhooks (docs/security.md). Production: https to a public host name or address, never
 * loopback, private, link-local or other reserved addresses, nor names that only resolve inside a network. With
 * ALLOW_LOCAL_WEBHOOKS (local development only) http://localhost and 127.0.0.1 are allowed too. A Worker's fetch
 * cannot reach Cloudflare-internal or private networks in any case; this check is what the API promises up front.
 */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain)$/i;

function ipv4Reserved(host: string): boolean | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

function ipv6Reserved(host: string): boolean | null {
  if (!host.startsWith("[")) return null;
  const address = host.slice(1, -1).toLowerCase();
  if (address === "::" || address === "::1") return true;
  if (address.startsWith("::ffff:")) return true; // IPv4-mapped: judged as reserved rather than parsed
  return /^(fe[89ab]|fc|fd|ff)/.test(address);
}

export function webhookUrlProblem(text: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Must be an absolute URL.";
  }
  const host = url.hostname.toLowerCase();
  const local = host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  if (allowLocal && local && (url.protocol === "http:" || url.protocol === "https:")) return null;
  if (url.protocol !== "https:") return "Must be an https URL.";
  if (url.username || url.password) return "Must not contain credentials.";
  if (url.port && url.port !== "443") return "Must use the default https port.";
  const reserved = ipv4Reserved(host) ?? ipv6Reserved(host);
  if (reserved === true) return "Must not point to a loopback, private, link-local or reserved address.";
  if (reserved === null && (LOCAL_NAMES.test(host) || !host.includes("."))) return "Must name a public host.";
  return null;
}
