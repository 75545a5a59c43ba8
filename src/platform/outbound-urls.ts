/**
 * Which URLs may receive what Medparts sends: webhooks, and the cXML documents of procurement connections (docs/security.md). Production: https to a public host name or address on the default
 * port, never a special-purpose address nor a name that only resolves inside a network. With ALLOW_LOCAL_WEBHOOKS
 * (local development only) http://localhost, 127.0.0.1 and [::1] are allowed too. Credentials are refused in every
 * mode: they would be stored and listed back. A Worker's fetch cannot reach Cloudflare-internal or private networks in
 * any case; this check is what the API promises up front. The host is judged as the WHATWG URL parser (the one fetch
 * uses) normalizes it: `0x7f.1` is 127.0.0.1, `[::127.0.0.1]` is [::7f00:1], `localhost%2e` is `localhost.`.
 */

/**
 * Blocks no webhook is sent to. Every entry of the IANA IPv4 and IPv6 Special-Purpose Address Registries, whatever its
 * "globally reachable" column: no receiver lives at one, and the blocks that embed an IPv4 address (IPv4-mapped,
 * NAT64, 6to4, Teredo) are refused whole rather than judged by the address inside. Then, from the IANA address space
 * registries: multicast, the deprecated IPv4-compatible and site-local blocks, and all IPv6 outside 2000::/3, the only
 * space allocated for global unicast. The first block that holds the address names the refusal.
 */
const SPECIAL_PURPOSE_BLOCKS: readonly (readonly [block: string, name: string])[] = [
  // IANA IPv4 Special-Purpose Address Registry
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private use"],
  ["100.64.0.0/10", "shared address space"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private use"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "6to4 relay anycast"],
  ["192.168.0.0/16", "private use"],
  ["192.175.48.0/24", "AS112 direct delegation"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "documentation (TEST-NET-3)"],
  ["255.255.255.255/32", "limited broadcast"],
  ["240.0.0.0/4", "reserved"],
  // IANA IPv4 Multicast Address Space Registry
  ["224.0.0.0/4", "multicast"],
  // IANA IPv6 Special-Purpose Address Registry
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["64:ff9b::/96", "IPv4/IPv6 translation (NAT64)"],
  ["64:ff9b:1::/48", "IPv4/IPv6 translation, local use"],
  ["100::/64", "discard-only"],
  ["100:0:0:1::/64", "dummy prefix"],
  ["2001::/32", "Teredo"],
  ["2001::/23", "IETF protocol assignments"],
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "6to4"],
  ["2620:4f:8000::/48", "AS112 direct delegation"],
  ["3fff::/20", "documentation"],
  ["5f00::/16", "segment routing (SRv6) SIDs"],
  ["fc00::/7", "unique local"],
  ["fe80::/10", "link-local"],
  // IANA IPv6 Address Space Registry
  ["::/96", "IPv4-compatible (deprecated)"],
  ["fec0::/10", "site-local (deprecated)"],
  ["ff00::/8", "multicast"],
  ["::/3", "not global unicast"],
  ["4000::/2", "not global unicast"],
  ["8000::/1", "not global unicast"],
];

/**
 * Top-level names that never lead to a public receiver: those of the IANA Special-Use Domain Names registry (arpa holds
 * home.arpa and the reverse zones), ICANN's private-use `internal`, and names common inside networks. example.com, .net
 * and .org are not among them: ordinary public names, reserved for documentation (RFC 6761 6.5).
 */
const NON_PUBLIC_TOP_LEVEL_NAMES = new Set([
  "localhost",
  "local",
  "test",
  "example",
  "invalid",
  "onion",
  "alt",
  "arpa",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "localdomain",
]);

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A dotted-quad IPv4 address (the form the URL parser leaves) as 4 bytes; null if the text is not one. */
function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/** An IPv6 address, compressed or not, with or without an IPv4 tail (`::ffff:1.2.3.4`), as 16 bytes; null if not one. */
function parseIPv6(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parsed = halves.map((half, i) => {
    const groups = half === "" ? [] : half.split(":");
    const tail = i === halves.length - 1 && groups.at(-1)?.includes(".") ? parseIPv4(groups.pop()!) : [];
    if (tail === null || !groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
    return [...groups.flatMap((g) => [Number.parseInt(g, 16) >> 8, Number.parseInt(g, 16) & 0xff]), ...tail];
  });
  const [head, rest] = parsed;
  if (!head || rest === null) return null;
  if (rest === undefined) return head.length === 16 ? head : null;
  const gap = 16 - head.length - rest.length; // "::" stands for at least one group of zeros
  return gap >= 2 ? [...head, ...new Array<number>(gap).fill(0), ...rest] : null;
}

const parseAddress = (text: string) => (text.includes(":") ? parseIPv6(text) : parseIPv4(text));

const BLOCKS = SPECIAL_PURPOSE_BLOCKS.map(([block, name]) => {
  const [address, length] = block.split("/");
  const bytes = parseAddress(address!);
  if (!bytes) throw new Error(`unparsable block ${block}`);
  return { block, name, bytes, length: Number(length) };
});

function inBlock(address: number[], block: (typeof BLOCKS)[number]): boolean {
  if (address.length !== block.bytes.length) return false;
  for (let bit = 0; bit < block.length; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, block.length - bit))) & 0xff;
    if ((address[bit / 8]! & mask) !== (block.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** What is wrong with the URL's host (as the URL parser normalized it), or null for a public one. */
function hostProblem(hostname: string): string | null {
  const bracketed = hostname.startsWith("[");
  const address = bracketed ? parseIPv6(hostname.slice(1, -1)) : parseIPv4(hostname);
  if (address) {
    const special = BLOCKS.find((block) => inBlock(address, block));
    return special ? `Must not point to a special-purpose address (${special.name}, ${special.block}).` : null;
  }
  // A trailing dot makes the name fully qualified, not another name: `localhost.` is localhost.
  const labels = (hostname.endsWith(".") ? hostname.slice(0, -1) : hostname).split(".");
  if (bracketed || labels.length < 2 || labels.includes("") || NON_PUBLIC_TOP_LEVEL_NAMES.has(labels.at(-1)!)) {
    return "Must name a public host.";
  }
  return null;
}

export function webhookUrlProblem(text: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Must be an absolute URL.";
  }
  if (url.username || url.password) return "Must not contain credentials.";
  const host = url.hostname.toLowerCase();
  if (allowLocal && LOCAL_HOSTS.has(host) && (url.protocol === "http:" || url.protocol === "https:")) return null;
  if (url.protocol !== "https:") return "Must be an https URL.";
  if (url.port && url.port !== "443") return "Must use the default https port.";
  return hostProblem(host);
}
