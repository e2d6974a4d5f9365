import { payableNetworks } from "../chains/payable-networks";
import type { Db } from "../db";
import { ConflictError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { newSigningSecret } from "../webhooks/signing-secrets";
import type { CreatePaidResourceInput } from "./schemas";
import { checkDiscovery } from "./discovery";
import { checkForwardUrl } from "./forward-request";
import { serializePaidResource } from "./serialize";

export async function createPaidResource(tx: Db, scope: Scope, input: CreatePaidResourceInput) {
  // A forward target passes the SSRF policy of webhook URLs with its own switch (and is checked again at every forward).
  const url = input.url !== undefined ? await checkForwardUrl(input.url) : null;
  checkDiscovery(input.method, input.discovery);
  if (scope.livemode && (await payableNetworks(tx, scope.merchantId, true)).length === 0)
    throw new ConflictError(
      "A live paid resource needs a network to be paid on: set a payout address (POST /v1/x402/payout_addresses) on a live network this service settles on (GET /x402/supported).",
      { reason: "no_payable_network" },
    );
  // Every resource gets a forwarding secret, a `content` one too: it may be pointed at a `url` later.
  const forwarding = newSigningSecret();
  const now = new Date();
  const resource = await tx.paidResource.create({
    data: {
      id: createId("paidResource"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      name: input.name,
      description: input.description ?? null,
      // upto: its amount is its maximum (what a payment may be charged at most; the 402 asks that much).
      amount: input.scheme === "upto" ? input.maxAmount! : input.amount!,
      scheme: input.scheme,
      ...(input.scheme === "upto" ? { maxAmount: input.maxAmount!, unitAmount: input.unitAmount! } : {}),
      currency: input.currency,
      url,
      ...(url === null ? { content: input.content as Prisma.InputJsonValue } : {}),
      method: input.method,
      replayable: input.replayable,
      forwardingSecretCiphertext: forwarding.sealed,
      metadata: input.metadata ?? {},
      active: input.active ?? true,
      listed: input.listed,
      ...(input.discovery ? { discovery: input.discovery as Prisma.InputJsonValue } : {}),
      createdAt: now,
      updatedAt: now,
    },
  });
  return serializePaidResource(resource, forwarding.secret);
}
