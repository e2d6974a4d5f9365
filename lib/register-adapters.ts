// What the protocol adapters put into the domain's tables, once per server process before it answers a
// request or sends anything (instrumentation.ts): the domain never imports an adapter, so an adapter
// plugs in here: ACP's webhook format (lib/acp/order-webhook.ts) into the sender's table, and live x402's
// on-chain rail (lib/x402/evm-rail.ts) into the rails by name, which the charge engine's recovery asks.
import { settleApprovedSession } from "./acp/approval-outcome";
import { ACP_2026_04_17_WEBHOOK_FORMAT, ACP_WEBHOOK_FORMAT } from "./acp/order-webhook";
import { onApprovalDecided } from "./approvals/decided-hooks";
import { registerRail } from "./rails";
import { registerWebhookFormat } from "./webhooks/formats";
import { x402EvmRail } from "./x402/evm-rail";

export function registerAdapters(): void {
  registerWebhookFormat("acp", ACP_WEBHOOK_FORMAT);
  registerWebhookFormat("acp-2026-04-17", ACP_2026_04_17_WEBHOOK_FORMAT);
  registerRail(x402EvmRail);
  onApprovalDecided("acp", settleApprovedSession); // an ACP session waiting for the payer's approval completes or ends with it
}
