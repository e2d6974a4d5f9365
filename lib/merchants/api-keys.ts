// The merchant's API keys as the dashboard manages them: list (by visible prefix, never the secret),
// create (createApiKey: the secret is returned this once) and revoke. Revoking is one atomic UPDATE;
// authentication reads `revoked_at IS NULL` on every request, so a revoked key gets 401 at once.
import { z } from "zod";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { ApiKey } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { createApiKey } from "./create-api-key";

export const CreateApiKeyBody = z.object({ name: z.string().trim().min(1).max(100).optional() }).strict();
export type CreateApiKeyInput = z.output<typeof CreateApiKeyBody>;

export function serializeApiKey(key: ApiKey) {
  return {
    id: key.id,
    object: "api_key" as const,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    livemode: key.livemode,
    status: key.revokedAt ? ("revoked" as const) : ("active" as const),
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
export type ApiKeyObject = ReturnType<typeof serializeApiKey>;

/** Active keys first, then revoked ones; newest first in each. */
export async function listApiKeys(db: Db, scope: Scope): Promise<ApiKeyObject[]> {
  const keys = await db.apiKey.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return keys.map(serializeApiKey).sort((a, b) => Number(a.status === "revoked") - Number(b.status === "revoked"));
}

/** A new key of the scope's mode; the response carries `secret`, shown once. */
export async function createScopedApiKey(tx: Db, scope: Scope, input: CreateApiKeyInput) {
  const created = await createApiKey(tx, scope.merchantId, scope.livemode, input.name);
  const key = await tx.apiKey.findUniqueOrThrow({ where: { id: created.id } });
  return { ...serializeApiKey(key), secret: created.secret };
}

/** Revokes the key (again: a no-op that answers the same). Another merchant's or mode's key: 404. */
export async function revokeApiKey(tx: Db, scope: Scope, id: string): Promise<ApiKeyObject> {
  const inScope = { id, merchantId: scope.merchantId, livemode: scope.livemode };
  await tx.apiKey.updateMany({ where: { ...inScope, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await tx.apiKey.findFirst({ where: inScope });
  if (!key) throw new NotFoundError("api_key", id);
  return serializeApiKey(key);
}
