// The live rail's dispute webhook: authenticated by the provider's signature, never rate limited (docs/disputes.md
// "Live mode"); the composition is lib/integrations/rail-dispute-webhook-route.ts.
import { railDisputeWebhookRoute } from "@/lib/integrations/rail-dispute-webhook-route";

export const POST = railDisputeWebhookRoute;

export const dynamic = "force-dynamic";
