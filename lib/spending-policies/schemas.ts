// Bodies, queries and objects of /v1/spending_agents (docs/spending-policies.md).
import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { PAYMENT_SOURCES } from "../payment-sources";
import { Currency, ListQuery, MerchantId, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";

/** The budget windows: UTC calendar days, ISO weeks (Monday first) and months (lib/spend-limits periodStartOf). */
export const BUDGET_WINDOWS = ["day", "week", "month"] as const;
export type BudgetWindow = (typeof BUDGET_WINDOWS)[number];

/** The rules a refusal names in `details.reason`. */
export const POLICY_REASONS = [
  "merchant_not_allowed",
  "protocol_not_allowed",
  "outside_hours",
  "amount_over_maximum",
  "approval_required_not_available",
  "budget_exceeded",
  /** The credential names an agent the payer deleted: refused rather than let through on a looser policy. */
  "spending_agent_deleted",
] as const;
export type PolicyReason = (typeof POLICY_REASONS)[number];

const Amount = z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT);
/** Budgets may sum many charges: up to 1000 times the largest single charge. */
const BudgetAmount = z
  .number()
  .int("must be an integer in minor units")
  .min(1)
  .max(MAX_AMOUNT * 1000);

const Budget = z.object({ window: z.enum(BUDGET_WINDOWS), currency: Currency, amount: BudgetAmount }).strict();
const CurrencyLimit = z.object({ currency: Currency, amount: Amount }).strict();
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A UTC range of the day, `start` included and `end` excluded; start after end wraps past midnight. */
const HourRange = z
  .object({
    start: z.string().regex(HHMM, "must be HH:MM (UTC)"),
    end: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "must be HH:MM (UTC), 24:00 for the day's end"),
  })
  .strict()
  .refine((r) => r.start !== r.end, { message: "start and end must differ", path: ["end"] });

function unique<T>(items: T[], key: (item: T) => string, ctx: z.RefinementCtx, path: string, what: string) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: "custom", path: [path, i], message: `a second ${what} for ${k}` });
    seen.add(k);
  });
}

/** A policy as given and as stored (every field present once parsed). */
export const SpendingPolicy = z
  .object({
    /**
     * At most this much per window and currency (minor units). Once any budget is set, a charge in a currency no
     * budget names is refused (budget_exceeded): a USD budget does not leave euros unlimited.
     */
    budgets: z.array(Budget).max(30).default([]),
    /** The most one charge may be, per currency. */
    maxPerTransaction: z.array(CurrencyLimit).max(30).default([]),
    /** Only these merchants may be paid; null: any (the deny list still applies). */
    allowedMerchants: z.array(MerchantId).max(1000).nullable().default(null),
    /** These merchants are never paid. */
    deniedMerchants: z.array(MerchantId).max(1000).default([]),
    /** Only these ways of paying (a PaymentIntent's `source`: spt, mpp, acp, ap2, mastercard, x402, a2a, ...); null: any. */
    allowedProtocols: z.array(z.enum(PAYMENT_SOURCES)).max(PAYMENT_SOURCES.length).nullable().default(null),
    /**
     * Charges above this (per currency) need a person's approval (docs/approvals.md): paid by a shared payment token,
     * such a charge waits as an approval request (apr_); paid otherwise, it is refused with
     * `approval_required_not_available` (fail closed), never let through.
     */
    approvalThreshold: z.array(CurrencyLimit).max(30).default([]),
    /** How long an approval request waits for a decision, in seconds (5 minutes to 30 days; default 24 h). */
    approvalExpiresIn: z.number().int().min(300).max(2_592_000).default(86_400),
    /** UTC ranges of the day when charges may happen; null: any time. */
    hours: z.array(HourRange).min(1).max(24).nullable().default(null),
  })
  .strict()
  .superRefine((p, ctx) => {
    unique(p.budgets, (b) => `${b.window} ${b.currency}`, ctx, "budgets", "budget");
    unique(p.maxPerTransaction, (m) => m.currency, ctx, "maxPerTransaction", "maximum");
    unique(p.approvalThreshold, (m) => m.currency, ctx, "approvalThreshold", "threshold");
  });
