// The agents seen on a merchant's payments (the dashboard's Agents page; docs/dashboard.md): every card-network
// agent that paid this merchant in this mode, from the `agent` its PaymentIntents carry (docs/cards.md "The agent
// on the PaymentIntent"), one row per agent (its registered key, or its foreign operator and keyid), with how many
// payments it made, how many with a verified signature, and when it was last seen. Bounded: the merchant's latest
// 5,000 agent payments (along the (merchant, mode, source, created) index), at most 200 agents.
import type { Db } from "../db";
import type { Scope } from "../scope";

export interface AgentSeen {
  /** The agent key (agk_) or `<operator> <keyid>`: one row per agent. */
  id: string;
  network: string;
  protocol: string;
  agentKeyId: string | null;
  /** The registered key's name, when the agent is registered here. */
  name: string | null;
  operator: string | null;
  keyid: string | null;
  payments: number;
  verified: number;
  lastSeen: Date;
}

const RECENT_PAYMENTS = 5_000;
const MAX_AGENTS = 200;

export async function listAgentsSeen(db: Db, scope: Scope): Promise<AgentSeen[]> {
  const rows = await db.$queryRaw<Omit<AgentSeen, "id">[]>`
    SELECT p.agent->>'network' AS network, p.agent->>'protocol' AS protocol, p.agent->>'agentKeyId' AS "agentKeyId",
           k.name, p.agent->>'operator' AS operator, p.agent->>'keyid' AS keyid, count(*)::int AS payments,
           (count(*) FILTER (WHERE p.agent->>'verified' = 'true'))::int AS verified, max(p.created_at) AS "lastSeen"
    FROM (SELECT agent, created_at FROM payment_intents
          WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
            AND source IN ('visa', 'mastercard') AND agent IS NOT NULL
          ORDER BY created_at DESC LIMIT ${RECENT_PAYMENTS}) p
    LEFT JOIN agent_keys k ON k.id = p.agent->>'agentKeyId'
    GROUP BY 1, 2, 3, 4, 5, 6
    ORDER BY "lastSeen" DESC
    LIMIT ${MAX_AGENTS}`;
  return rows.map((row) => ({ ...row, id: row.agentKeyId ?? `${row.operator ?? row.network} ${row.keyid ?? "unknown"}` }));
}
