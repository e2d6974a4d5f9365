// The client address used for per-IP rate limits, and the bucket it keys.
//
// X-Forwarded-For is trusted only as server.mjs sets it: server.mjs appends the socket peer last to
// every request and marks the process (SERVED_BY_SERVER_MJS), and TRUSTED_PROXY_HOPS entries before the
// peer are proxies of ours. Served another way (`next start`, `next dev`, a platform), the header is
// whatever the client or the platform sent: then only the TRUSTED_PROXY_HOPS entries a proxy appended
// are used (the last one when 1), and with TRUSTED_PROXY_HOPS=0 the header is ignored and every client
// shares one bucket, with a warning in the log (a client must never pick its own bucket).
//
// Buckets key on an IPv4 address, or on an IPv6 address's /64 (one subscriber's network: an attacker
// holding a /64 has 2^64 addresses, not 2^64 buckets). IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4.
import { isIPv4, isIPv6 } from "node:net";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

/** Set by server.mjs before Next starts: every request's X-Forwarded-For ends with the socket peer. */
export const SERVED_BY_SERVER_MJS = Symbol.for("aps.server-mjs.peer-in-x-forwarded-for");

function servedByServerMjs(): boolean {
  return (globalThis as unknown as Record<symbol, boolean | undefined>)[SERVED_BY_SERVER_MJS] === true;
}

function warnOnce(): void {
  const once = globalSingleton("http.client-ip-warning", () => ({ warned: false }));
  if (once.warned) return;
  once.warned = true;
  console.warn(
    env.TRUSTED_PROXY_HOPS === 0
      ? "client-ip: not served by server.mjs, so X-Forwarded-For may come from the client: it is ignored and all clients share one per-IP bucket. Serve with `npm start` (server.mjs), or set TRUSTED_PROXY_HOPS to the proxies that set the header."
      : `client-ip: not served by server.mjs: trusting the last ${env.TRUSTED_PROXY_HOPS} X-Forwarded-For entries as TRUSTED_PROXY_HOPS says.`,
  );
}

/** The client's address as far as it can be trusted ("unknown" when it cannot be). */
export function clientIp(req: Request): string {
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const hops = env.TRUSTED_PROXY_HOPS;
  if (servedByServerMjs()) {
    // The socket peer is the last entry; each trusted proxy added one before it. Fewer entries than that:
    // every entry was added by us or a trusted proxy, and the first is the furthest known.
    return forwarded[forwarded.length - 1 - hops] ?? forwarded[0] ?? "unknown";
  }
  warnOnce();
  if (hops === 0) return "unknown";
  return forwarded[forwarded.length - hops] ?? forwarded[0] ?? "unknown";
}

/** The per-IP bucket's name for a request: its client's IPv4 address or IPv6 /64. */
export function clientIpKey(req: Request): string {
  return ipBucketKey(clientIp(req));
}

/** An IPv4 address as it is; an IPv6 address as its /64 (`2001:db8:1:2::/64`); anything else as sent (at most 64 characters). */
export function ipBucketKey(address: string): string {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return address.slice(0, 64);
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const parse = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  if (tail === null) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
