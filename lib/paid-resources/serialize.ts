import type { z } from "zod";
import type { PaidResource } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import { paidResourceUrl } from "./paid-content";
import type { DiscoveryInput, PaidResourceMethod, PaidResourceObject as PaidResourceSchema } from "./schemas";

/** `forwardingSecret` only in the answer that made it (creation, rotation). */
export function serializePaidResource(resource: PaidResource, forwardingSecret?: string) {
  return {
    id: resource.id,
    object: "paid_resource" as const,
    name: resource.name,
    description: resource.description,
    amount: resource.amount,
    scheme: resource.scheme as "exact" | "upto",
    maxAmount: resource.maxAmount,
    unitAmount: resource.unitAmount,
    currency: resource.currency,
    url: resource.url,
    content: resource.content ?? null,
    method: resource.method as PaidResourceMethod,
    replayable: resource.replayable,
    ...(forwardingSecret ? { forwardingSecret } : {}),
    forwardingSecretSet: resource.forwardingSecretCiphertext !== null,
    previousForwardingSecretExpiresAt: resource.previousForwardingSecretExpiresAt?.toISOString() ?? null,
    metadata: resource.metadata as StoredMetadata,
    active: resource.active,
    listed: resource.listed,
    discovery: (resource.discovery as DiscoveryInput | null) ?? null,
    /** Where payers reach it: x402 (PAYMENT-REQUIRED / PAYMENT-SIGNATURE / X-PAYMENT) and MPP (Payment auth scheme). */
    x402Url: paidResourceUrl("x402", resource.id),
    mppUrl: paidResourceUrl("mpp", resource.id),
    livemode: resource.livemode,
    createdAt: resource.createdAt.toISOString(),
    updatedAt: resource.updatedAt.toISOString(),
  } satisfies z.input<typeof PaidResourceSchema>;
}
