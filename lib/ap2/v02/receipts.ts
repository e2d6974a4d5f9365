// AP2 v0.2's Checkout and Payment Receipts (the AP2 specification's checkout_receipt and payment_receipt schemas):
// JWTs the merchant's AP2 key signs, whose `reference` is the hash of the closed mandate they answer (the final
// SD-JWT of its chain, as sd_hash is computed). A payment that succeeds answers both with status "Success"; one
// that is refused answers both with status "Error", `error` (AP2's error code) and `error_description`, as the
// specification's verification rules require ("If any step fails, ... MUST return a ... Receipt JWT containing
// the appropriate error"), so the buyer's agent holds a signed rejection of the mandates it presented.
import { SignJWT } from "jose";
import type { Db } from "../../db";
import { DomainError, type ErrorCode } from "../../errors";
import { activeSigningKey, ALG } from "../keys";
import { ap2Audience } from "./checkout";
import { hashOf } from "./sd-jwt-chain";

export interface Ap2Receipts {
  checkout_receipt: string;
  payment_receipt: string;
}

async function signReceipt(tx: Db, merchantId: string, claims: Record<string, unknown>): Promise<string> {
  const key = await activeSigningKey(tx, merchantId);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(ap2Audience(merchantId))
    .setIssuedAt()
    .sign(key.privateKey);
}

/** The `reference` of a chain as presented: the hash of its final SD-JWT (the whole text when it is not a chain). */
export function referenceOf(chain: string): string {
  const cut = chain.lastIndexOf("~~");
  return hashOf(cut < 0 ? chain : chain.slice(cut + 2));
}

export async function successReceipts(
  tx: Db,
  merchantId: string,
  refs: { checkout: string; payment: string },
  pi: { id: string; orderId: string | null },
): Promise<Ap2Receipts> {
  const [checkoutReceipt, paymentReceipt] = await Promise.all([
    signReceipt(tx, merchantId, { status: "Success", reference: refs.checkout, order_id: pi.orderId }),
    signReceipt(tx, merchantId, {
      status: "Success",
      reference: refs.payment,
      payment_id: pi.id,
      psp_confirmation_id: pi.id,
      network_confirmation_id: pi.id,
    }),
  ]);
  return { checkout_receipt: checkoutReceipt, payment_receipt: paymentReceipt };
}

/** AP2's error code of a refusal: the one the verification named, else invalid_mandate (the mandate pays nothing). */
function errorCodeOf(err: DomainError): string {
  return typeof err.details.ap2_error === "string" ? err.details.ap2_error : "invalid_mandate";
}

/**
 * Both receipts of a refused payment, status "Error". `payment_id` is required by the schema and names no payment
 * here (nothing was charged): it is the empty string.
 */
export async function errorReceipts(
  tx: Db,
  merchantId: string,
  presented: { checkout_mandate: string; payment_mandate: string },
  err: DomainError,
): Promise<Ap2Receipts> {
  const error = { error: errorCodeOf(err), error_description: err.message };
  const [checkoutReceipt, paymentReceipt] = await Promise.all([
    signReceipt(tx, merchantId, { status: "Error", reference: referenceOf(presented.checkout_mandate), ...error }),
    signReceipt(tx, merchantId, { status: "Error", reference: referenceOf(presented.payment_mandate), payment_id: "", ...error }),
  ]);
  return { checkout_receipt: checkoutReceipt, payment_receipt: paymentReceipt };
}

/** The terminal refusals of a payment (mandates refused, charge declined, token unusable): not a retryable busy or limit. */
const REFUSALS = new Set<ErrorCode>(["PAYMENT_DECLINED", "VALIDATION_ERROR", "FORBIDDEN", "GONE", "SANCTIONS_BLOCKED"]);

/**
 * Both Error receipts for mandates presented earlier and known by their references (a payment that waited for the
 * payer's approval and was declined or expired: docs/approvals.md "A2A and AP2"); nothing was charged.
 */
export async function errorReceiptsOfRefs(
  tx: Db,
  merchantId: string,
  refs: { checkout: string; payment: string },
  error: { code: string; description: string },
): Promise<Ap2Receipts> {
  const claims = { status: "Error", error: error.code, error_description: error.description };
  const [checkoutReceipt, paymentReceipt] = await Promise.all([
    signReceipt(tx, merchantId, { ...claims, reference: refs.checkout }),
    signReceipt(tx, merchantId, { ...claims, reference: refs.payment, payment_id: "" }),
  ]);
  return { checkout_receipt: checkoutReceipt, payment_receipt: paymentReceipt };
}

/**
 * A refusal with its signed error receipts in its details (the same status, message and commit rule). When they
 * cannot be signed (the transaction failed under it), the refusal goes out as it was.
 */
export async function refusalWithReceipts(
  tx: Db,
  merchantId: string,
  presented: { checkout_mandate: string; payment_mandate: string },
  err: unknown,
): Promise<unknown> {
  if (!(err instanceof DomainError) || !REFUSALS.has(err.code)) return err;
  try {
    const receipts = await errorReceipts(tx, merchantId, presented, err);
    return new DomainError(err.code, err.message, { ...err.details, ...receipts }, err.commitsState);
  } catch {
    return err;
  }
}
