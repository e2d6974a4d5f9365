// What a spending agent did (its dashboard page, docs/spending-policies.md "Visibility"): the payments its
// credentials made, its policy refusals and its approval requests, each kept by agent as it happens, so the page
// reads the agent's own rows newest first by index (one page at a time) and never scans the payer's history; its
// spend against each budget from the spend counters (lib/spend-limits readSpend).
import { sqlIn, statement, transaction, type Db } from "../db";
import { emitEvent } from "../events/emit-event";
import type { Scope } from "../scope";
import { periodStartOf, readSpend } from "../spend-limits";
import type { SpendingPolicyInput } from "./schemas";
import { storedPolicy } from "./serialize";

// Prepared statements: they run inside a charge's transaction, a plain pg one too (pgTransaction, lib/db.ts).
const RECORD_PAYMENT_OF_CHECKOUT = statement(
  "spending_agent_payment_of_checkout",
  `INSERT INTO spending_agent_payments (payment_intent_id, spending_agent_id, created_at)
   SELECT payment_intent_id, $1, now() FROM checkouts WHERE id = $2
   ON CONFLICT (payment_intent_id) DO NOTHING`,
);
const RECORD_PAYMENT = statement(
  "spending_agent_payment",
  `INSERT INTO spending_agent_payments (payment_intent_id, spending_agent_id, created_at)
   VALUES ($2, $1, now()) ON CONFLICT (payment_intent_id) DO NOTHING`,
);

/** The charge passed the agent's policy: its PaymentIntent joins the agent's payments (a retried capture: no-op). */
export async function recordAgentPayment(tx: Db, agentId: string, checkoutId: string): Promise<void> {
  await sqlIn(tx).count(RECORD_PAYMENT_OF_CHECKOUT, [agentId, checkoutId]);
}

/** A payment of the agent without a checkout (a meter funding), by its PaymentIntent. */
export async function recordAgentPaymentIntent(tx: Db, agentId: string, paymentIntentId: string): Promise<void> {
  await sqlIn(tx).count(RECORD_PAYMENT, [agentId, paymentIntentId]);
}

/** payment.policy_refused for the payer, and the agent's row pointing at it, in one transaction of their own. */
export async function recordAgentRefusal(payer: Scope, agentId: string, object: Record<string, unknown>): Promise<void> {
  await transaction(async (tx) => {
    const eventId = await emitEvent(tx, payer, "payment.policy_refused", object);
    await tx.$executeRaw`INSERT INTO spending_agent_refusals (event_id, spending_agent_id) VALUES (${eventId}, ${agentId})`;
  });
}

/** One page, newest first: `after`, the id of the last row of the page before (absent: the first page). */
export interface ActivityPage {
  limit: number;
  after?: string;
}

export interface AgentPayment {
  id: string;
  amount: number;
  currency: string;
  status: string;
  source: string | null;
  merchantId: string;
  createdAt: Date;
}

export async function listAgentPayments(db: Db, agentId: string, page: ActivityPage): Promise<AgentPayment[]> {
  return db.$queryRaw<AgentPayment[]>`
    SELECT pi.id, pi.amount, pi.currency, pi.status, pi.source, pi.merchant_id AS "merchantId", p.created_at AS "createdAt"
      FROM spending_agent_payments p JOIN payment_intents pi ON pi.id = p.payment_intent_id
     WHERE p.spending_agent_id = ${agentId}
       AND (${page.after ?? null}::text IS NULL OR (p.created_at, p.payment_intent_id) <
            (SELECT c.created_at, c.payment_intent_id FROM spending_agent_payments c
              WHERE c.payment_intent_id = ${page.after ?? null} AND c.spending_agent_id = ${agentId}))
     ORDER BY p.created_at DESC, p.payment_intent_id DESC LIMIT ${page.limit}`;
}

export interface AgentRefusal {
  eventId: string;
  reason: string;
  message: string;
  protocol: string;
  merchantId: string;
  amount: number;
  currency: string;
  createdAt: Date;
}

export async function listAgentRefusals(db: Db, agentId: string, page: ActivityPage): Promise<AgentRefusal[]> {
  return db.$queryRaw<AgentRefusal[]>`
    SELECT r.event_id AS "eventId", e.data->'object'->>'reason' AS reason, e.data->'object'->>'message' AS message,
           e.data->'object'->>'protocol' AS protocol, e.data->'object'->>'merchantId' AS "merchantId",
           (e.data->'object'->>'amount')::int AS amount, e.data->'object'->>'currency' AS currency, r.created_at AS "createdAt"
      FROM spending_agent_refusals r JOIN events e ON e.id = r.event_id
     WHERE r.spending_agent_id = ${agentId}
       AND (${page.after ?? null}::text IS NULL OR (r.created_at, r.event_id) <
            (SELECT c.created_at, c.event_id FROM spending_agent_refusals c WHERE c.event_id = ${page.after ?? null} AND c.spending_agent_id = ${agentId}))
     ORDER BY r.created_at DESC, r.event_id DESC LIMIT ${page.limit}`;
}

export interface AgentApproval {
  id: string;
  status: string;
  protocol: string;
  amount: number;
  currency: string;
  expiresAt: Date;
  createdAt: Date;
}

/** Its approval requests (lib/approvals), newest first. */
export async function listAgentApprovals(db: Db, agentId: string, page: ActivityPage): Promise<AgentApproval[]> {
  return db.$queryRaw<AgentApproval[]>`
    SELECT id, status, protocol, amount, currency, expires_at AS "expiresAt", created_at AS "createdAt"
      FROM approval_requests a
     WHERE a.spending_agent_id = ${agentId}
       AND (${page.after ?? null}::text IS NULL OR (a.created_at, a.id) <
            (SELECT c.created_at, c.id FROM approval_requests c WHERE c.id = ${page.after ?? null} AND c.spending_agent_id = ${agentId}))
     ORDER BY a.created_at DESC, a.id DESC LIMIT ${page.limit}`;
}

/** The policy in force for the agent: its own, else the payer's default (null: none, nothing is checked). */
export async function policyInForce(db: Db, agent: { merchantId: string; livemode: boolean; policy: unknown }) {
  const own = storedPolicy(agent.policy);
  if (own) return { policy: own, own: true };
  const fallback = await db.spendingPolicyDefault.findUnique({
    where: { merchantId_livemode: { merchantId: agent.merchantId, livemode: agent.livemode } },
  });
  return { policy: storedPolicy(fallback?.policy), own: false };
}

/** Each budget of the policy in force with what the current window has spent of it. */
export async function budgetSpend(db: Db, agentId: string, policy: SpendingPolicyInput | null, at = new Date()) {
  return Promise.all(
    (policy?.budgets ?? []).map(async (budget) => {
      const { spent } = await readSpend(db, {
        counterKey: `spending_agent:${agentId}:${budget.window}`,
        periodStart: periodStartOf(budget.window, at),
        currency: budget.currency,
      });
      return { ...budget, spent };
    }),
  );
}
