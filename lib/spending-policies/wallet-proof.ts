// Proof of control of a wallet address (docs/spending-policies.md "Wallet addresses"): the service issues a
// challenge (swc_) naming the agent, the address, the mode and a random nonce; the wallet signs it with EIP-191
// personal_sign; viem's verifyMessage recovers the signer. A proved address then counts against the agent, in
// live mode too. The challenge is spent by one atomic UPDATE (unused, unexpired), so it proves once; a wrong
// signature rolls the request back and leaves it usable until it expires.
import { randomBytes } from "node:crypto";
import { verifyMessage } from "viem";
import type { Db } from "../db";
import { env } from "../env";
import { NotFoundError, ValidationError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { claimWalletAddresses, findSpendingAgent } from "./agents";
import type { ProveWalletInput, WalletChallengeInput } from "./schemas";
import { serializeSpendingAgent } from "./serialize";

export const WALLET_CHALLENGE_LIFETIME_MS = 10 * 60_000;

export async function createWalletChallenge(tx: Db, payer: Scope, agentId: string, input: WalletChallengeInput) {
  const agent = await findSpendingAgent(tx, payer, agentId);
  const id = createId("spendingAgentWalletChallenge");
  const expiresAt = new Date(Date.now() + WALLET_CHALLENGE_LIFETIME_MS);
  const message = [
    `${new URL(env.BASE_URL).host} asks this wallet to prove its control, so that its x402 payments count against a spending agent.`,
    `Address: ${input.address}`,
    `Spending agent: ${agent.id}`,
    `Mode: ${payer.livemode ? "live" : "test"}`,
    `Challenge: ${id}`,
    `Nonce: ${randomBytes(16).toString("hex")}`,
    `Expires: ${expiresAt.toISOString()}`,
  ].join("\n");
  await tx.spendingAgentWalletChallenge.create({ data: { id, spendingAgentId: agent.id, address: input.address, message, expiresAt } });
  return {
    id,
    object: "wallet_challenge" as const,
    spendingAgentId: agent.id,
    address: input.address,
    message,
    expiresAt: expiresAt.toISOString(),
    livemode: payer.livemode,
  };
}

/** The signed challenge: the address joins the agent's walletAddresses (409 wallet_address_taken if another agent has it). */
export async function proveWallet(tx: Db, payer: Scope, agentId: string, input: ProveWalletInput) {
  const agent = await findSpendingAgent(tx, payer, agentId);
  const [challenge] = await tx.$queryRaw<{ address: string; message: string }[]>`
    UPDATE spending_agent_wallet_challenges SET used_at = now()
     WHERE id = ${input.challengeId} AND spending_agent_id = ${agent.id} AND used_at IS NULL AND expires_at > now()
    RETURNING address, message`;
  if (!challenge) throw new NotFoundError("wallet_challenge", input.challengeId); // unknown, used or expired
  const address = challenge.address as `0x${string}`;
  const signed = await verifyMessage({ address, message: challenge.message, signature: input.signature as `0x${string}` }).catch(
    () => false,
  );
  if (!signed)
    throw new ValidationError(
      `The signature is not ${address}'s personal_sign of the challenge; nothing was changed.`,
      [{ path: "signature", message: "not signed by the challenge's address" }],
      { reason: "wallet_signature_invalid" },
    );
  // The agent's row is updated first (its row lock), only while it is not deleted: a concurrent delete either
  // waits for this proof and then releases the address with the others, or wins and this proof finds no agent.
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE spending_agents
       SET wallet_addresses = CASE WHEN ${address} = ANY(wallet_addresses) THEN wallet_addresses
                                   ELSE array_append(wallet_addresses, ${address}) END,
           updated_at = now()
     WHERE id = ${agent.id} AND deleted_at IS NULL RETURNING id`;
  if (!rows[0]) throw new NotFoundError("spending_agent", agent.id);
  await claimWalletAddresses(tx, payer.livemode, agent.id, [address]);
  return serializeSpendingAgent(await tx.spendingAgent.findUniqueOrThrow({ where: { id: agent.id } }));
}
