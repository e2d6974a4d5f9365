// The merchant's API keys as the dashboard and the operator CLI manage them: list (masked: prefix + last4, never
// the secret), create a secret key or a restricted one (createApiKey: the secret is returned this once), roll and
// revoke, each with its account activity row in the same transaction. Revoking and rolling are one atomic UPDATE
// that can succeed once; authentication reads `revoked_at IS NULL` and the grace period's `expires_at` on every
// request, so a revoked key gets 401 at once and a rolled one when its grace ends.
import { z } from "zod";
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import type { ApiKey } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import { createApiKey } from "./create-api-key";
import { normalizePermissions, PermissionsInput } from "./permissions";

export const CreateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    /** Present: a restricted key (`rk_`) with these grants; absent: a secret key (`sk_`). */
    permissions: PermissionsInput.optional(),
    /** The merchant's spending agent whose policy governs what this key pays as a payer (docs/spending-policies.md). */
    spendingAgentId: z.string().min(1).max(64).optional(),
  })
  .strict();
export type CreateApiKeyInput = z.output<typeof CreateApiKeyBody>;

/** Seven days, as the longest grace Stripe offers when it rolls a key. */
export const ROLL_GRACE_MAX_SECONDS = 7 * 24 * 3600;

export const RollApiKeyBody = z
  .object({
    /** How long the old secret keeps working (0, the default: it stops at once). */
    expiresInSeconds: z.number().int().min(0).max(ROLL_GRACE_MAX_SECONDS).optional(),
  })
  .strict();
export type RollApiKeyInput = z.output<typeof RollApiKeyBody>;

/** Who acts, for the activity log: the dashboard user and the request's origin, or the operator CLI. */
export interface KeyActor {
  userId?: string | null;
  /** The dashboard user's role in the merchant, recorded on the key it makes (lib/x402/payout-addresses.ts reads it). */
  role?: string;
  origin?: RequestOrigin;
  via?: "dashboard" | "cli";
}

export type KeyStatus = "active" | "expiring" | "expired" | "revoked";

function statusOf(key: ApiKey, now = Date.now()): KeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt) return key.expiresAt.getTime() > now ? "expiring" : "expired";
  return "active";
}

export function serializeApiKey(key: ApiKey) {
  return {
    id: key.id,
    object: "api_key" as const,
    name: key.name,
    type: key.permissions ? ("restricted" as const) : ("secret" as const),
    prefix: key.prefix,
    last4: key.last4,
    livemode: key.livemode,
    /** A restricted key's grants, every resource named; null for a secret key (full access). */
    permissions: key.permissions ? normalizePermissions(key.permissions as Record<string, unknown>) : null,
    status: statusOf(key),
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    rolledFromId: key.rolledFromId,
    spendingAgentId: key.spendingAgentId,
  };
}
export type ApiKeyObject = ReturnType<typeof serializeApiKey>;

const ORDER: Record<KeyStatus, number> = { active: 0, expiring: 1, expired: 2, revoked: 3 };

/** Active keys first, then those in a grace period, then the ended ones; newest first in each. */
export async function listApiKeys(db: Db, scope: Scope): Promise<ApiKeyObject[]> {
  const keys = await db.apiKey.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return keys.map(serializeApiKey).sort((a, b) => ORDER[a.status] - ORDER[b.status]);
}

function activityOf(actor: KeyActor, scope: Scope, action: string, detail: Record<string, string | number | boolean | null>) {
  return {
    action,
    userId: actor.userId ?? null,
    merchantId: scope.merchantId,
    origin: actor.origin,
    detail: { ...detail, livemode: scope.livemode, via: actor.via ?? "dashboard" },
  };
}

/** A new key of the scope's mode (restricted when permissions are given); the response carries `secret`, shown once. */
export async function createScopedApiKey(tx: Db, scope: Scope, input: CreateApiKeyInput, actor: KeyActor = {}) {
  const created = await createApiKey(tx, scope.merchantId, scope.livemode, input.name, {
    permissions: input.permissions,
    createdByRole: actor.role,
    spendingAgentId: await requireOwnSpendingAgent(tx, scope, input.spendingAgentId), // another merchant's: 404
  });
  const key = await tx.apiKey.findUniqueOrThrow({ where: { id: created.id } });
  const object = serializeApiKey(key);
  await recordActivity(tx, activityOf(actor, scope, "api_key_created", { apiKeyId: key.id, type: object.type, prefix: key.prefix }));
  return { ...object, secret: created.secret };
}

/** Revokes the key (again: a no-op that answers the same). Another merchant's or mode's key: 404. */
export async function revokeApiKey(tx: Db, scope: Scope, id: string, actor: KeyActor = {}): Promise<ApiKeyObject> {
  const inScope = { id, merchantId: scope.merchantId, livemode: scope.livemode };
  const { count } = await tx.apiKey.updateMany({ where: { ...inScope, revokedAt: null }, data: { revokedAt: new Date() } });
  const key = await tx.apiKey.findFirst({ where: inScope });
  if (!key) throw new NotFoundError("api_key", id);
  if (count === 1) await recordActivity(tx, activityOf(actor, scope, "api_key_revoked", { apiKeyId: key.id, prefix: key.prefix }));
  return serializeApiKey(key);
}

/**
 * Rolls a key as Stripe does: a NEW key (new id and secret) with the same name, mode and permissions; the old one
 * stops at once (revoked) or at the end of its grace period (`expires_at`, enforced by authentication). One UPDATE
 * that only an active key not rolled before passes decides, so two concurrent rolls make one new key (the other: 409).
 */
export async function rollApiKey(tx: Db, scope: Scope, id: string, input: RollApiKeyInput, actor: KeyActor = {}) {
  const graceSeconds = input.expiresInSeconds ?? 0;
  const [old] = await tx.$queryRaw<
    { id: string; name: string | null; permissions: unknown; expires_at: Date | null; spending_agent_id: string | null }[]
  >`
    UPDATE api_keys
       SET expires_at = CASE WHEN ${graceSeconds}::int > 0 THEN now() + make_interval(secs => ${graceSeconds}::int) END,
           revoked_at = CASE WHEN ${graceSeconds}::int = 0 THEN now() END
     WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
       AND revoked_at IS NULL AND expires_at IS NULL
     RETURNING id, name, permissions, expires_at, spending_agent_id`;
  if (!old) {
    const exists = await tx.apiKey.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
    if (!exists) throw new NotFoundError("api_key", id);
    throw new ConflictError("This key was already revoked or rolled: roll its replacement instead.", { reason: "key_not_active" });
  }
  const permissions = old.permissions ? normalizePermissions(old.permissions as Record<string, unknown>) : null;
  const created = await createApiKey(tx, scope.merchantId, scope.livemode, old.name, {
    permissions,
    rolledFromId: old.id,
    createdByRole: actor.role,
    spendingAgentId: old.spending_agent_id,
  });
  const [previous, key] = await Promise.all([
    tx.apiKey.findUniqueOrThrow({ where: { id: old.id } }),
    tx.apiKey.findUniqueOrThrow({ where: { id: created.id } }),
  ]);
  await recordActivity(
    tx,
    activityOf(actor, scope, "api_key_rolled", {
      apiKeyId: key.id,
      rolledFromId: old.id,
      prefix: key.prefix,
      previousExpiresAt: old.expires_at?.toISOString() ?? null,
    }),
  );
  return { ...serializeApiKey(key), secret: created.secret, previous: serializeApiKey(previous) };
}
