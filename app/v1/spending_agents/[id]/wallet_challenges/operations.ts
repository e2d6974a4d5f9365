// The operations of /v1/spending_agents/{id}/wallet_challenges (lib/openapi/operation.ts).
import { operation } from "@/lib/openapi/operation";
import { WalletChallengeBody, WalletChallengeObject } from "@/lib/spending-policies/schemas";

export const POST = operation({
  operationId: "createWalletChallenge",
  summary: "Issue a challenge for a wallet to sign (EIP-191), proving control of an address the agent will list",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  body: WalletChallengeBody,
  status: 201,
  bodyName: "CreateWalletChallengeParams",
  responses: { 201: WalletChallengeObject },
  sdk: { resource: "spendingAgents", method: "createWalletChallenge", ids: "spendingAgentId" },
});
