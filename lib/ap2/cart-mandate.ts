// The CartMandate the merchant agent returns for an AP2 purchase (docs/a2a.md): AP2's CartMandate
// { contents: { id, user_cart_confirmation_required, payment_request (W3C PaymentRequest), cart_expiry,
// merchant_name }, merchant_authorization } where merchant_authorization is a JWT (ES256, the merchant's key, kid in
// the header) with iss, sub, aud, iat, exp, jti and cart_hash = SHA-256 of the canonical contents. The mandate is
// recorded (ap2_mandates, keyed by jti) with the cart as priced from the catalog: paying compares with this row.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Db } from "../db";
import { env } from "../env";
import { randomBase62 } from "../ids";
import type { Scope } from "../scope";
import { sha256B64url } from "./canonical";
import { activeSigningKey, ALG } from "./keys";

/** A cart as priced from the catalog: what a CartMandate promises and what paying must match. */
export interface CartTerms {
  items: { productId: string; quantity: number; name: string; unitAmount: number }[];
  amount: number;
  currency: string;
}

/** The payment method a CartMandate accepts: a shared payment token of this service (spt_). */
export function sptMethod(base = env.BASE_URL): string {
  return `${base}/v1/shared_payment_tokens`;
}

export function toValue(cents: number): number {
  return cents / 100;
}

export interface IssuedCartMandate {
  mandate: { contents: Record<string, unknown>; merchant_authorization: string };
  jti: string;
  expiresAt: Date;
}

export async function issueCartMandate(
  db: Db,
  scope: Scope,
  merchant: { id: string; name: string },
  taskId: string,
  cart: CartTerms,
  agentUrl: string,
): Promise<IssuedCartMandate> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + env.AP2_CART_MANDATE_TTL_SECONDS;
  const expiresAt = new Date(exp * 1000);
  const cartId = `cart_${randomBase62(24)}`;
  const contents = {
    id: cartId,
    user_cart_confirmation_required: false,
    payment_request: {
      method_data: [{ supported_methods: sptMethod(), data: { merchant_id: merchant.id, livemode: scope.livemode, token_prefix: "spt_" } }],
      details: {
        id: cartId,
        display_items: cart.items.map((item) => ({
          label: `${item.quantity} x ${item.name}`,
          amount: { currency: cart.currency, value: toValue(item.quantity * item.unitAmount) },
          sku: item.productId,
        })),
        total: { label: "Total", amount: { currency: cart.currency, value: toValue(cart.amount) } },
      },
      options: { request_payer_name: false, request_payer_email: false, request_payer_phone: false, request_shipping: false },
    },
    cart_expiry: expiresAt.toISOString(),
    merchant_name: merchant.name,
  };
  const cartHash = sha256B64url(contents);
  const jti = randomUUID();
  const key = await activeSigningKey(db, merchant.id);
  const merchantAuthorization = await new SignJWT({ cart_hash: cartHash })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(agentUrl)
    .setSubject(merchant.id)
    .setAudience(agentUrl)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(key.privateKey);
  const mandate = { contents, merchant_authorization: merchantAuthorization };
  await db.ap2Mandate.create({
    data: {
      jti,
      merchantId: merchant.id,
      livemode: scope.livemode,
      taskId,
      cartId,
      cartHash,
      cartMandate: mandate,
      items: cart.items,
      amount: cart.amount,
      currency: cart.currency,
      expiresAt,
    },
  });
  return { mandate, jti, expiresAt };
}
