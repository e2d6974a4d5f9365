// A new API key: a secret key (`sk_`, full access) or, with permissions, a restricted key (`rk_`). Each key has
// its own rate-limit bucket, so a merchant may hold at most API_KEYS_MAX_ACTIVE active keys per mode: the cap is
// counted under a lock on the merchant's row (FOR NO KEY UPDATE: it queues concurrent key creations of that
// merchant, and nothing else), so concurrent creations can never pass it together. A key on its way out (rolled,
// in its grace period) does not count, so a roll never trips the cap.
import type { Db } from "../db";
import { env } from "../env";
import { ForbiddenError } from "../errors";
import { createId } from "../ids";
import { generateSecret, hashSecret, visiblePrefix } from "./api-key-secret";
import { storedPermissions, type Permissions } from "./permissions";

export interface CreatedApiKey {
  id: string;
  livemode: boolean;
  /** The secret itself: returned this once, never stored. */
  secret: string;
  prefix: string;
}

export interface KeySettings {
  /** A restricted key's grants; absent: a secret key. */
  permissions?: Permissions | null;
  /** The key a roll replaces. */
  rolledFromId?: string;
  /** The role of the dashboard user making it (absent: the merchant's creation or the operator CLI). */
  createdByRole?: string;
  /** The spending agent whose policy governs what the key pays (docs/spending-policies.md). */
  spendingAgentId?: string | null;
}

export class ApiKeyLimitError extends ForbiddenError {
  constructor(livemode: boolean, limit: number) {
    super(
      `This merchant already has ${limit} active ${livemode ? "live" : "test"} API keys, the most allowed per mode: revoke one before creating another.`,
    );
    Object.assign(this.details, { reason: "api_key_limit", limit, livemode });
  }
}

export async function createApiKey(
  tx: Db,
  merchantId: string,
  livemode: boolean,
  name?: string | null,
  settings: KeySettings = {},
): Promise<CreatedApiKey> {
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId} FOR NO KEY UPDATE`;
  if (!settings.rolledFromId) {
    const active = await tx.apiKey.count({ where: { merchantId, livemode, revokedAt: null, expiresAt: null } });
    if (active >= env.API_KEYS_MAX_ACTIVE) throw new ApiKeyLimitError(livemode, env.API_KEYS_MAX_ACTIVE);
  }
  const secret = generateSecret(livemode, settings.permissions ? "restricted" : "secret");
  const key = await tx.apiKey.create({
    data: {
      id: createId("apiKey"),
      merchantId,
      livemode,
      secretHash: hashSecret(secret),
      prefix: visiblePrefix(secret),
      last4: secret.slice(-4),
      name: name ?? null,
      permissions: settings.permissions ? storedPermissions(settings.permissions) : undefined,
      rolledFromId: settings.rolledFromId ?? null,
      createdByRole: settings.createdByRole ?? null,
      spendingAgentId: settings.spendingAgentId ?? null,
    },
  });
  return { id: key.id, livemode, secret, prefix: key.prefix };
}
