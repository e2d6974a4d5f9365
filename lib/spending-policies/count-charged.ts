// A charge the rail made that no policy check counted: a payer's meter funding whose request died between the
// rail's charge and its commit, found charged by the tick's reconcile (lib/meters/fund-meter.ts reconcileFundings).
// The check that counted it rolled back with the dead request, and the money has moved, so nothing can be
// refused any more: its amount is added to the agent's budget windows as they stood when the charge began, past
// the limit if need be (the next charge then finds the budget spent), in the reconcile's own transaction.
import type { Db } from "../db";
import type { PaymentIntent } from "../generated/prisma/client";
import { periodStartOf, reserveSpend } from "../spend-limits";
import { recordAgentPaymentIntent } from "./agent-activity";
import { agentPolicyOf } from "./enforce";

/** Money taken or on its way: counted (a `processing` one as the normal path counts it, before the rail settles). */
const CHARGED = new Set(["captured", "processing", "settled"]);

/** Counts a recovered charge of `pi` (charged at `chargedAt`) against the budgets of the agent it pays as. */
export async function countRecoveredCharge(tx: Db, pi: PaymentIntent, chargedAt: Date): Promise<void> {
  if (!pi.spendingAgentId || !CHARGED.has(pi.status)) return;
  const agent = await agentPolicyOf(tx, { spendingAgentId: pi.spendingAgentId, protocol: "meter" }, pi.livemode);
  if (!agent) return;
  for (const budget of agent.policy?.budgets.filter((b) => b.currency === pi.currency) ?? []) {
    await reserveSpend(tx, {
      counterKey: `spending_agent:${agent.id}:${budget.window}`,
      periodStart: periodStartOf(budget.window, chargedAt),
      currency: pi.currency,
      amount: pi.amount,
      limit: Number.MAX_SAFE_INTEGER, // already charged: counted whatever the budget says
    });
  }
  await recordAgentPaymentIntent(tx, agent.id, pi.id);
}
