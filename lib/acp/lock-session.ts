// A checkout session of this merchant and mode, read (GET) or locked for the rest of the transaction (update,
// complete, cancel run one at a time per session, in every process); another merchant's or mode's is 404.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { AcpCheckoutSession } from "../generated/prisma/client";
import type { Scope } from "../scope";

export async function findSession(db: Db, scope: Scope, id: string): Promise<AcpCheckoutSession> {
  const session = await db.acpCheckoutSession.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!session) throw new NotFoundError("checkout session", id);
  return session;
}

export async function lockSession(tx: Db, scope: Scope, id: string): Promise<AcpCheckoutSession> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM acp_checkout_sessions WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("checkout session", id);
  return tx.acpCheckoutSession.findUniqueOrThrow({ where: { id } });
}
