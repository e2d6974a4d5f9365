// The test rail's provider webhook for disputes (docs/disputes.md, "Live mode"): with LIVE_RAIL=test (staging) the
// provider stands in for a card network's dispute feed. Its events are signed as the wallet provider's are
// (WALLET_WEBHOOK_SECRET, the t=,v1= scheme in X-Service-Signature) and shaped like them:
// `{ id, type: "dispute.created" | "dispute.closed", data: { paymentIntentId, reason?, inquiry?, outcome? } }`.
import { ServiceError, verifyWebhook } from "agent-payments-sdk";
import { z } from "zod";
import { env } from "../env";
import { parseOrThrow } from "../validation/parse";
import { RailSignatureError, type RailDisputeNotice, type RailDisputes } from "./rail";

const Notice = z.discriminatedUnion("type", [
  z.object({
    id: z.string().min(1).max(255),
    type: z.literal("dispute.created"),
    data: z.object({
      paymentIntentId: z.string().min(1).max(64),
      reason: z.string().min(1).max(64).default("general"),
      inquiry: z.boolean().default(false),
    }),
  }),
  z.object({
    id: z.string().min(1).max(255),
    type: z.literal("dispute.closed"),
    data: z.object({ paymentIntentId: z.string().min(1).max(64), outcome: z.enum(["won", "lost"]) }),
  }),
]);

export const testRailDisputes: RailDisputes = {
  readNotice(rawBody: string, headers: Headers): RailDisputeNotice {
    if (!env.WALLET_WEBHOOK_SECRET) throw new RailSignatureError("The rail's dispute webhook is not configured (WALLET_WEBHOOK_SECRET).");
    let payload: unknown;
    try {
      payload = verifyWebhook(rawBody, headers.get("x-service-signature") ?? "", env.WALLET_WEBHOOK_SECRET);
    } catch (err) {
      if (ServiceError.is(err)) throw new RailSignatureError(`Invalid rail webhook signature: ${err.message}`);
      throw err;
    }
    const event = parseOrThrow(Notice, payload, "rail dispute event");
    return event.type === "dispute.created"
      ? {
          id: event.id,
          kind: "opened",
          paymentIntentId: event.data.paymentIntentId,
          reason: event.data.reason,
          inquiry: event.data.inquiry,
        }
      : { id: event.id, kind: "closed", paymentIntentId: event.data.paymentIntentId, outcome: event.data.outcome };
  },
};
