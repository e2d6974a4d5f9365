// Webhook endpoint records: create, read, list, update, delete, rotate the signing secret.
import type { Db } from "../db";
import { env } from "../env";
import { NotFoundError, ValidationError } from "../errors";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import { checkWebhookUrl } from "../security/address-policy";
import type { CreateEndpointInput, UpdateEndpointInput } from "./schemas";
import { serializeEndpoint } from "./serialize";
import { newSigningSecret, ROTATION_OVERLAP_MS } from "./signing-secrets";

const uniqueTypes = (types: string[] | undefined) => [...new Set(types ?? [])];

async function findEndpoint(db: Db, scope: Scope, id: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!endpoint) throw new NotFoundError("webhook endpoint", id);
  return endpoint;
}

/**
 * Endpoints per merchant and mode are capped (WEBHOOK_MAX_ENDPOINTS, 16 as Stripe): each one multiplies
 * every event into an attempt, and the sender shares its slots per merchant. Creates of one merchant are
 * serialised on its row, so two at once cannot both take the last place.
 */
async function requireRoomForEndpoint(tx: Db, scope: Scope) {
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${scope.merchantId} FOR UPDATE`;
  const count = await tx.webhookEndpoint.count({ where: { merchantId: scope.merchantId, livemode: scope.livemode } });
  if (count >= env.WEBHOOK_MAX_ENDPOINTS) {
    const mode = scope.livemode ? "live" : "test";
    throw new ValidationError(
      `This account already has the maximum of ${env.WEBHOOK_MAX_ENDPOINTS} ${mode}-mode webhook endpoints; delete one (or send several event types to one endpoint) before adding another.`,
      [{ path: "url", message: `at most ${env.WEBHOOK_MAX_ENDPOINTS} ${mode}-mode webhook endpoints per account` }],
    );
  }
}

export async function createEndpoint(tx: Db, scope: Scope, input: CreateEndpointInput) {
  const url = await checkWebhookUrl(input.url);
  await requireRoomForEndpoint(tx, scope);
  const { secret, sealed } = newSigningSecret();
  const endpoint = await tx.webhookEndpoint.create({
    data: {
      id: createId("webhookEndpoint"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      url,
      description: input.description ?? null,
      enabledEvents: uniqueTypes(input.enabledEvents),
      format: input.format ?? "service",
      status: "enabled",
      secretCiphertext: sealed,
    },
  });
  return serializeEndpoint(endpoint, secret);
}

export async function getEndpoint(db: Db, scope: Scope, id: string) {
  return serializeEndpoint(await findEndpoint(db, scope, id));
}

export async function listEndpoints(db: Db, scope: Scope, query: { limit: number; startingAfter?: string }) {
  return listNewestFirst(db.webhookEndpoint, { scope: { merchantId: scope.merchantId, livemode: scope.livemode } }, query, (row) =>
    serializeEndpoint(row),
  );
}

export async function updateEndpoint(tx: Db, scope: Scope, id: string, input: UpdateEndpointInput) {
  await findEndpoint(tx, scope, id);
  const endpoint = await tx.webhookEndpoint.update({
    where: { id },
    data: {
      ...(input.url !== undefined ? { url: await checkWebhookUrl(input.url) } : {}),
      ...(input.enabledEvents !== undefined ? { enabledEvents: uniqueTypes(input.enabledEvents) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      // Re-enabling starts a fresh failure count.
      ...(input.status !== undefined ? { status: input.status, ...(input.status === "enabled" ? { failingSince: null } : {}) } : {}),
    },
  });
  return serializeEndpoint(endpoint);
}

export async function deleteEndpoint(tx: Db, scope: Scope, id: string) {
  await findEndpoint(tx, scope, id);
  await tx.webhookEndpoint.delete({ where: { id } }); // its queued deliveries go with it
  return { id, object: "webhook_endpoint" as const, deleted: true };
}

export async function rotateEndpointSecret(tx: Db, scope: Scope, id: string, previousSecretExpiresInSeconds = ROTATION_OVERLAP_MS / 1000) {
  const current = await findEndpoint(tx, scope, id);
  const { secret, sealed } = newSigningSecret();
  const endpoint = await tx.webhookEndpoint.update({
    where: { id },
    data: {
      secretCiphertext: sealed,
      previousSecretCiphertext: current.secretCiphertext,
      previousSecretExpiresAt: new Date(Date.now() + previousSecretExpiresInSeconds * 1000),
    },
  });
  return serializeEndpoint(endpoint, secret);
}
