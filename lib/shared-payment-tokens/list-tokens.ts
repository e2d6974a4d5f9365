// The payer's own tokens (GET /v1/shared_payment_tokens[/:id]); another merchant's or mode's is 404.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListTokensInput, TokenStatus } from "./schemas";
import { serializeToken } from "./serialize";

export async function getToken(db: Db, payer: Scope, id: string) {
  const token = await db.sharedPaymentToken.findFirst({ where: { id, payerMerchantId: payer.merchantId, livemode: payer.livemode } });
  if (!token) throw new NotFoundError("shared_payment_token", id);
  return serializeToken(token);
}

export async function listTokens(db: Db, payer: Scope, query: ListTokensInput) {
  return listNewestFirst(
    db.sharedPaymentToken,
    { scope: { payerMerchantId: payer.merchantId, livemode: payer.livemode }, filters: statusWhere(query.status) },
    query,
    serializeToken,
  );
}

function statusWhere(status: TokenStatus | undefined): Prisma.SharedPaymentTokenWhereInput {
  const now = new Date();
  if (status === "active") return { status: "active", expiresAt: { gt: now } };
  if (status === "expired") return { status: "active", expiresAt: { lte: now } };
  return status ? { status } : {};
}
