// Webhook signatures (docs/webhooks.md; Stripe's scheme, so Stripe's own verifier accepts them):
//   x-service-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]   hex = HMAC-SHA256(secret, `${t}.${rawBody}`)
// Two v1 entries appear during a secret rotation; a receiver accepts the delivery when ANY v1 matches ANY
// of its secrets. The service signs deliveries with signWebhookPayload(), the merchant verifies with
// verifyWebhook().
import { createHmac, timingSafeEqual } from "node:crypto";
import { ServiceError } from "./errors";
import type { EventType } from "./types";

export const SIGNATURE_HEADER = "x-service-signature";
export const EVENT_ID_HEADER = "x-service-event-id";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type RawBody = string | Uint8Array;

/** A delivery's body (docs/webhooks.md): `created` is in unix seconds. */
export interface WebhookEvent<D = { object: unknown; [field: string]: unknown }> {
  id: string;
  type: EventType | (string & {});
  data: D;
  created: number;
  livemode: boolean;
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the header's `t` and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time (unix seconds, or a Date); defaults to the clock. For tests. */
  now?: number | Date;
}

/** HMAC-SHA256 of `${timestamp}.${rawBody}` as lower-case hex. */
export function computeSignature(secret: string, rawBody: RawBody, timestamp: number): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${timestamp}.`, "utf8");
  hmac.update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody);
  return hmac.digest("hex");
}

/**
 * The `x-service-signature` value for a body: `t=<timestamp>,v1=<hex>` with one `v1` per secret (the
 * service passes the new and the old secret during a rotation). `timestamp` is unix seconds.
 */
export function signWebhookPayload(secrets: string | readonly string[], rawBody: RawBody, timestamp: number): string {
  const list = secretList(secrets, "signWebhookPayload");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new TypeError("signWebhookPayload: timestamp must be a non-negative integer of unix seconds.");
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${computeSignature(secret, rawBody, timestamp)}`)].join(",");
}

/** A valid header for a test payload (Stripe's generateTestHeaderString). `timestamp` defaults to now. */
export function generateTestHeader(options: { payload: RawBody; secret: string | readonly string[]; timestamp?: number }): string {
  return signWebhookPayload(options.secret, options.payload, options.timestamp ?? Math.floor(Date.now() / 1000));
}

/**
 * Verifies a delivery and returns its parsed event. Pass the RAW body exactly as received (not a re-serialised
 * object), the `x-service-signature` header, and your secret(s). Throws ServiceError with code
 * `signature_verification_failed` (status 400) when the header is missing or malformed, no v1 matches, or
 * the timestamp is outside the tolerance.
 */
export function verifyWebhook<D = WebhookEvent["data"]>(
  rawBody: RawBody,
  header: string | readonly string[] | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent<D> {
  verifySignedPayload(rawBody, header, secrets, options, "verifyWebhook");
  const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
  try {
    return JSON.parse(text) as WebhookEvent<D>;
  } catch {
    throw new ServiceError({ code: "invalid_payload", status: 400, message: "The webhook body is signed but is not valid JSON." });
  }
}

/**
 * Checks a `t=,v1=` header against a signed payload (a webhook body, or a forwarded request's signed string) and
 * returns its timestamp: some v1 matches some secret, in constant time, and `t` is within the tolerance.
 */
export function verifySignedPayload(
  payload: RawBody,
  header: string | readonly string[] | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
  caller = "verifySignedPayload",
): number {
  const list = secretList(secrets, caller);
  if (typeof payload !== "string" && !(payload instanceof Uint8Array)) {
    throw verificationFailure("The body must be the raw request body (string or Buffer), not a parsed object.");
  }
  const { timestamp, signatures } = parseSignatureHeader(Array.isArray(header) ? header.join(",") : (header as string | null | undefined));

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now;
  if (Math.abs(now - timestamp) > tolerance)
    throw verificationFailure("The signature's timestamp is outside the tolerance zone.", { timestamp, toleranceSeconds: tolerance });

  const candidates = signatures.map((hex) => Buffer.from(hex, "hex"));
  let matched = false;
  for (const secret of list) {
    const expected = Buffer.from(computeSignature(secret, payload, timestamp), "hex");
    // No early exit: every comparison runs, each in constant time.
    for (const candidate of candidates) if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) throw verificationFailure("No signature matches the expected signature for the payload.");
  return timestamp;
}

/** `t=..,v1=..,v1=..` -> timestamp and the v1 signatures (other schemes such as v0 are ignored). */
export function parseSignatureHeader(header: string | null | undefined): { timestamp: number; signatures: string[] } {
  if (typeof header !== "string" || header.trim() === "") throw verificationFailure(`Missing ${SIGNATURE_HEADER} header.`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined) throw verificationFailure("Unable to extract a timestamp from the signature header.");
  if (signatures.length === 0) throw verificationFailure("No v1 signature found in the signature header.");
  return { timestamp, signatures };
}

function secretList(secrets: string | readonly string[], fn: string): string[] {
  const list = (typeof secrets === "string" ? [secrets] : [...(secrets ?? [])]).filter((s) => typeof s === "string" && s.length > 0);
  if (list.length === 0) throw new TypeError(`${fn}: at least one non-empty signing secret is required.`);
  return list;
}

export function verificationFailure(message: string, details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError({ code: "signature_verification_failed", status: 400, message, details });
}
