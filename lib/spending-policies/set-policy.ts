// POST /v1/spending_agents/:id/policy (docs/spending-policies.md): the policy replaces the agent's whole policy
// (or, for `default`, the payer's default). The next charge reads it in its own transaction, so a change applies
// from the next charge on; a charge already past its check keeps the policy it was checked against.
import type { Db } from "../db";
import type { Scope } from "../scope";
import { findSpendingAgent } from "./agents";
import type { SpendingPolicyInput } from "./schemas";

/** The path id that names the payer's default policy instead of one agent's. */
export const DEFAULT_POLICY_ID = "default";

export async function setSpendingPolicy(tx: Db, payer: Scope, id: string, policy: SpendingPolicyInput) {
  const now = new Date();
  if (id === DEFAULT_POLICY_ID) {
    await tx.spendingPolicyDefault.upsert({
      where: { merchantId_livemode: { merchantId: payer.merchantId, livemode: payer.livemode } },
      create: { merchantId: payer.merchantId, livemode: payer.livemode, policy, updatedAt: now },
      update: { policy, updatedAt: now },
    });
    return { object: "spending_policy" as const, spendingAgentId: null, policy, livemode: payer.livemode, updatedAt: now.toISOString() };
  }
  const agent = await findSpendingAgent(tx, payer, id);
  await tx.spendingAgent.update({ where: { id: agent.id }, data: { policy, updatedAt: now } });
  return { object: "spending_policy" as const, spendingAgentId: agent.id, policy, livemode: payer.livemode, updatedAt: now.toISOString() };
}
