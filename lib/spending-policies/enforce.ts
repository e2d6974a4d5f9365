// The spending policy at the charge (docs/spending-policies.md): captureCheckout calls enforceSpendingPolicy in the
// capture's own transaction, after the checkout is locked and before the rail is asked, whenever the credential
// names a spending agent (a shared payment token, an agentic token) or the payer's wallet is one an agent lists
// (x402); so does chargeFunding (lib/meters) for a payer's meter funding naming one. Rules in order: deny list,
// allow list, protocols, hours, per-transaction maximum, approval threshold, budgets. Budgets count through
// lib/spend-limits (key `spending_agent:<sag>:<window>`): one atomic upsert per window decides, in the database,
// whether the charge fits, so concurrent charges in any number of processes never pass a budget. A refusal is
// PAYMENT_DECLINED naming the rule in details.reason and rolls the whole request back (nothing written, nothing
// charged); a decline after the reservation gives it back (releaseSpendingHold).
import { sqlIn, statement, type Db } from "../db";
import { DomainError } from "../errors";
import { periodStartOf, releaseSpend, reserveSpend, type SpendReservation } from "../spend-limits";
import { recordAgentPayment, recordAgentPaymentIntent, recordAgentRefusal } from "./agent-activity";
import { BUDGET_WINDOWS, type PolicyReason, type SpendingPolicyInput } from "./schemas";
import { storedPolicy } from "./serialize";

/** Who pays, as the credential tells it: the spending agent it names, or the x402 payer's wallet address. */
export interface SpendingContext {
  spendingAgentId?: string | null;
  walletAddress?: string;
  /**
   * The wallet's agent, read already by a statement of the caller's in the same transaction (agentByWalletText's
   * row; null: the wallet is no agent's): no lookup of its own then.
   */
  walletAgent?: AgentRow | null;
  /** How it pays: the PaymentIntent's source (spt, mpp, acp, ap2, mastercard, x402, a2a). */
  protocol: string;
  /** Human approval (docs/approvals.md): whether a charge above the threshold may wait, or the approval it carries. */
  approval?: ApprovalRoute;
}

/** How a charge meets the approval threshold (lib/approvals sets it). */
export interface ApprovalRoute {
  /** The credential can wait for a person: a charge above the threshold throws ApprovalRequiredError. */
  canWait?: boolean;
  /** The charge a person approved (apr_): the threshold is passed; every other rule and the budgets still apply. */
  approvedRequestId?: string;
}

/** What an approval request is opened for: the charge above the threshold and who must decide. */
export interface ApprovalNeed {
  spendingAgentId: string;
  payerMerchantId: string;
  checkoutId: string;
  approvalThreshold: number;
  /** The policy's approvalExpiresIn (seconds). */
  expiresIn: number;
}

/**
 * A charge above the threshold whose credential can wait (ApprovalRoute.canWait): lib/approvals catches it and opens
 * the request. Uncaught, it is a refusal like any other (402, rolled back).
 */
export class ApprovalRequiredError extends DomainError {
  constructor(readonly need: ApprovalNeed) {
    super("PAYMENT_DECLINED", "The charge is above the spending policy's approval threshold and needs a person's approval.", {
      reason: "approval_required",
      spendingAgentId: need.spendingAgentId,
      approvalThreshold: need.approvalThreshold,
    });
  }
}

/** The charge checked: the payee, the amount (minor units) and currency. */
export interface PolicyCharge {
  merchantId: string;
  livemode: boolean;
  amount: number;
  currency: string;
  /** The checkout charged: an approval request names it. */
  checkoutId?: string;
  /** A payment without a checkout (a payer's meter funding): listed on the agent's page by its PaymentIntent. */
  paymentIntentId?: string;
}

/** What a passed check counted: given back by releaseSpendingHold when the charge is declined. */
export interface SpendingHold {
  spendingAgentId: string;
  reservations: Pick<SpendReservation, "counterKey" | "periodStart" | "currency" | "amount">[];
}

/** 402 PAYMENT_DECLINED naming the rule; nothing is written (the request rolls back). */
export class SpendingPolicyRefusal extends DomainError {
  constructor(
    readonly reason: PolicyReason,
    message: string,
    details: Record<string, unknown>,
  ) {
    super("PAYMENT_DECLINED", `${message} Nothing was charged.`, { reason, ...details });
  }
}

const ADJECTIVE = { day: "daily", week: "weekly", month: "monthly" } as const;

export interface AgentPolicy {
  id: string;
  payer: string;
  policy: SpendingPolicyInput | null;
  deleted: boolean;
}

