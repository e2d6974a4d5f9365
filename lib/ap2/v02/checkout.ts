// AP2 v0.2 checkouts (docs/a2a.md "AP2 v0.2"): the merchant prices the buyer's items from its catalog and signs the
// Checkout as a JWT (ES256, its AP2 key: ECDSA is randomized, as AP2 requires of checkout_jwt), which the closed
// Checkout Mandate embeds and whose hash (checkout_hash, the Payment Mandate's transaction_id) binds the payment.
// The checkout row keeps the priced cart and a fresh nonce that both mandates' key bindings must carry; it is paid
// once (pay.ts).
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { z } from "zod";
import { priceCheckout } from "../../checkouts/price-items";
import type { OpenCheckoutInput } from "../../checkouts/schemas";
import type { Db } from "../../db";
import { NotFoundError } from "../../errors";
import { env } from "../../env";
import { randomBase62 } from "../../ids";
import type { Scope } from "../../scope";
import { activeSigningKey, ALG } from "../keys";
import { hashOf } from "./sd-jwt-chain";

export const CHECKOUT_TTL_SECONDS = 900;

/** The audience of v0.2 key bindings and the issuer of checkouts and receipts: this merchant's AP2 endpoint. */
export function ap2Audience(merchantId: string, base = env.BASE_URL): string {
  return `${base}/ap2/${merchantId}`;
}

export const CreateCheckoutBody = z
  .object({
    line_items: z
      .array(z.object({ product_id: z.string().min(1).max(100), quantity: z.number().int().min(1).max(1000) }).strict())
      .min(1)
      .max(50),
  })
  .strict();
export type CreateCheckoutInput = z.output<typeof CreateCheckoutBody>;

export async function createCheckout(tx: Db, merchant: { id: string; name: string }, buyer: Scope, input: CreateCheckoutInput) {
  const scope = { merchantId: merchant.id, livemode: buyer.livemode };
  const priced = await priceCheckout(tx, scope, {
    items: input.line_items.map((l) => ({ productId: l.product_id, quantity: l.quantity })),
  } as OpenCheckoutInput);
  const id = `ap2co_${randomBase62(24)}`;
  const now = Math.floor(Date.now() / 1000);
  const exp = now + CHECKOUT_TTL_SECONDS;
  const items = priced.items.map((i) => ({ productId: i.productId!, quantity: i.quantity, name: i.name, unitAmount: i.unitAmount }));
  const checkout = {
    id,
    status: "ready_for_complete",
    merchant: { id: merchant.id, name: merchant.name, website: env.BASE_URL },
    currency: priced.currency,
    line_items: items.map((i, n) => ({
      id: `li_${n + 1}`,
      item: { id: i.productId, title: i.name, price: i.unitAmount },
      quantity: i.quantity,
      totals: [{ type: "subtotal", amount: i.unitAmount * i.quantity }],
    })),
    totals: [{ type: "total", amount: priced.amount }],
  };
  const key = await activeSigningKey(tx, merchant.id);
  const checkoutJwt = await new SignJWT(checkout)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(ap2Audience(merchant.id))
    .setSubject(merchant.id)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setJti(id)
    .sign(key.privateKey);
  const checkoutHash = hashOf(checkoutJwt);
  const nonce = randomBytes(24).toString("base64url");
  const expiresAt = new Date(exp * 1000);
  await tx.ap2Checkout.create({
    data: {
      id,
      merchantId: merchant.id,
      livemode: buyer.livemode,
      buyerMerchantId: buyer.merchantId,
      checkoutHash,
      checkoutJwt,
      nonce,
      items,
      amount: priced.amount,
      currency: priced.currency,
      expiresAt,
    },
  });
  return {
    id,
    object: "ap2_checkout" as const,
    checkout,
    checkout_jwt: checkoutJwt,
    checkout_hash: checkoutHash,
    nonce,
    aud: ap2Audience(merchant.id),
    jwks_uri: `${env.BASE_URL}/ap2/${merchant.id}/jwks.json`,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * The merchant of an AP2 path, read in the request's own transaction: a second pool connection taken while the
 * transaction holds one could starve the pool under concurrent payments.
 */
export async function ap2Merchant(tx: Db, merchantId: string): Promise<{ id: string; name: string }> {
  const merchant = /^mer_[0-9A-Za-z]{1,64}$/.test(merchantId)
    ? await tx.merchant.findUnique({ where: { id: merchantId }, select: { id: true, name: true } })
    : null;
  if (!merchant) throw new NotFoundError("merchant", merchantId);
  return merchant;
}
