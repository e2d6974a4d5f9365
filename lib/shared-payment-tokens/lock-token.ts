// Locks a token for the rest of the transaction, its single-use lock (lib/single-use.ts) then its row: redemptions
// and revokes of one token run one at a time, in every process, so the first redemption is the only one. Both take
// the locks in that order, and an approval's charge (lib/shared-payment-tokens/await-approval.ts) only TRIES the
// first: a revoke, which declines the token's pending approval request after them, never deadlocks with it.
import type { Db } from "../db";
import { BusyError, NotFoundError } from "../errors";
import type { SharedPaymentToken } from "../generated/prisma/client";
import { lockSingleUse, waitForSingleUse } from "../single-use";

/**
 * The token of this mode (and of this payer, when `payerMerchantId` is given); else 404. `wait: false`
 * (redemptions) first tries the token's single-use lock (lib/single-use.ts) and does not queue behind a
 * redemption in progress: it answers 409 `token_in_use` at once, so a burst of redemptions of one token never
 * holds a database connection each while the first one charges. Otherwise (a revoke) it waits for the lock.
 */
export async function lockToken(
  tx: Db,
  id: string,
  livemode: boolean,
  options: { payerMerchantId?: string; wait?: boolean } = {},
): Promise<SharedPaymentToken> {
  const key = `${livemode ? "live" : "test"}:${id}`;
  if (options.wait !== false) await waitForSingleUse(tx, "spt", key);
  else if (!(await lockSingleUse(tx, "spt", key))) {
    await throwIfBusy(tx, id, livemode);
    throw new NotFoundError("shared_payment_token", id);
  }
  const rows = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM shared_payment_tokens WHERE id = ${id} AND livemode = ${livemode} FOR UPDATE`;
  const token = rows[0] ? await tx.sharedPaymentToken.findUniqueOrThrow({ where: { id } }) : null;
  if (!token || (options.payerMerchantId !== undefined && token.payerMerchantId !== options.payerMerchantId))
    throw new NotFoundError("shared_payment_token", id);
  return token;
}

/** A token another redemption holds: 409 token_in_use (an unknown one is the caller's 404). */
async function throwIfBusy(tx: Db, id: string, livemode: boolean): Promise<void> {
  if (await tx.sharedPaymentToken.count({ where: { id, livemode } })) {
    throw new BusyError(`Shared payment token ${id} is being redeemed by another request; retry shortly.`, { reason: "token_in_use" });
  }
}
