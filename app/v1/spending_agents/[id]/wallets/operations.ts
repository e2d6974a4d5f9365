// The operations of /v1/spending_agents/{id}/wallets (lib/openapi/operation.ts).
import { operation } from "@/lib/openapi/operation";
import { ProveWalletBody, SpendingAgentObject } from "@/lib/spending-policies/schemas";

export const POST = operation({
  operationId: "proveSpendingAgentWallet",
  summary: "Add a wallet address to the agent with its signed challenge (proof of control, live mode included)",
  tag: "Spending agents",
  auth: "secret",
  permission: ["spending_agents", "write"],
  body: ProveWalletBody,
  bodyName: "ProveSpendingAgentWalletParams",
  responses: { 200: SpendingAgentObject },
  sdk: { resource: "spendingAgents", method: "proveWallet", ids: "spendingAgentId" },
});
