import type { Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { checkWebhookUrl } from "../webhooks/address-policy";
import type { CreatePaidResourceInput } from "./schemas";
import { serializePaidResource } from "./serialize";

export async function createPaidResource(tx: Db, scope: Scope, input: CreatePaidResourceInput) {
  // A forward target passes the same SSRF policy as webhook URLs (and is checked again at every forward).
  const url = input.url !== undefined ? await checkWebhookUrl(input.url) : null;
  const now = new Date();
  const resource = await tx.paidResource.create({
    data: {
      id: createId("paidResource"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      name: input.name,
      description: input.description ?? null,
      amount: input.amount,
      currency: input.currency,
      url,
      ...(url === null ? { content: input.content as Prisma.InputJsonValue } : {}),
      metadata: input.metadata ?? {},
      active: input.active ?? true,
      createdAt: now,
      updatedAt: now,
    },
  });
  return serializePaidResource(resource);
}
