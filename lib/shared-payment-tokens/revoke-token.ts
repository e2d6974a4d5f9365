// POST /v1/shared_payment_tokens/:id/revoke (the payer's key): the token can no longer pay. Under the row
// lock a redemption also takes, so a revoke and a redemption never both win. Revoking again is the same
// answer; a token that already paid cannot be revoked (409: refund the payment instead).
import type { Db } from "../db";
import { ConflictError } from "../errors";
import type { Scope } from "../scope";
import { lockToken } from "./lock-token";
import { serializeToken } from "./serialize";

export async function revokeToken(tx: Db, payer: Scope, id: string) {
  const token = await lockToken(tx, id, payer.livemode, { payerMerchantId: payer.merchantId });
  if (token.status === "redeemed") {
    throw new ConflictError(`Shared payment token ${id} was already redeemed; refund its payment instead.`, {
      reason: "token_redeemed",
      status: "redeemed",
    });
  }
  if (token.status === "revoked") return serializeToken(token);
  const now = new Date();
  return serializeToken(await tx.sharedPaymentToken.update({ where: { id }, data: { status: "revoked", revokedAt: now, updatedAt: now } }));
}
