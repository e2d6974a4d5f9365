// The operations of /v1/integrations/wallet/webhook (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { WalletEvent, WalletWebhookResult } from "@/lib/integrations/schemas";
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "receiveWalletWebhook",
  summary: "Inbound wallet-provider webhook, signed in X-Service-Signature",
  tag: "Webhooks",
  auth: { kind: "signature", header: "X-Service-Signature", description: "t=<unix>,v1=<hex HMAC-SHA256>" },
  body: WalletEvent,
  bodyName: "WalletEvent",
  responses: { 200: WalletWebhookResult },
});
