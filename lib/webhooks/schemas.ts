import { z } from "zod";
import { EVENT_TYPES } from "../events/types";
import { ListQuery } from "../validation/common";

export const WEBHOOK_FORMATS = ["service", "acp"] as const;

const EventTypeList = z.array(z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(", ")}` })).max(EVENT_TYPES.length * 2);

export const CreateEndpointBody = z
  .object({
    url: z.string().min(1).max(2048),
    enabledEvents: EventTypeList.optional(),
    description: z.string().max(500).optional(),
    /** "service" (default): the service's events; "acp": ACP order webhooks to an agent platform (docs/acp.md). */
    format: z.enum(WEBHOOK_FORMATS).optional(),
  })
  .strict();
export type CreateEndpointInput = z.output<typeof CreateEndpointBody>;

export const UpdateEndpointBody = z
  .object({
    url: z.string().min(1).max(2048).optional(),
    enabledEvents: EventTypeList.optional(),
    description: z.string().max(500).nullable().optional(),
    status: z.enum(["enabled", "disabled"]).optional(),
  })
  .strict();
export type UpdateEndpointInput = z.output<typeof UpdateEndpointBody>;

export const ListEndpointsQuery = ListQuery;
export const ListDeliveriesQuery = ListQuery;

export const ResendEventBody = z.object({ webhookEndpointId: z.string().min(1).max(64).optional() }).strict();

/** Stripe lets the old secret live on for a chosen time when rolling; ours defaults to 24 h. */
export const RotateSecretBody = z
  .object({
    previousSecretExpiresInSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(24 * 3600),
  })
  .strict();

/** Dashboard "Send test event": the event type (default: the endpoint's first subscribed type). */
export const SendTestEventBody = z
  .object({ type: z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(", ")}` }).optional() })
  .strict();

/** "Replay all failed since ...": an ISO date-time, at most 30 days back (the default: 24 h ago). */
export const ReplayFailedBody = z
  .object({ since: z.iso.datetime({ offset: true }).optional() })
  .strict()
  .transform((body) => ({ since: body.since ? new Date(body.since) : new Date(Date.now() - 24 * 3600 * 1000) }));