const AGENT_COLUMNS = `a.id, a.merchant_id, a.policy, d.policy AS default_policy, a.deleted_at IS NOT NULL AS deleted`;
const DEFAULT_POLICY = `LEFT JOIN spending_policy_defaults d ON d.merchant_id = a.merchant_id AND d.livemode = a.livemode`;
// Prepared statements: every x402 capture asks for its payer wallet's agent (the answer is mostly none), so the lookup
// costs a bind, not a Prisma query's compilation.
const AGENT_BY_ID = statement(
  "spending_agent_policy_by_id",
  `SELECT ${AGENT_COLUMNS} FROM spending_agents a ${DEFAULT_POLICY} WHERE a.id = $1 AND a.livemode = $2`,
);
/** The agent a wallet belongs to, as SQL of `livemode` and the lowercased `address` (expressions): at most one row. */
export function agentByWalletText(livemode: string, address: string): string {
  return `SELECT ${AGENT_COLUMNS}
     FROM spending_agent_wallets w JOIN spending_agents a ON a.id = w.spending_agent_id ${DEFAULT_POLICY}
    WHERE w.livemode = ${livemode} AND w.address = ${address}`;
}
const AGENT_BY_WALLET = statement("spending_agent_policy_by_wallet", agentByWalletText("$1", "$2"));

/** An agent's row as the lookups read it. */
export interface AgentRow {
  id: string;
  merchant_id: string;
  policy: unknown;
  default_policy: unknown;
  deleted: boolean;
}

/** The agent the credential names (or the wallet belongs to), with its policy or else the payer's default. */
export async function agentPolicyOf(tx: Db, ctx: SpendingContext, livemode: boolean): Promise<AgentPolicy | null> {
  let rows: AgentRow[] = [];
  if (ctx.spendingAgentId) rows = await sqlIn(tx).rows<AgentRow>(AGENT_BY_ID, [ctx.spendingAgentId, livemode]);
  else if (ctx.walletAgent !== undefined) rows = ctx.walletAgent ? [ctx.walletAgent] : [];
  else if (ctx.walletAddress) rows = await sqlIn(tx).rows<AgentRow>(AGENT_BY_WALLET, [livemode, ctx.walletAddress.toLowerCase()]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    payer: row.merchant_id,
    policy: storedPolicy(row.policy) ?? storedPolicy(row.default_policy),
    deleted: row.deleted,
  };
}

/** UTC minutes of the day of "HH:MM" ("24:00" is 1440). */
function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

function withinHours(hours: { start: string; end: string }[], at: Date): boolean {
  const now = at.getUTCHours() * 60 + at.getUTCMinutes();
  return hours.some(({ start, end }) => {
    const [s, e] = [minutesOf(start), minutesOf(end)];
    return s < e ? now >= s && now < e : now >= s || now < e; // start after end wraps past midnight
  });
}

/** The first rule (before budgets) the charge breaks, or null. */
function ruleBroken(policy: SpendingPolicyInput, ctx: SpendingContext, charge: PolicyCharge, at: Date): SpendingPolicyRefusal | null {
  if (
    policy.deniedMerchants.includes(charge.merchantId) ||
    (policy.allowedMerchants && !policy.allowedMerchants.includes(charge.merchantId))
  )
    return new SpendingPolicyRefusal("merchant_not_allowed", `The spending policy does not allow paying merchant ${charge.merchantId}.`, {
      merchantId: charge.merchantId,
    });
  if (policy.allowedProtocols && !policy.allowedProtocols.includes(ctx.protocol as never))
    return new SpendingPolicyRefusal("protocol_not_allowed", `The spending policy does not allow paying by ${ctx.protocol}.`, {
      protocol: ctx.protocol,
    });
  if (policy.hours && !withinHours(policy.hours, at))
    return new SpendingPolicyRefusal("outside_hours", "The spending policy does not allow charges at this time of day (UTC).", {
      hours: policy.hours,
    });
  const max = policy.maxPerTransaction.find((m) => m.currency === charge.currency);
  if (max && charge.amount > max.amount)
    return new SpendingPolicyRefusal(
      "amount_over_maximum",
      `The charge (${charge.amount} ${charge.currency}) is more than the spending policy's per-transaction maximum (${max.amount}).`,
      { maximum: max.amount, currency: charge.currency },
    );
  const threshold = policy.approvalThreshold.find((m) => m.currency === charge.currency);
  if (threshold && charge.amount > threshold.amount && !ctx.approval?.approvedRequestId)
    return new SpendingPolicyRefusal(
      "approval_required_not_available",
      `The charge (${charge.amount} ${charge.currency}) is above the spending policy's approval threshold (${threshold.amount}), and approvals are not available for this way of paying.`,
      { approvalThreshold: threshold.amount, currency: charge.currency },
    );
  if (policy.budgets.length && !policy.budgets.some((b) => b.currency === charge.currency))
    return new SpendingPolicyRefusal("budget_exceeded", `The spending policy has no budget in ${charge.currency}.`, {
      currency: charge.currency,
    });
  return null;
}

