// Locks a token row for the rest of the transaction: redemptions and revokes of one token run one at a
// time, in every process, so the first redemption is the only one.
import type { Db } from "../db";
import { BusyError, NotFoundError } from "../errors";
import type { SharedPaymentToken } from "../generated/prisma/client";

/**
 * The token of this mode (and of this payer, when `payerMerchantId` is given); else 404. `wait: false`
 * (redemptions) does not queue behind a redemption in progress: it answers 409 `token_in_use` at once, so a
 * burst of redemptions of one token never holds a database connection each while the first one charges.
 */
export async function lockToken(
  tx: Db,
  id: string,
  livemode: boolean,
  options: { payerMerchantId?: string; wait?: boolean } = {},
): Promise<SharedPaymentToken> {
  const rows =
    options.wait === false
      ? await tx.$queryRaw<
          { id: string }[]
        >`SELECT id FROM shared_payment_tokens WHERE id = ${id} AND livemode = ${livemode} FOR UPDATE SKIP LOCKED`
      : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM shared_payment_tokens WHERE id = ${id} AND livemode = ${livemode} FOR UPDATE`;
  const token = rows[0]
    ? await tx.sharedPaymentToken.findUniqueOrThrow({ where: { id } })
    : await busyOrMissing(tx, id, livemode, options.wait === false);
  if (!token || (options.payerMerchantId !== undefined && token.payerMerchantId !== options.payerMerchantId))
    throw new NotFoundError("shared_payment_token", id);
  return token;
}

async function busyOrMissing(tx: Db, id: string, livemode: boolean, skipped: boolean): Promise<null> {
  if (skipped && (await tx.sharedPaymentToken.count({ where: { id, livemode } }))) {
    throw new BusyError(`Shared payment token ${id} is being redeemed by another request; retry shortly.`, { reason: "token_in_use" });
  }
  return null;
}
