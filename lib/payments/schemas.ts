import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";
import { PAYMENT_SOURCES } from "../payment-sources";
import { PAYMENT_INTENT_STATUSES } from "./transitions";

export const ListPaymentIntentsQuery = ListQuery.extend({
  status: z.enum(PAYMENT_INTENT_STATUSES).optional(),
  meterId: z.string().min(1).max(64).optional(),
  source: z.enum(PAYMENT_SOURCES).optional(),
  /** The sales of one hosted paid resource (xr_). */
  paidResourceId: z.string().min(1).max(64).optional(),
  /** The payments of one customer (cus_), as Stripe's `customer` filter. */
  customerId: z.string().min(1).max(64).optional(),
}).strict();
export type ListPaymentIntentsInput = z.output<typeof ListPaymentIntentsQuery>;

// Responses.

/** A live x402 payment's on-chain settlement: the transaction that moved the money from the payer's wallet to payTo. */
export const ChainSettlement = z
  .object({
    /** CAIP-2 network. */
    network: z.string(),
    /** The transaction hash (0x...). */
    transaction: z.string(),
    blockNumber: z.number().int(),
    payer: z.string(),
    payTo: z.string(),
    /** The token contract. */
    asset: z.string(),
  })
  .meta({ id: "ChainSettlement" });

/** The `agent` of a card-network payment (docs/cards.md "The agent on the PaymentIntent"). */
export const AgentRecord = z
  .object({
    network: z.enum(["visa", "mastercard"]),
    protocol: z.enum(["tap", "web-bot-auth", "card-form"]),
    agentKeyId: z.string().nullable(),
    keyid: z.string().nullable(),
    tag: z.string().nullable(),
    signatureAgent: z.string().nullable(),
    /** A foreign agent operator's origin whose key directory verified the agent (docs/cards.md "Foreign agent operators"). */
    operator: z.string().optional(),
    nonce: z.string().nullable(),
    credentialId: z.string(),
    verified: z.boolean(),
    verifiedAt: Timestamp.nullable(),
  })
  .meta({ id: "PaymentAgent" });

export const PaymentIntentObject = z
  .object({
    id: z.string(),
    object: z.literal("payment_intent"),
    status: z.enum(PAYMENT_INTENT_STATUSES),
    amount: z.number().int(),
    amountCaptured: z.number().int(),
    amountRefunded: z.number().int(),
    currency: z.string(),
    checkoutId: z.string().nullable(),
    orderId: z.string().nullable(),
    customerId: z.string().nullable(),
    paymentMethod: z.string().nullable(),
    /** Paywall payments: the sku the payment is bound to (null for other payments). */
    sku: z.string().nullable(),
    /** Payments of a meter: the meter (null for other payments). */
    meterId: z.string().nullable(),
    /** Meter payments: "funding" (a prepaid budget) or "settlement" (accrued usage); null for others. */
    meterPurpose: z.enum(["funding", "settlement"]).nullable(),
    capturedAt: Timestamp.nullable(),
    settledAt: Timestamp.nullable(),
    failureReason: z.string().nullable(),
    /** How the payment came: api, pay_page, paywall, meter, spt, x402, mpp, acp, a2a, ap2, mcp, visa, mastercard. */
    source: z.enum(PAYMENT_SOURCES),
    /** A sale of a hosted paid resource (xr_); null for other payments. */
    paidResourceId: z.string().nullable(),
    /** Who paid, as the protocol names the payer (x402: the signer's address); null for other payments. */
    payer: z.string().nullable(),
    /** A card-network agent payment: who paid and how it was verified; null for other payments. */
    agent: AgentRecord.nullable(),
    /** A live x402 payment settled on chain (docs/x402.md "Going live"): where and by which transaction; null for other payments. */
    settlement: ChainSettlement.nullable(),
    /** The payer's name and billing country as given at capture. */
    billingDetails: z.object({ name: z.string().nullable(), country: z.string().nullable() }),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "PaymentIntent" });

export const PaymentIntentList = listOf(PaymentIntentObject, "PaymentIntentList");
