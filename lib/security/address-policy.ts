// SSRF guard for webhook URLs, in both modes (a sign-up gives anyone a test key): endpoints may not point
// at loopback, private, link-local (cloud metadata), reserved or other non-unicast addresses, unless
// WEBHOOK_ALLOW_PRIVATE_URLS (default: on only when BASE_URL is a loopback address, a local installation).
// Checked at creation and update (IP literals in any form the URL parser accepts, and names resolving to
// them) and again at send time against the address actually connected to (see send-delivery.ts).
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { env } from "../env";
import { ValidationError } from "../errors";

export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() !== "unicast";
}

/** Whether endpoints (of either mode) may use non-public addresses on this installation. */
export function mayUsePrivateAddresses(): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE_URLS;
}

const FORBIDDEN = "resolves to a loopback, private, link-local or reserved address";

function refuse(message: string): never {
  throw new ValidationError(message, [{ path: "url", message }]);
}

/** Parses and checks an endpoint URL; returns its normalized form. Paid resources pass their own switch. */
export async function checkWebhookUrl(raw: string, allowPrivate = mayUsePrivateAddresses()): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse("must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") refuse("must use http or https");
  if (url.username || url.password) refuse("must not contain credentials");
  if (allowPrivate) return url.href;

  // The WHATWG parser already turned decimal, hex and octal IPv4 forms into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) {
    if (isForbiddenAddress(host)) refuse(FORBIDDEN);
    return url.href;
  }
  let addresses: { address: string }[] = [];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    // Unresolvable now: accepted, and still checked against the real address at every send.
    return url.href;
  }
  if (addresses.some((entry) => isForbiddenAddress(entry.address))) refuse(FORBIDDEN);
  return url.href;
}
