// The AP2 mandates an order was paid with (docs/a2a.md), for its dashboard page: the CartMandate the merchant
// signed and the PaymentMandate that paid it, scoped like every read (another merchant's or mode's: none).
import { decodeProtectedHeader } from "jose";
import type { Db } from "../db";
import type { Scope } from "../scope";

export interface OrderMandates {
  jti: string;
  cartId: string;
  cartHash: string;
  kid: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  tokenId: string | null;
  paymentMandateId: string | null;
  cartMandate: { contents: unknown; merchant_authorization: string };
  paymentMandate: unknown;
}

export async function orderMandates(db: Db, scope: Scope, orderId: string): Promise<OrderMandates | null> {
  const row = await db.ap2Mandate.findFirst({ where: { orderId, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!row) return null;
  const cartMandate = row.cartMandate as OrderMandates["cartMandate"];
  let kid: string | null = null;
  try {
    kid = decodeProtectedHeader(cartMandate.merchant_authorization).kid ?? null;
  } catch {
    kid = null;
  }
  return {
    jti: row.jti,
    cartId: row.cartId,
    cartHash: row.cartHash,
    kid,
    expiresAt: row.expiresAt,
    usedAt: row.usedAt,
    tokenId: row.tokenId,
    paymentMandateId: row.paymentMandateId,
    cartMandate,
    paymentMandate: row.paymentMandate,
  };
}
