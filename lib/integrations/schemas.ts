// The inbound wallet webhook's event, and the responses of GET /v1/integrations and of that webhook.
import { z } from "zod";

/** An event of the wallet provider (POST /v1/integrations/wallet/webhook), signed in X-Service-Signature. */
export const WalletEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  data: z
    .object({
      paymentIntentId: z.string().min(1).max(64).optional(),
      amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      reason: z.string().min(1).max(500).optional(),
    })
    .passthrough()
    .default({}),
});

/** One protocol or surface this deployment speaks; each kind adds its own details beside these fields. */
export const IntegrationObject = z
  .looseObject({ id: z.string(), versions: z.array(z.string()), endpoints: z.record(z.string(), z.string()) })
  .meta({ id: "Integration" });

export const IntegrationList = z.object({ object: z.literal("list"), data: z.array(IntegrationObject) }).meta({ id: "IntegrationList" });

export const WalletWebhookResult = z
  .object({
    received: z.literal(true),
    duplicate: z.literal(true).optional(),
    ignored: z.literal(true).optional(),
    refundId: z.string().optional(),
    rejected: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: "WalletWebhookResult" });

/** A dispute event of the live rail's provider (POST /v1/integrations/rail/disputes; the test rail's format, docs/disputes.md). */
export const RailDisputeEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.enum(["dispute.created", "dispute.closed"]),
  data: z.object({
    paymentIntentId: z.string().min(1).max(64),
    reason: z.string().min(1).max(64).optional(),
    inquiry: z.boolean().optional(),
    outcome: z.enum(["won", "lost"]).optional(),
  }),
});

export const RailDisputeWebhookResult = z
  .object({
    received: z.literal(true),
    duplicate: z.literal(true).optional(),
    /** The dispute as GET /v1/disputes/:id shows it after the event. */
    dispute: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "RailDisputeWebhookResult" });