export type SpendingPolicyInput = z.output<typeof SpendingPolicy>;

/** An EVM address (x402 payer), stored lowercase. */
const WalletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .transform((value) => value.toLowerCase());

export const CreateSpendingAgentBody = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(1000).optional(),
    /** x402 payer addresses whose authorizations count against this agent (one agent per address and mode). */
    walletAddresses: z
      .array(WalletAddress)
      .max(50)
      .refine((a) => new Set(a).size === a.length, { message: "addresses must differ" })
      .optional(),
    /** Its own policy; absent: the payer's default (POST /v1/spending_agents/default/policy) applies. */
    policy: SpendingPolicy.optional(),
    metadata: Metadata.optional(),
  })
  .strict();
export type CreateSpendingAgentInput = z.output<typeof CreateSpendingAgentBody>;

/** POST /v1/spending_agents/:id: name, description and metadata (merged by key; "" removes a key), as Stripe updates. */
export const UpdateSpendingAgentBody = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(1000).nullable().optional(),
    metadata: Metadata.optional(),
  })
  .strict();
export type UpdateSpendingAgentInput = z.output<typeof UpdateSpendingAgentBody>;

/** POST /v1/spending_agents/:id/wallet_challenges: the address the payer will prove it controls. */
export const WalletChallengeBody = z.object({ address: WalletAddress }).strict();
export type WalletChallengeInput = z.output<typeof WalletChallengeBody>;

/** POST /v1/spending_agents/:id/wallets: the challenge, signed by the address's key (EIP-191 personal_sign). */
export const ProveWalletBody = z
  .object({
    challengeId: z.string().min(1).max(64),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x-prefixed hex signature"),
  })
  .strict();
export type ProveWalletInput = z.output<typeof ProveWalletBody>;

export const SetSpendingPolicyBody = SpendingPolicy;

export const ListSpendingAgentsQuery = ListQuery;
export type ListSpendingAgentsInput = z.output<typeof ListSpendingAgentsQuery>;

// Responses.

export const SpendingAgentObject = z
  .object({
    id: z.string(),
    object: z.literal("spending_agent"),
    name: z.string(),
    description: z.string().nullable(),
    walletAddresses: z.array(z.string()),
    /** Its own policy, or null when the payer's default applies. */
    policy: SpendingPolicy.nullable(),
    metadata: StoredMetadata,
    livemode: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "SpendingAgent" });

export const SpendingAgentList = listOf(SpendingAgentObject, "SpendingAgentList");

/** DELETE /v1/spending_agents/:id: the agent is detached (credentials naming it are refused from now on). */
export const DeletedSpendingAgent = z
  .object({ id: z.string(), object: z.literal("spending_agent"), deleted: z.literal(true) })
  .meta({ id: "DeletedSpendingAgent" });

/** A challenge to sign with the wallet's key (personal_sign of `message`), once, before `expiresAt`. */
export const WalletChallengeObject = z
  .object({
    id: z.string(),
    object: z.literal("wallet_challenge"),
    spendingAgentId: z.string(),
    address: z.string(),
    message: z.string(),
    expiresAt: Timestamp,
    livemode: z.boolean(),
  })
  .meta({ id: "WalletChallenge" });

/** The answer of POST /v1/spending_agents/:id/policy: the policy now in force for the agent (or the payer's default). */
export const SpendingPolicyObject = z
  .object({
    object: z.literal("spending_policy"),
    /** The agent it is for; null for the payer's default. */
    spendingAgentId: z.string().nullable(),
    policy: SpendingPolicy,
    livemode: z.boolean(),
    updatedAt: Timestamp,
  })
  .meta({ id: "SpendingPolicyResult" });
