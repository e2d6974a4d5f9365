// POST /v1/paywall/redemptions { paymentIntentId }: the service-backed consumed store (docs/sdk.md "Consumed stores").
// One statement (redemption-statement.ts) says whether the PaymentIntent is the merchant's at all, inserts
// the redemption for exactly one request however many race, and recognises a retry of the winning request
// (same key, same Idempotency-Key, e.g. after its response was lost): that one is answered `redeemed: true`
// again; anyone else gets already_redeemed. With terms, see redeem-verified-payment.ts.
import type { Sql } from "../db";
import { NotFoundError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { requestDigest } from "../idempotency/request-key";
import { redemptionStatement, wonRedemption, type RedemptionOutcome } from "./redemption-statement";
import type { RedeemPaymentInput } from "./schemas";

export type RedeemResult = { redeemed: true } | { redeemed: false; result: "already_redeemed" };

const REDEEM = redemptionStatement("paywall_redeem", "id");

export async function redeemPayment(
  db: Sql,
  principal: Scope & { apiKeyId: string },
  input: RedeemPaymentInput,
  idempotencyKey: string | null,
): Promise<RedeemResult> {
  const pi = input.paymentIntentId;
  if (!pi.startsWith("pi_")) throw new NotFoundError("payment_intent", pi);
  const digest = requestDigest(principal.apiKeyId, idempotencyKey);
  const [row] = await db.rows<RedemptionOutcome & { id: string | null }>(REDEEM, [
    pi,
    principal.merchantId,
    principal.livemode,
    createId("paywallRedemption"),
    digest,
  ]);
  if (row.id === null) throw new NotFoundError("payment_intent", pi);
  return (await wonRedemption(db, principal, pi, row, digest)) ? { redeemed: true } : { redeemed: false, result: "already_redeemed" };
}