/**
 * Checks the charge against the paying agent's policy and counts it against its budgets, in the capture's
 * transaction. null: no spending agent pays (or it has no policy): nothing to check. Throws SpendingPolicyRefusal.
 */
export async function enforceSpendingPolicy(
  tx: Db,
  ctx: SpendingContext,
  charge: PolicyCharge,
  at: Date = new Date(),
): Promise<SpendingHold | null> {
  if (!ctx.spendingAgentId && !ctx.walletAddress) return null;
  const agent = await agentPolicyOf(tx, ctx, charge.livemode);
  if (!agent || (!agent.policy && !agent.deleted)) return null;
  const refuse = (refusal: SpendingPolicyRefusal): never => {
    Object.assign(refusal.details, { spendingAgentId: agent.id });
    recordRefusal(agent, ctx, charge, refusal);
    throw refusal;
  };
  // A deleted agent's credentials are refused: its payer's default policy may be looser than the agent's was.
  if (agent.deleted || !agent.policy)
    return refuse(new SpendingPolicyRefusal("spending_agent_deleted", `Spending agent ${agent.id} was deleted.`, {}));
  const broken = ruleBroken(agent.policy, ctx, charge, at);
  if (broken?.reason === "approval_required_not_available" && ctx.approval?.canWait && charge.checkoutId) {
    throw new ApprovalRequiredError({
      spendingAgentId: agent.id,
      payerMerchantId: agent.payer,
      checkoutId: charge.checkoutId,
      approvalThreshold: broken.details.approvalThreshold as number,
      expiresIn: agent.policy.approvalExpiresIn,
    });
  }
  if (broken) refuse(broken);

  const reservations: SpendingHold["reservations"] = [];
  // One order for every charge (day, week, month): two charges never take the counters' row locks crosswise.
  const budgets = agent.policy.budgets
    .filter((b) => b.currency === charge.currency)
    .sort((a, b) => BUDGET_WINDOWS.indexOf(a.window) - BUDGET_WINDOWS.indexOf(b.window));
  for (const budget of budgets) {
    const r = {
      counterKey: `spending_agent:${agent.id}:${budget.window}`,
      periodStart: periodStartOf(budget.window, at),
      currency: charge.currency,
      amount: charge.amount,
      limit: budget.amount,
    };
    const result = await reserveSpend(tx, r);
    if (!result.ok)
      refuse(
        new SpendingPolicyRefusal(
          "budget_exceeded",
          `The spending agent's ${ADJECTIVE[budget.window]} budget would be exceeded (spent ${result.spent} of ${budget.amount} ${charge.currency}).`,
          { window: budget.window, budget: budget.amount, spent: result.spent, currency: charge.currency },
        ),
      );
    reservations.push(r);
  }
  // Its dashboard page lists it.
  if (charge.checkoutId) await recordAgentPayment(tx, agent.id, charge.checkoutId);
  else if (charge.paymentIntentId) await recordAgentPaymentIntent(tx, agent.id, charge.paymentIntentId);
  return { spendingAgentId: agent.id, reservations };
}

/** A charge that passed the check but moved no money (a decline that commits): its budgets get it back. */
export async function releaseSpendingHold(tx: Db, hold: SpendingHold | null): Promise<void> {
  for (const r of hold?.reservations ?? []) await releaseSpend(tx, r);
}

/**
 * payment.policy_refused for the payer (sent only to endpoints that subscribe to it by name). The refusal rolls its
 * request back, so the event is written on its own, right after, without waiting: the refused request's
 * connection is not held up for it. A crash between the two loses the notice, never money.
 */
function recordRefusal(agent: AgentPolicy, ctx: SpendingContext, charge: PolicyCharge, refusal: SpendingPolicyRefusal): void {
  const object = {
    object: "spending_policy_refusal",
    spendingAgentId: agent.id,
    reason: refusal.reason,
    message: refusal.message,
    protocol: ctx.protocol,
    merchantId: charge.merchantId,
    amount: charge.amount,
    currency: charge.currency,
    createdAt: new Date().toISOString(),
  };
  setImmediate(() => {
    recordAgentRefusal({ merchantId: agent.payer, livemode: charge.livemode }, agent.id, object).catch((err: unknown) =>
      console.error("[spending-policies] payment.policy_refused not recorded:", err instanceof Error ? err.message : err),
    );
  });
}
