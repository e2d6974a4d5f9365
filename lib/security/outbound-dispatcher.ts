// undici connection pools for the webhook sender (lib/webhooks/send-delivery.ts): keep-alive, one request
// at a time per connection (no pipelining: a slow answer never holds back another delivery), and unless
// private addresses are allowed (WEBHOOK_ALLOW_PRIVATE_URLS), a connector that refuses non-public addresses
// whatever DNS says now: an IP literal is checked before connecting, a name at every lookup, against
// address-policy.ts's rule (the one endpoint URLs are checked with). node:http's request machinery was the
// largest share of the sender's CPU (docs/BENCHMARKS.md, "Webhook sender").
import dns from "node:dns";
import net from "node:net";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { isForbiddenAddress } from "./address-policy";

/** The error a refused connection fails with (delivery-errors.ts classes it as blocked_address). */
export class BlockedAddressError extends Error {
  readonly code = "ERR_BLOCKED_ADDRESS";
  constructor() {
    super("the address policy refused to connect to a non-public address");
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that fails with BlockedAddressError when any address it finds is not public. */
function filteredLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options }, (err, address: string | dns.LookupAddress[], family?: number) => {
    if (err) return callback(err, address);
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    if (addresses.some(isForbiddenAddress)) return callback(new BlockedAddressError(), address);
    callback(null, address, family);
  });
}

function filteredConnector(timeout: number): buildConnector.connector {
  const connect = buildConnector({ lookup: filteredLookup, timeout } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, "");
    // An IP literal is connected to without a lookup: checked here.
    if (net.isIP(host) !== 0 && isForbiddenAddress(host)) return void callback(new BlockedAddressError(), null);
    return connect(options, callback);
  };
}

/** The two pools (open, filtered); the function picks the one for the address policy. */
export function outboundDispatchers(connectTimeoutMs: number): (allowPrivate: boolean) => Dispatcher {
  const options = { connections: 256, pipelining: 1, keepAliveTimeout: 10_000 };
  const open = new Agent({ ...options, connect: { timeout: connectTimeoutMs } });
  const filtered = new Agent({ ...options, connect: filteredConnector(connectTimeoutMs) });
  return (allowPrivate) => (allowPrivate ? open : filtered);
}
