import type { z } from "zod";
import type { WebhookDeliveryAttempt, WebhookEndpoint } from "../generated/prisma/client";
import { publicDeliveryError } from "./delivery-errors";
import type { WebhookDeliveryAttemptObject, WebhookEndpointObject, WEBHOOK_FORMATS } from "./schemas";

/** The endpoint as the API returns it; `secret` only at creation and rotation. */
export function serializeEndpoint(endpoint: WebhookEndpoint, secret?: string) {
  return {
    id: endpoint.id,
    object: "webhook_endpoint" as const,
    url: endpoint.url,
    description: endpoint.description,
    enabledEvents: endpoint.enabledEvents,
    /** "service" or "acp" (ACP order webhooks, docs/acp.md). */
    format: endpoint.format as (typeof WEBHOOK_FORMATS)[number],
    status: endpoint.status as "enabled" | "disabled",
    livemode: endpoint.livemode,
    /** After a rotation: until when the previous secret still signs beside the current one (else null). */
    previousSecretExpiresAt:
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date()
        ? endpoint.previousSecretExpiresAt.toISOString()
        : null,
    createdAt: endpoint.createdAt.toISOString(),
    ...(secret ? { secret } : {}),
  } satisfies z.input<typeof WebhookEndpointObject>;
}

export function serializeAttempt(attempt: WebhookDeliveryAttempt, eventType: string) {
  return {
    id: attempt.id,
    object: "webhook_delivery_attempt" as const,
    eventId: attempt.eventId,
    eventType,
    webhookEndpointId: attempt.endpointId,
    status: attempt.status as "succeeded" | "failed",
    /** 1 for the delivery's first attempt, 2 for its first retry, ... */
    attempt: attempt.attempt,
    responseStatus: attempt.responseStatus,
    durationMs: attempt.durationMs,
    /** A class (delivery-errors.ts: timeout, connection_refused, tls_error, dns_error, ...), never raw text. */
    error: publicDeliveryError(attempt.error),
    attemptedAt: attempt.attemptedAt.toISOString(),
    nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
  } satisfies z.input<typeof WebhookDeliveryAttemptObject>;
}
