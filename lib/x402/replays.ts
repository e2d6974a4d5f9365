// An x402 payment sent again (docs/x402.md "Lost answers"): the facilitator, a hosted resource and the A2A merchant
// agent answer the same payload with its first result instead of refusing it as used, so that a client whose answer
// was lost never pays twice. Only ever for the very payment: the same merchant and mode, the exact payload (its hash,
// signature included), the same sale (resource, source, A2A task), within PAID_REPLAY_WINDOW_SECONDS. The
// `payment-identifier` extension (@x402/extensions) names a payment too: the same id with another payload is refused.
import { createHash } from "node:crypto";
import { extractAndValidatePaymentIdentifier } from "@x402/extensions/payment-identifier";
import { canonicalJson } from "../canonical-json";
import { sqlIn, statement, type Db } from "../db";
import type { PaymentIntent } from "../generated/prisma/client";
import { findPaymentIntent } from "../payments/find-payment-intent";
import type { Scope } from "../scope";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";

export const PAYMENT_IDENTIFIER_CONFLICT = "payment_identifier_conflict";

/** What identifies the exact payment sent: its payload's hash, and the client's payment-identifier if any. */
export interface PaymentIdentity {
  payloadHash: string;
  paymentIdentifier: string | null;
  /** What the authorization moves (atomic units): compared instead of the hash for a claim made before hashes were kept. */
  value: string;
}

/** The hash of a payload as sent (canonical JSON: the same payload re-encoded is the same payment). */
export function payloadHashOf(paymentPayload: unknown): string {
  return createHash("sha256").update(canonicalPayload(paymentPayload)).digest("hex");
}

/** A payload's canonical JSON, made once per decoded payload (a hosted resource's fingerprint and its claim's hash). */
const canonicalTexts = new WeakMap<object, string>();

export function canonicalPayload(paymentPayload: unknown): string {
  if (paymentPayload === null || typeof paymentPayload !== "object") return canonicalJson(paymentPayload);
  let text = canonicalTexts.get(paymentPayload);
  if (text === undefined) canonicalTexts.set(paymentPayload, (text = canonicalJson(paymentPayload)));
  return text;
}

/** The payment's identity, or why its payment-identifier is malformed (16-128 of [A-Za-z0-9_-]). */
export function identityOf(
  paymentPayload: unknown,
  payment: VerifiedPayment,
): { ok: true; identity: PaymentIdentity } | { ok: false; message: string } {
  const payloadHash = payloadHashOf(paymentPayload);
  const value = payment.authorization.value;
  const extensions = (paymentPayload as { extensions?: Record<string, unknown> } | null)?.extensions;
  if (!extensions || typeof extensions !== "object" || !("payment-identifier" in extensions))
    return { ok: true, identity: { payloadHash, paymentIdentifier: null, value } };
  // Checked against the extension as we declare it, without the `schema` the client echoes: the library would
  // compile that schema with a new Ajv on every request (about 10 ms of CPU each, and a client could choose the work).
  const extension = (extensions as Record<string, unknown>)["payment-identifier"];
  const info = extension && typeof extension === "object" ? (extension as { info?: unknown }).info : undefined;
  const { id, validation } = extractAndValidatePaymentIdentifier({ extensions: { "payment-identifier": { info } } } as never);
  if (!validation.valid)
    return { ok: false, message: `The payment-identifier extension is invalid: ${(validation.errors ?? []).join("; ")}` };
  return { ok: true, identity: { payloadHash, paymentIdentifier: id, value } };
}

/** The same payment-identifier was used with another payment: refused, nothing moved (409 where the path has statuses). */
export function identifierConflict(payment: VerifiedPayment): RefusedPayment {
  return {
    ok: false,
    reason: PAYMENT_IDENTIFIER_CONFLICT,
    message: "This payment-identifier was already used with a different payment; nothing was charged.",
    networkName: payment.networkName,
    payer: payment.payer,
  };
}

/** The sale a replay must be of: the hosted resource, the source, and (A2A) whether the PaymentIntent paid this task. */
export interface ReplaySale {
  paidResourceId?: string;
  source?: "x402" | "a2a" | "mpp";
  paidBy?: (paymentIntentId: string) => Promise<boolean>;
}

/** An authorization's claim as a replay reads it. */
export interface ClaimOfPayment {
  merchantId: string;
  livemode: boolean;
  value: string;
  paymentIntentId: string | null;
  payloadHash: string | null;
  paymentIdentifier: string | null;
  /** Claimed within PAID_REPLAY_WINDOW_SECONDS. */
  recent: boolean;
}

/**
 * The PaymentIntent this payment made, when the claim answers it again (same merchant and mode, exact payload, same
 * sale, recent); null when it is another payment's claim (refused as used), or `conflict` for a payment-identifier reused.
 */
export async function replayedPayment(
  db: Db,
  claim: ClaimOfPayment,
  merchant: Scope,
  identity: PaymentIdentity,
  sale: ReplaySale,
): Promise<PaymentIntent | "conflict" | null> {
  if (claim.merchantId !== merchant.merchantId || claim.livemode !== merchant.livemode) return null; // another's: used, no more said
  // A claim made before payload hashes were kept (a live payment pending across the upgrade): its value is compared.
  const samePayload = claim.payloadHash === null ? claim.value === identity.value : claim.payloadHash === identity.payloadHash;
  if (!samePayload)
    return identity.paymentIdentifier !== null && claim.paymentIdentifier === identity.paymentIdentifier ? "conflict" : null;
  if (!claim.recent || !claim.paymentIntentId) return null;
  const pi = await findPaymentIntent(db, claim.paymentIntentId);
  if (!pi || pi.paidResourceId !== (sale.paidResourceId ?? null) || pi.source !== (sale.source ?? "x402")) return null;
  if (sale.paidBy && !(await sale.paidBy(pi.id))) return null;
  return pi;
}

const IDENTIFIER_TAKEN = statement(
  "x402_identifier_taken",
  "SELECT 1 AS one FROM x402_authorizations WHERE merchant_id = $1 AND livemode = $2 AND payment_identifier = $3",
);

/** Whether this merchant's mode has another authorization claimed with the payment-identifier. */
export async function identifierTaken(db: Db, merchant: Scope, paymentIdentifier: string | null): Promise<boolean> {
  if (paymentIdentifier === null) return false;
  const rows = await sqlIn(db).rows(IDENTIFIER_TAKEN, [merchant.merchantId, merchant.livemode, paymentIdentifier]);
  return rows.length > 0;
}
