// Settling an AP2 PaymentMandate (docs/a2a.md): the PaymentMandate's payment_response carries a shared payment
// token (spt_), which is redeemed for the cart the merchant signed, through redeemToken (its token lock, checkout
// and capture: nothing here moves money), source "ap2". Refused with nothing charged: a CartMandate whose
// merchant_authorization does not verify against the merchant's keys, an altered cart (cart_hash differs), an
// expired mandate, a reused jti (the mandate row's used_at is set by an atomic UPDATE ... WHERE used_at IS NULL in
// the settling transaction), a token already used (the token's own single use, and ap2_mandates.token_id unique),
// totals or ids that do not match the cart. The mandates are kept on the row with the order (audit). A token whose
// spending agent's approval threshold is below the cart waits for the payer (docs/approvals.md "A2A and AP2"): the
// request, the mandate's use and the request's tie to the task commit together (MandateAwaitsApproval), nothing charged.
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";
import { getDb, transaction } from "../db";
import { DomainError } from "../errors";
import type { Ap2Mandate } from "../generated/prisma/client";
import type { ApprovalRequestView } from "../approvals/schemas";
import type { Scope } from "../scope";
import { ApprovalPendingError, redeemOrAwaitApproval } from "../shared-payment-tokens/await-approval";
import { tieApprovalToTask } from "./approval-task";
import { sha256B64url } from "./canonical";
import { ALG, verificationKey } from "./keys";

const Amount = z.object({ currency: z.string().min(3).max(3), value: z.number().finite().nonnegative() }).loose();

export const PaymentMandateSchema = z
  .object({
    payment_mandate_contents: z
      .object({
        payment_mandate_id: z.string().min(1).max(200),
        payment_details_id: z.string().min(1).max(200),
        payment_details_total: z.object({ label: z.string().max(500).optional(), amount: Amount }).loose(),
        payment_response: z
          .object({
            request_id: z.string().max(200).optional(),
            method_name: z.string().min(1).max(500),
            details: z.object({ token: z.string().min(1).max(200) }).loose(),
          })
          .loose(),
        merchant_agent: z.string().min(1).max(500),
        timestamp: z.string().max(100).optional(),
      })
      .loose(),
    user_authorization: z.string().max(20_000).nullish(),
  })
  .loose();
export type PaymentMandate = z.output<typeof PaymentMandateSchema>;

export const CartMandateSchema = z
  .object({ contents: z.object({ id: z.string().min(1).max(200) }).loose(), merchant_authorization: z.string().min(1).max(10_000) })
  .loose();

export class MandateRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The charge waits for the payer's approval: the mandate is spent, the request open and tied to the task (committed). */
export class MandateAwaitsApproval extends Error {
  constructor(readonly request: ApprovalRequestView) {
    super(`The payment waits for the payer's approval (${request.id}).`);
  }
}

export interface MandatePaid {
  paymentIntentId: string;
  orderId: string;
  amount: number;
  currency: string;
}

const TOKEN_ID = /^spt_[0-9A-Za-z]{1,64}$/;

/** Verifies the CartMandate's JWT and hash and returns its claims' jti; refuses with the reason. */
async function verifyCartMandate(merchantId: string, agentUrl: string, cartMandate: z.output<typeof CartMandateSchema>) {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(cartMandate.merchant_authorization).kid;
  } catch {
    throw new MandateRefused("invalid_merchant_authorization", "merchant_authorization is not a JWT.");
  }
  const key = kid ? await verificationKey(getDb(), merchantId, kid) : null;
  if (!key)
    throw new MandateRefused(
      "invalid_merchant_authorization",
      "merchant_authorization is not signed with a key of this merchant (see its JWKS).",
    );
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(cartMandate.merchant_authorization, key, {
      algorithms: [ALG],
      issuer: agentUrl,
      audience: agentUrl,
      subject: merchantId,
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      throw new MandateRefused("mandate_expired", "The CartMandate has expired (exp); nothing was charged.");
    throw new MandateRefused(
      "invalid_merchant_authorization",
      "merchant_authorization does not verify (signature, issuer, audience or subject).",
    );
  }
  if (typeof claims.jti !== "string" || typeof claims.cart_hash !== "string")
    throw new MandateRefused("invalid_merchant_authorization", "merchant_authorization lacks jti or cart_hash.");
  if (claims.cart_hash !== sha256B64url(cartMandate.contents))
    throw new MandateRefused("cart_hash_mismatch", "The cart differs from the one the merchant signed (cart_hash); nothing was charged.");
  return { jti: claims.jti, cartHash: claims.cart_hash };
}

function checkPaymentMandate(row: Ap2Mandate, mandate: PaymentMandate) {
  const contents = mandate.payment_mandate_contents;
  if (contents.payment_details_id !== row.cartId)
    throw new MandateRefused("payment_details_mismatch", `payment_details_id must be the cart's id ${row.cartId}.`);
  const total = contents.payment_details_total.amount;
  if (total.currency.toUpperCase() !== row.currency || Math.round(total.value * 100) !== row.amount) {
    throw new MandateRefused(
      "payment_total_mismatch",
      `payment_details_total must be the cart's total ${row.currency} ${(row.amount / 100).toFixed(2)}.`,
    );
  }
  const token = contents.payment_response.details.token;
  if (!TOKEN_ID.test(token))
    throw new MandateRefused("invalid_payment_response", "payment_response.details.token must be a shared payment token (spt_...).");
  return token;
}

