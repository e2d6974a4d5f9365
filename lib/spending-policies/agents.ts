// The payer's spending agents (sag_; docs/spending-policies.md): create, read, list. An agent's wallet addresses
// are claimed in the same transaction as the agent by the primary key of spending_agent_wallets (livemode,
// address): two agents can never count the same address, and a taken address is a 409 naming it.
import type { Db } from "../db";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { CreateSpendingAgentInput, ListSpendingAgentsInput } from "./schemas";
import { serializeSpendingAgent } from "./serialize";

export async function createSpendingAgent(tx: Db, payer: Scope, input: CreateSpendingAgentInput) {
  const id = createId("spendingAgent");
  const now = new Date();
  const walletAddresses = input.walletAddresses ?? [];
  // A claimed address puts that wallet's x402 payments under this payer's policy, and nothing proves the payer
  // controls it yet: in live mode a stranger's wallet could be blocked that way, so live agents take none for now.
  if (payer.livemode && walletAddresses.length)
    throw new ValidationError(
      "Live spending agents cannot list wallet addresses yet: a signed proof of control is not supported. Nothing was created.",
      [{ path: "walletAddresses", message: "not accepted in live mode yet" }],
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
  if (walletAddresses.length) {
    const claimed = await tx.$queryRaw<{ address: string }[]>`
      INSERT INTO spending_agent_wallets (livemode, address, spending_agent_id)
      SELECT ${payer.livemode}, a, ${id} FROM unnest(${walletAddresses}::text[]) AS a
      ON CONFLICT DO NOTHING RETURNING address`;
    if (claimed.length !== walletAddresses.length) {
      const mine = new Set(claimed.map((row) => row.address));
      const taken = walletAddresses.filter((a) => !mine.has(a));
      throw new ConflictError(`Wallet address ${taken[0]} already counts against another spending agent; nothing was created.`, {
        reason: "wallet_address_taken",
        walletAddresses: taken,
      });
    }
  }
  return serializeSpendingAgent(agent);
}

/** The payer's agent row; 404 for another payer's or the other mode's. */
export async function findSpendingAgent(db: Db, payer: Scope, id: string) {
  const agent = await db.spendingAgent.findFirst({ where: { id, merchantId: payer.merchantId, livemode: payer.livemode } });
  if (!agent) throw new NotFoundError("spending_agent", id);
  return agent;
}

export async function getSpendingAgent(db: Db, payer: Scope, id: string) {
  return serializeSpendingAgent(await findSpendingAgent(db, payer, id));
}

export async function listSpendingAgents(db: Db, payer: Scope, query: ListSpendingAgentsInput) {
  return listNewestFirst(
    db.spendingAgent,
    { scope: { merchantId: payer.merchantId, livemode: payer.livemode } },
    query,
    serializeSpendingAgent,
  );
}

/**
 * A credential naming a spending agent (a shared payment token, an agentic token): it must be the minting payer's
 * own, in the same mode; 404 otherwise (another payer's agent is not revealed).
 */
export async function requireOwnSpendingAgent(db: Db, payer: Scope, id: string | undefined): Promise<string | null> {
  if (id === undefined) return null;
  return (await findSpendingAgent(db, payer, id)).id;
}
