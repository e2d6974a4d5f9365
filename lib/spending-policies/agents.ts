// The payer's spending agents (sag_; docs/spending-policies.md): create, read, list. An agent's wallet addresses
// are claimed in the same transaction as the agent by the primary key of spending_agent_wallets (livemode,
// address): two agents can never count the same address, and a taken address is a 409 naming it.
import type { Db } from "../db";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { CreateSpendingAgentInput, ListSpendingAgentsInput, UpdateSpendingAgentInput } from "./schemas";
import type { SpendingContext } from "./enforce";
import { serializeSpendingAgent } from "./serialize";

export async function createSpendingAgent(tx: Db, payer: Scope, input: CreateSpendingAgentInput) {
  const id = createId("spendingAgent");
  const now = new Date();
  const walletAddresses = input.walletAddresses ?? [];
  // A claimed address puts that wallet's x402 payments under this payer's policy: in live mode a stranger's wallet
  // could be blocked that way, so a live agent lists only addresses it proved (wallet-proof.ts), never claimed here.
  if (payer.livemode && walletAddresses.length)
    throw new ValidationError(
      "Live spending agents list only wallet addresses they proved: create the agent, then prove each address (POST /v1/spending_agents/:id/wallet_challenges). Nothing was created.",
      [{ path: "walletAddresses", message: "not accepted in live mode without a proof of control" }],
      { reason: "wallet_proof_required" },
    );
  const agent = await tx.spendingAgent.create({
    data: {
      id,
      merchantId: payer.merchantId,
      livemode: payer.livemode,
      name: input.name,
      description: input.description ?? null,
      policy: input.policy ?? Prisma.DbNull,
      walletAddresses,
      metadata: input.metadata ?? {},
      createdAt: now,
      updatedAt: now,
    },
  });
  await claimWalletAddresses(tx, payer.livemode, id, walletAddresses);
  return serializeSpendingAgent(agent);
}

/** The addresses now count against the agent (again: a no-op); one another agent of this mode has is a 409 naming it. */
export async function claimWalletAddresses(tx: Db, livemode: boolean, agentId: string, walletAddresses: string[]) {
  if (!walletAddresses.length) return;
  const claimed = await tx.$queryRaw<{ address: string }[]>`
    INSERT INTO spending_agent_wallets (livemode, address, spending_agent_id)
    SELECT ${livemode}, a, ${agentId} FROM unnest(${walletAddresses}::text[]) AS a
    ON CONFLICT (livemode, address) DO UPDATE SET spending_agent_id = EXCLUDED.spending_agent_id
       WHERE spending_agent_wallets.spending_agent_id = EXCLUDED.spending_agent_id
    RETURNING address`;
  if (claimed.length !== walletAddresses.length) {
    const mine = new Set(claimed.map((row) => row.address));
    const taken = walletAddresses.filter((a) => !mine.has(a));
    throw new ConflictError(`Wallet address ${taken[0]} already counts against a spending agent; nothing was changed.`, {
      reason: "wallet_address_taken",
      walletAddresses: taken,
    });
  }
}

/** The payer's agent row; 404 for another payer's, the other mode's, or a deleted one. */
export async function findSpendingAgent(db: Db, payer: Scope, id: string) {
  const agent = await db.spendingAgent.findFirst({
    where: { id, merchantId: payer.merchantId, livemode: payer.livemode, deletedAt: null },
  });
  if (!agent) throw new NotFoundError("spending_agent", id);
  return agent;
}

export async function getSpendingAgent(db: Db, payer: Scope, id: string) {
  return serializeSpendingAgent(await findSpendingAgent(db, payer, id));
}

export async function listSpendingAgents(db: Db, payer: Scope, query: ListSpendingAgentsInput) {
  return listNewestFirst(
    db.spendingAgent,
    { scope: { merchantId: payer.merchantId, livemode: payer.livemode, deletedAt: null } },
    query,
    serializeSpendingAgent,
  );
}

/** Name, description, metadata (merged by key; "" removes one). The policy has its own route; wallets are proved. */
export async function updateSpendingAgent(tx: Db, payer: Scope, id: string, input: UpdateSpendingAgentInput) {
  const agent = await findSpendingAgent(tx, payer, id);
  const metadata = { ...(agent.metadata as Record<string, string>), ...input.metadata };
  for (const [key, value] of Object.entries(metadata)) if (value === "") delete metadata[key];
  const updated = await tx.spendingAgent.update({
    where: { id: agent.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.metadata !== undefined ? { metadata } : {}),
      updatedAt: new Date(),
    },
  });
  return serializeSpendingAgent(updated);
}

/**
 * Deleting detaches the agent (Stripe-like: `{ id, deleted: true }`, then 404). Its wallet addresses are released
 * (their x402 payments no longer count against it, and another agent may prove them). The row is kept, marked
 * deleted: a token, key or instruction that still names it is refused at the charge (`spending_agent_deleted`)
 * rather than paying under the payer's default policy, which may be looser or absent.
 */
export async function deleteSpendingAgent(tx: Db, payer: Scope, id: string) {
  const agent = await findSpendingAgent(tx, payer, id);
  const { count } = await tx.spendingAgent.updateMany({
    where: { id: agent.id, deletedAt: null },
    data: { deletedAt: new Date(), updatedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError("spending_agent", id); // a concurrent delete won
  await tx.spendingAgentWallet.deleteMany({ where: { spendingAgentId: agent.id } });
  return { id: agent.id, object: "spending_agent" as const, deleted: true as const };
}

/** What a payer's API key pays counts against the key's spending agent, when it names one (one primary-key read). */
export async function spendingOfApiKey(db: Db, apiKeyId: string, protocol: string): Promise<SpendingContext | undefined> {
  const key = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { spendingAgentId: true } });
  return key?.spendingAgentId ? { spendingAgentId: key.spendingAgentId, protocol } : undefined;
}

/**
 * A credential naming a spending agent (a shared payment token, an agentic token, a Visa instruction, an API key,
 * an agent key): it must be the minting payer's
 * own, in the same mode; 404 otherwise (another payer's agent is not revealed).
 */
export async function requireOwnSpendingAgent(db: Db, payer: Scope, id: string | undefined): Promise<string | null> {
  if (id === undefined) return null;
  return (await findSpendingAgent(db, payer, id)).id;
}
