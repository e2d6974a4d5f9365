// Inbound wallet-provider webhook: authenticated by its signature, never rate limited (docs/api-reference.md "Events" rule 3);
// the composition is lib/integrations/wallet-webhook-route.ts.
import { walletWebhookRoute } from "@/lib/integrations/wallet-webhook-route";

export const POST = walletWebhookRoute;

export const dynamic = "force-dynamic";
