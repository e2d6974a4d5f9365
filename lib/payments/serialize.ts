import type { z } from "zod";
import type { PaymentIntent } from "../generated/prisma/client";
import type {
  AgentRecord as AgentRecordSchema,
  ChainSettlement as ChainSettlementSchema,
  PaymentIntentObject as PaymentIntentSchema,
} from "./schemas";
import type { PaymentSource } from "../payment-sources";
import type { PaymentIntentStatus } from "./transitions";

/** The `agent` of a card-network payment (docs/cards.md "The agent on the PaymentIntent"). */
export type AgentRecord = z.output<typeof AgentRecordSchema>;
/** The `settlement` of a live on-chain x402 payment (docs/x402.md "Going live"). */
export type ChainSettlement = z.output<typeof ChainSettlementSchema>;

/** The columns the API object shows (a raw-SQL read selects just these: PAYMENT_INTENT_COLUMNS). */
export type PaymentIntentFields = Pick<
  PaymentIntent,
  | "id"
  | "status"
  | "amount"
  | "amountCaptured"
  | "amountRefunded"
  | "currency"
  | "checkoutId"
  | "orderId"
  | "customerId"
  | "paymentMethod"
  | "sku"
  | "meterId"
  | "meterFunding"
  | "capturedAt"
  | "settledAt"
  | "failureReason"
  | "livemode"
  | "source"
  | "paidResourceId"
  | "payer"
  | "agent"
  | "settlement"
  | "billingName"
  | "billingCountry"
  | "createdAt"
>;

/** Raw SQL select list (FROM payment_intents) giving a PaymentIntentFields row, its status computed by the SQL `status`. */
export const paymentIntentColumns = (
  status: string,
) => `id, ${status} AS status, amount, amount_captured AS "amountCaptured", amount_refunded AS "amountRefunded", currency,
  checkout_id AS "checkoutId", order_id AS "orderId", customer_id AS "customerId", payment_method AS "paymentMethod", sku,
  meter_id AS "meterId", meter_funding AS "meterFunding", captured_at AS "capturedAt", settled_at AS "settledAt", failure_reason AS "failureReason", livemode,
  source, paid_resource_id AS "paidResourceId", payer, agent, settlement, billing_name AS "billingName", billing_country AS "billingCountry", created_at AS "createdAt"`;

export function serializePaymentIntent(pi: PaymentIntentFields) {
  return {
    id: pi.id,
    object: "payment_intent" as const,
    status: pi.status as PaymentIntentStatus,
    amount: pi.amount,
    amountCaptured: pi.amountCaptured,
    amountRefunded: pi.amountRefunded,
    currency: pi.currency,
    checkoutId: pi.checkoutId,
    orderId: pi.orderId,
    customerId: pi.customerId,
    paymentMethod: pi.paymentMethod,
    /** Paywall payments: the sku the payment is bound to (null for other payments). */
    sku: pi.sku,
    /** Aggregate payments of a meter: the meter they bill (null for other payments). */
    meterId: pi.meterId,
    /** Meter payments: "funding" (a prepaid budget, charged up front) or "settlement" (accrued usage); null for others. */
    meterPurpose: pi.meterId === null ? null : pi.meterFunding ? ("funding" as const) : ("settlement" as const),
    capturedAt: pi.capturedAt?.toISOString() ?? null,
    settledAt: pi.settledAt?.toISOString() ?? null,
    failureReason: pi.failureReason,
    /** How it came (lib/payment-sources.ts): api, pay_page, paywall, meter, spt, x402, mpp, ... */
    source: pi.source as PaymentSource,
    /** A sale of a hosted paid resource (xr_): the resource sold; null for other payments. */
    paidResourceId: pi.paidResourceId,
    /** Who paid, as the protocol names the payer (x402: the signer's address); null for other payments. */
    payer: pi.payer,
    /** A card-network agent payment (docs/cards.md): who paid and how it was verified; null for other payments. */
    agent: (pi.agent ?? null) as AgentRecord | null,
    /** A live x402 payment settled on chain: the network, transaction, block, payer, payTo and token. */
    settlement: (pi.settlement ?? null) as ChainSettlement | null,
    /** The payer's name and billing country as given at capture (null fields when not given), as Stripe's billing_details. */
    billingDetails: { name: pi.billingName, country: pi.billingCountry },
    livemode: pi.livemode,
    createdAt: pi.createdAt.toISOString(),
  } satisfies z.input<typeof PaymentIntentSchema>;
}
export type PaymentIntentObject = ReturnType<typeof serializePaymentIntent>;