function isUniqueViolation(err: unknown): boolean {
  const text = err instanceof Error ? `${(err as { code?: string }).code ?? ""} ${err.message}` : "";
  return /P2002|23505|unique constraint/i.test(text);
}

export async function payMandate(
  scope: Scope,
  input: { taskId: string; agentUrl: string; cartMandate: unknown; paymentMandate: unknown },
): Promise<MandatePaid & { mandate: Ap2Mandate }> {
  const payment = PaymentMandateSchema.safeParse(input.paymentMandate);
  if (!payment.success)
    throw new MandateRefused(
      "invalid_payment_mandate",
      `Invalid PaymentMandate: ${payment.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")}.`,
    );
  const db = getDb();
  let cart = input.cartMandate;
  if (cart === undefined) {
    const stored = await db.ap2Mandate.findFirst({
      where: {
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        taskId: input.taskId,
        cartId: payment.data.payment_mandate_contents.payment_details_id,
      },
    });
    cart = stored?.cartMandate;
  }
  const cartMandate = CartMandateSchema.safeParse(cart);
  if (!cartMandate.success)
    throw new MandateRefused("invalid_cart_mandate", "The CartMandate this payment is for was not found or is not a CartMandate.");
  const { jti, cartHash } = await verifyCartMandate(scope.merchantId, input.agentUrl, cartMandate.data);
  const row = await db.ap2Mandate.findFirst({ where: { jti, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!row) throw new MandateRefused("unknown_mandate", "This CartMandate was not issued by this merchant agent.");
  if (row.usedAt)
    throw new MandateRefused(
      "mandate_already_used",
      `CartMandate ${jti} has been paid already (its jti is single-use); nothing was charged.`,
    );
  if (row.taskId !== input.taskId) throw new MandateRefused("unknown_mandate", "This CartMandate was issued in another task.");
  if (row.cartHash !== cartHash)
    throw new MandateRefused("cart_hash_mismatch", "The cart differs from the one the merchant signed (cart_hash); nothing was charged.");
  if (row.expiresAt.getTime() <= Date.now())
    throw new MandateRefused("mandate_expired", "The CartMandate has expired; nothing was charged.");
  const token = checkPaymentMandate(row, payment.data);

  let settled: (MandatePaid & { mandate: Ap2Mandate }) | ApprovalPendingError;
  try {
    settled = await transaction(async (tx) => {
      const claimed = await tx.$executeRaw`
        UPDATE ap2_mandates SET used_at = now(), payment_mandate = ${JSON.stringify(payment.data)}::jsonb,
               payment_mandate_id = ${payment.data.payment_mandate_contents.payment_mandate_id}, token_id = ${token}
         WHERE jti = ${jti} AND used_at IS NULL AND expires_at > now()`;
      if (claimed !== 1)
        throw new MandateRefused("mandate_already_used", `CartMandate ${jti} has been paid already or has expired; nothing was charged.`);
      const items = (row.items as { productId: string; quantity: number }[]).map(({ productId, quantity }) => ({ productId, quantity }));
      let pi: Awaited<ReturnType<typeof redeemOrAwaitApproval>>;
      try {
        pi = await redeemOrAwaitApproval(
          tx,
          scope,
          token,
          {
            items,
            amount: row.amount,
            currency: row.currency,
            description: `AP2 cart ${row.cartId}`,
            metadata: { ap2_cart_id: row.cartId, ap2_jti: jti },
          },
          { source: "ap2" },
        );
      } catch (err) {
        if (!(err instanceof ApprovalPendingError)) throw err;
        // Returned, not thrown: the request, the parked checkout and the mandate's use commit (nothing charged).
        await tieApprovalToTask(tx, err.request.id, input.taskId);
        return err;
      }
      const orderId = pi.orderId!;
      await tx.$executeRaw`UPDATE ap2_mandates SET payment_intent_id = ${pi.id}, order_id = ${orderId} WHERE jti = ${jti}`;
      const task =
        await tx.$executeRaw`UPDATE a2a_tasks SET payment_intent_id = ${pi.id}, updated_at = now() WHERE id = ${input.taskId} AND merchant_id = ${scope.merchantId} AND payment_intent_id IS NULL`;
      if (task !== 1) throw new MandateRefused("task_already_paid", "This task has been paid already; nothing was charged.");
      const mandate = await tx.ap2Mandate.findUniqueOrThrow({ where: { jti } });
      return { paymentIntentId: pi.id, orderId, amount: pi.amount, currency: pi.currency, mandate };
    });
  } catch (err) {
    if (err instanceof MandateRefused) throw err;
    if (isUniqueViolation(err))
      throw new MandateRefused(
        "token_already_used",
        "This shared payment token or PaymentMandate has been used already; nothing was charged.",
      );
    if (err instanceof DomainError) {
      const reason = typeof err.details.reason === "string" ? err.details.reason : err.code.toLowerCase();
      throw new MandateRefused(reason, `${err.message}`.slice(0, 500));
    }
    throw err;
  }
  if (settled instanceof ApprovalPendingError) throw new MandateAwaitsApproval(settled.request);
  return settled;
}
