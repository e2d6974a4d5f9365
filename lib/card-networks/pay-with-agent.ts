// Paying a merchant's checkout with a card-network credential (docs/cards.md "Paying a checkout"), inside the
// caller's ONE transaction. Nothing here moves money: the checkout is captured by captureCheckout with the
// credential's underlying payment method, so the ledger posting, order.paid / payment_intent.captured events and
// webhooks, and later refunds are the usual ones. Before the capture, the PaymentIntent (still requires_payment,
// its checkout row locked) is stamped with the network as its `source` and with the `agent` that paid, so the
// capture's events carry both.
import { captureCheckout } from "../checkouts/capture-checkout";
import { requireOpen } from "../checkouts/closed-checkout-error";
import { lockCheckout } from "../checkouts/lock-checkout";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Checkout } from "../generated/prisma/client";
import type { AgentRecord } from "../payments/serialize";
import type { Scope } from "../scope";
import type { SpendingContext } from "../spending-policies/enforce";

/** The open checkout of any merchant in the payer's mode, locked; its merchant is the seller. */
export async function lockSellerCheckout(tx: Db, livemode: boolean, id: string): Promise<{ checkout: Checkout; seller: Scope }> {
  const found = await tx.checkout.findFirst({ where: { id, livemode }, select: { merchantId: true } });
  if (!found) throw new NotFoundError("checkout", id);
  const seller = { merchantId: found.merchantId, livemode };
  const { checkout, overdue } = await lockCheckout(tx, seller, id);
  requireOpen(checkout, overdue); // as captureCheckout checks it
  return { checkout, seller };
}

export interface AgentCapture {
  seller: Scope;
  checkout: Checkout;
  payer: Scope;
  /** What the rail charges (the credential's underlying method). */
  paymentMethod: string;
  /** The hosted form's billing country and name (sanctions screening), when there is one. */
  billing?: { billingCountry: string; billingName: string };
  /** The rail's charge key: the same on a retry after a crash. */
  chargeKey: string;
  source: "visa" | "mastercard";
  /** `operator`: a foreign agent operator's origin (docs/cards.md "Foreign agent operators"), recorded with the rest. */
  agent: AgentRecord;
  /**
   * The credential's spending agent, when it names one (docs/spending-policies.md): checked at the capture. A
   * credential naming none pays under the agent key's spending agent, if the key names one.
   */
  spending?: SpendingContext;
}

/** The spending agent of the credential, else of the agent key that signed (one primary-key read). */
async function spendingOf(tx: Db, c: AgentCapture): Promise<SpendingContext | undefined> {
  if (c.spending || !c.agent.agentKeyId) return c.spending;
  const key = await tx.agentKey.findUnique({ where: { id: c.agent.agentKeyId }, select: { spendingAgentId: true } });
  return key?.spendingAgentId ? { spendingAgentId: key.spendingAgentId, protocol: c.source } : undefined;
}

export async function captureWithAgent(tx: Db, c: AgentCapture) {
  await tx.$executeRaw`
    UPDATE payment_intents SET source = ${c.source}, agent = ${JSON.stringify(c.agent)}::jsonb, updated_at = now()
     WHERE id = ${c.checkout.paymentIntentId} AND status = 'requires_payment'`;
  await tx.$executeRaw`UPDATE orders SET source = ${c.source} WHERE id = ${c.checkout.orderId} AND status = 'pending'`;
  return captureCheckout(
    tx,
    c.seller,
    c.checkout.id,
    { paymentMethod: c.paymentMethod, ...c.billing },
    { walletOwner: c.payer, chargeKey: c.chargeKey, verifiedAgent: c.agent.verified, spending: await spendingOf(tx, c) },
  );
}
