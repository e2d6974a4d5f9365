import { env } from "../env";
import type { z } from "zod";
import type { PaidResource } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import type { PaidResourceObject as PaidResourceSchema } from "./schemas";

export function serializePaidResource(resource: PaidResource) {
  return {
    id: resource.id,
    object: "paid_resource" as const,
    name: resource.name,
    description: resource.description,
    amount: resource.amount,
    currency: resource.currency,
    url: resource.url,
    content: resource.content ?? null,
    metadata: resource.metadata as StoredMetadata,
    active: resource.active,
    /** Where payers reach it: x402 (PAYMENT-REQUIRED / PAYMENT-SIGNATURE / X-PAYMENT) and MPP (Payment auth scheme). */
    x402Url: `${env.BASE_URL}/x402/r/${resource.id}`,
    mppUrl: `${env.BASE_URL}/mpp/r/${resource.id}`,
    livemode: resource.livemode,
    createdAt: resource.createdAt.toISOString(),
    updatedAt: resource.updatedAt.toISOString(),
  } satisfies z.input<typeof PaidResourceSchema>;
}
