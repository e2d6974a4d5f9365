// The claims of a receipt, as the contract fixes them ("Receipts"): what the captured PaymentIntent records, and no
// more. `payer` is who paid as the payment names them: the x402 signer's address (or the MPP credential's source),
// else the card-network agent key that paid, else the customer; null when the payment names nobody (a card paid
// on the hosted page without a customer). orderId and paidResourceId are left out when the payment has none;
// `mandate` names the mandate a payment was made under (receipt-mandate.ts), left out when there is none.
import type { PaymentIntent } from "../generated/prisma/client";
import { env } from "../env";
import { InvariantViolation } from "../errors";
import type { ReceiptMandate } from "./receipt-mandate";

export type PayerType = "address" | "agent_key" | "customer";

export interface ReceiptPayer {
  type: PayerType;
  id: string;
}

export interface ReceiptClaims {
  iss: string;
  sub: string;
  iat: number;
  paymentIntentId: string;
  merchantId: string;
  livemode: boolean;
  amount: number;
  currency: string;
  source: string;
  payer: ReceiptPayer | null;
  orderId?: string;
  paidResourceId?: string;
  mandate?: ReceiptMandate;
  capturedAt: string;
}

export type CapturedPayment = Pick<
  PaymentIntent,
  | "id"
  | "merchantId"
  | "livemode"
  | "amountCaptured"
  | "currency"
  | "source"
  | "payer"
  | "agent"
  | "customerId"
  | "orderId"
  | "paidResourceId"
  | "capturedAt"
>;

export function payerOf(pi: Pick<CapturedPayment, "payer" | "agent" | "customerId">): ReceiptPayer | null {
  if (pi.payer) return { type: "address", id: pi.payer };
  const agentKeyId = (pi.agent as { agentKeyId?: string | null } | null)?.agentKeyId;
  if (agentKeyId) return { type: "agent_key", id: agentKeyId };
  if (pi.customerId) return { type: "customer", id: pi.customerId };
  return null;
}

export function receiptClaims(pi: CapturedPayment, mandate: ReceiptMandate | null = null, now = new Date()): ReceiptClaims {
  if (!pi.capturedAt) throw new InvariantViolation(`PaymentIntent ${pi.id} has no capture time.`);
  return {
    iss: env.BASE_URL,
    sub: pi.id,
    iat: Math.floor(now.getTime() / 1000),
    paymentIntentId: pi.id,
    merchantId: pi.merchantId,
    livemode: pi.livemode,
    amount: pi.amountCaptured,
    currency: pi.currency,
    source: pi.source,
    payer: payerOf(pi),
    ...(pi.orderId ? { orderId: pi.orderId } : {}),
    ...(pi.paidResourceId ? { paidResourceId: pi.paidResourceId } : {}),
    ...(mandate ? { mandate } : {}),
    capturedAt: pi.capturedAt.toISOString(),
  };
}
