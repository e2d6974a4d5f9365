// What the protocol adapters put into the domain's tables, once per server process before it answers a
// request or sends anything (instrumentation.ts): the domain never imports an adapter, so an adapter
// plugs in here. Today: ACP's webhook format (lib/acp/order-webhook.ts) into the sender's table.
import { ACP_WEBHOOK_FORMAT } from "./acp/order-webhook";
import { registerWebhookFormat } from "./webhooks/formats";

export function registerAdapters(): void {
  registerWebhookFormat("acp", ACP_WEBHOOK_FORMAT);
}
