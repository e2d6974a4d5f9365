// POST /v1/shared_payment_tokens/:id/revoke (the payer's key): the token can no longer pay. Under the token's
// single-use lock and row lock, which a redemption also takes, so a revoke and a redemption never both win. Revoking
// again is the same answer; a token that already paid cannot be revoked (409: refund the payment instead).
// A charge of the token that waits for the payer's approval (docs/approvals.md) can then never be paid: its request is
// declined in the same transaction (approval_request.declined, its checkout canceled, A2A tasks told), so approving it
// afterwards answers 409 approval_declined instead of failing on the revoked token while the request lingers.
import type { DecidedVia } from "../approvals/schemas";
import { claimDecision, pendingRequestOfToken } from "../approvals/store";
import type { Db } from "../db";
import { ConflictError } from "../errors";
import type { Scope } from "../scope";
import { endApproval } from "./await-approval";
import { lockToken } from "./lock-token";
import { serializeToken } from "./serialize";

export async function revokeToken(tx: Db, payer: Scope, id: string, via: Extract<DecidedVia, "api" | "dashboard">) {
  const token = await lockToken(tx, id, payer.livemode, { payerMerchantId: payer.merchantId });
  if (token.status === "redeemed") {
    throw new ConflictError(`Shared payment token ${id} was already redeemed; refund its payment instead.`, {
      reason: "token_redeemed",
      status: "redeemed",
    });
  }
  // Under the token's locks no request can be opened for it; the one found is declined by the decision's atomic UPDATE
  // (one past its deadline is left to the expiry sweep, as a decline would find it).
  const waiting = await pendingRequestOfToken(tx, id);
  const declined = waiting && (await claimDecision(tx, payer, waiting.id, "declined", via));
  if (declined) await endApproval(tx, declined, "declined");
  if (token.status === "revoked") return serializeToken(token);
  const now = new Date();
  return serializeToken(await tx.sharedPaymentToken.update({ where: { id }, data: { status: "revoked", revokedAt: now, updatedAt: now } }));
}
