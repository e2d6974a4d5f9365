// The one way a verified x402 payment is settled, whichever path it came by (the facilitator's /x402/settle, a
// hosted resource, the A2A merchant agent): test mode in one transaction with no chain (settle-payment.ts), live
// mode on the chain (settle-on-chain.ts). Both answer in the same terms.
import { transaction } from "../db";
import type { Scope } from "../scope";
import type { VerifiedPayment } from "./check-payment";
import { settleOnChain, type ChainHooks, type ChainSettlement, type SignedPayment } from "./settle-on-chain";
import { settlePayment, type SaleOf } from "./settle-payment";

export type X402Settlement = ChainSettlement;

export async function settleVerifiedPayment(
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  signed: SignedPayment,
  hooks: ChainHooks = {},
): Promise<X402Settlement> {
  if (merchant.livemode) return settleOnChain(merchant, payment, sale, signed, hooks);
  const settled = await transaction((tx) => settlePayment(tx, merchant, payment, sale));
  if (!settled.ok) return { kind: "refused", refusal: settled, transaction: "" };
  const { paymentIntentId, orderId } = settled;
  return { kind: "settled", paymentIntentId, orderId, transaction: paymentIntentId, replayed: false };
}
