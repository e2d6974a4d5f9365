import { z } from "zod";
import { DEFAULT_EVENT_TYPES, EVENT_TYPES } from "../events/types";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";
import { DELIVERY_ERROR_CLASSES } from "./delivery-errors";

export const WEBHOOK_FORMATS = ["service", "acp", "acp-2026-04-17"] as const;

const EventTypeList = z.array(z.enum(EVENT_TYPES, { message: `must be one of: ${EVENT_TYPES.join(", ")}` })).max(EVENT_TYPES.length * 2);

export const CreateEndpointBody = z
  .object({
    url: z.string().min(1).max(2048),
    enabledEvents: EventTypeList.optional(),
    description: z.string().max(500).optional(),
    /** "service" (default): the service's events; "acp": ACP order webhooks to an agent platform (docs/acp.md), "acp-2026-04-17" with the full Order. */
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
  .object({ type: z.enum(DEFAULT_EVENT_TYPES, { message: `must be one of: ${DEFAULT_EVENT_TYPES.join(", ")}` }).optional() })
  .strict();

/** "Replay all failed since ...": an ISO date-time, at most 30 days back (the default: 24 h ago). */
export const ReplayFailedBody = z
  .object({ since: z.iso.datetime({ offset: true }).optional() })
  .strict()
  .transform((body) => ({ since: body.since ? new Date(body.since) : new Date(Date.now() - 24 * 3600 * 1000) }));

// Responses.

export const WebhookEndpointObject = z
  .object({
    id: z.string(),
    object: z.literal("webhook_endpoint"),
    url: z.string(),
    description: z.string().nullable(),
    enabledEvents: z.array(z.string()),
    /** "service" or "acp" (ACP order webhooks, docs/acp.md). */
    format: z.enum(WEBHOOK_FORMATS),
    status: z.enum(["enabled", "disabled"]),
    livemode: z.boolean(),
    /** After a rotation: until when the previous secret still signs beside the current one (else null). */
    previousSecretExpiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
    /** The signing secret: only in the response that created or rotated it. */
    secret: z.string().optional(),
  })
  .meta({ id: "WebhookEndpoint" });

export const WebhookEndpointList = listOf(WebhookEndpointObject, "WebhookEndpointList");

export const DeletedWebhookEndpoint = z
  .object({ id: z.string(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookEndpoint" });

export const WebhookDeliveryAttemptObject = z
  .object({
    id: z.string(),
    object: z.literal("webhook_delivery_attempt"),
    eventId: z.string(),
    eventType: z.string(),
    webhookEndpointId: z.string(),
    status: z.enum(["succeeded", "failed"]),
    /** 1 for the delivery's first attempt, 2 for its first retry, ... */
    attempt: z.number().int(),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    /** Why the attempt failed, as a class, never raw text. */
    error: z.enum(DELIVERY_ERROR_CLASSES).nullable(),
    attemptedAt: Timestamp,
    nextAttemptAt: Timestamp.nullable(),
  })
  .meta({ id: "WebhookDeliveryAttempt" });

export const WebhookDeliveryAttemptList = listOf(WebhookDeliveryAttemptObject, "WebhookDeliveryAttemptList");

export const EventResendObject = z
  .object({ object: z.literal("event_resend"), eventId: z.string(), queuedDeliveries: z.number().int() })
  .meta({ id: "EventResend" });

export const WebhookReplayObject = z
  .object({ object: z.literal("webhook_replay"), webhookEndpointId: z.string(), since: Timestamp, requeuedDeliveries: z.number().int() })
  .meta({ id: "WebhookReplay" });

export const WebhookEndpointHealthObject = z
  .object({
    object: z.literal("webhook_endpoint_health"),
    webhookEndpointId: z.string(),
    windowHours: z.literal(24),
    attempts: z.number().int(),
    succeeded: z.number().int(),
    /** succeeded / attempts (0..1), null without attempts. */
    successRate: z.number().nullable(),
    /** Median durationMs of the attempts, null without attempts. */
    p50LatencyMs: z.number().nullable(),
  })
  .meta({ id: "WebhookEndpointHealth" });
