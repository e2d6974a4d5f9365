// What the delivery log says about a failed attempt: a coarse class, never the raw error. The raw text of
// a socket error (`connect ECONNREFUSED 10.0.0.5:6379`) told anyone with a test key which internal hosts
// and ports answer (issue 14, item 2); a class says what the merchant can act on and nothing about the
// host's network. Pure: no I/O.

export const DELIVERY_ERROR_CLASSES = [
  "timeout", // no answer within WEBHOOK_TIMEOUT_MS (or the connection timed out)
  "connection_refused", // nothing listens there
  "connection_reset", // the connection was cut before an answer
  "tls_error", // certificate or TLS handshake failure
  "dns_error", // the name does not resolve
  "blocked_address", // the address policy refused to connect (loopback, private, link-local, reserved)
  "http_error", // the endpoint answered, but not 2xx (`responseStatus` has the status; redirects are not followed)
  "connection_error", // any other network failure
  "endpoint_disabled", // the endpoint was disabled after the attempt was queued
  "internal_error", // the attempt could not be prepared (details in the service's log)
] as const;
export type DeliveryErrorClass = (typeof DELIVERY_ERROR_CLASSES)[number];

/** The message request-filtering-agent fails a connection with (it sets no error code). */
const BLOCKED = /is not allowed\. Because/;
/** undici's time-outs: connecting, the answer's headers, its body. */
const UNDICI_TIMEOUT = /^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/;
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH$)/;
const DNS_CODE = /^(ENOTFOUND|EAI_\w+|ENODATA|ESERVFAIL|EREFUSED|ENONAME|EBADNAME)$/;

/** The class of an error a send failed with (node:http's or undici's). */
export function classifySendError(err: unknown): DeliveryErrorClass {
  const code =
    typeof err === "object" && err !== null && typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "";
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ERR_BLOCKED_ADDRESS" || BLOCKED.test(message)) return "blocked_address";
  if (code === "ECONNREFUSED") return "connection_refused";
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT" || UNDICI_TIMEOUT.test(code)) return "timeout";
  if (DNS_CODE.test(code)) return "dns_error";
  if (TLS_CODE.test(code)) return "tls_error";
  if (code === "ECONNRESET" || code === "EPIPE" || code === "ECONNABORTED" || code === "UND_ERR_SOCKET" || /socket hang up/.test(message))
    return "connection_reset";
  return "connection_error";
}

function isClass(value: string): value is DeliveryErrorClass {
  return (DELIVERY_ERROR_CLASSES as readonly string[]).includes(value);
}

/**
 * The stored error of an attempt as merchants see it (API, dashboard). Attempts logged before classes
 * were stored carry raw text: it is mapped to its class here, so no raw message is ever shown.
 */
export function publicDeliveryError(stored: string | null): DeliveryErrorClass | null {
  if (stored === null) return null;
  if (isClass(stored)) return stored;
  if (/^endpoint answered \d+/.test(stored)) return "http_error";
  if (/no answer within/.test(stored)) return "timeout";
  if (BLOCKED.test(stored)) return "blocked_address";
  if (/ECONNREFUSED/.test(stored)) return "connection_refused";
  if (/ECONNRESET|EPIPE|socket hang up/.test(stored)) return "connection_reset";
  if (/ENOTFOUND|EAI_|getaddrinfo/.test(stored)) return "dns_error";
  if (/certificate|SSL|TLS|EPROTO|self[- ]signed/i.test(stored)) return "tls_error";
  if (stored === "endpoint disabled") return "endpoint_disabled";
  return "connection_error";
}
