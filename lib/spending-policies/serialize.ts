import type { z } from "zod";
import type { SpendingAgent } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import { SpendingPolicy, type SpendingAgentObject, type SpendingPolicyInput } from "./schemas";

/** A stored policy (written parsed, so every field is there); parsed again so a field added later gets its default. */
export function storedPolicy(value: unknown): SpendingPolicyInput | null {
  if (value === null || value === undefined) return null;
  const parsed = SpendingPolicy.safeParse(value);
  if (!parsed.success) throw new Error("A stored spending policy does not parse; it was written unparsed.");
  return parsed.data;
}

export function serializeSpendingAgent(agent: SpendingAgent) {
  return {
    id: agent.id,
    object: "spending_agent" as const,
    name: agent.name,
    description: agent.description,
    walletAddresses: agent.walletAddresses,
    policy: storedPolicy(agent.policy),
    metadata: agent.metadata as StoredMetadata,
    livemode: agent.livemode,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  } satisfies z.input<typeof SpendingAgentObject>;
}
