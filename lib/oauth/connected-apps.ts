// The dashboard's Connected apps: the grants (consents) of the merchant in the selected mode that still
// hold access, and revoking one (every token of it stops at once: the next /mcp call is 401).
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";

export async function listConnectedApps(db: Db, scope: Scope) {
  const grants = await db.oAuthGrant.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
    include: { client: { select: { id: true, name: true, redirectUris: true } } },
  });
  return grants.map((grant) => ({
    id: grant.id,
    object: "connected_app" as const,
    livemode: grant.livemode,
    clientId: grant.client.id,
    clientName: grant.client.name,
    redirectHosts: [...new Set(grant.client.redirectUris.map(hostOf))],
    scopes: grant.scopes,
    createdAt: grant.createdAt.toISOString(),
    lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
  }));
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

/** Revokes a grant from the dashboard, logged `oauth_revoked` as the signed-in user's act, in the same transaction. */
export async function revokeConnectedApp(tx: Db, scope: Scope, id: string, by: { userId: string; origin: RequestOrigin }) {
  const { count } = await tx.oAuthGrant.updateMany({
    where: { id, merchantId: scope.merchantId, livemode: scope.livemode, revokedAt: null },
    data: { revokedAt: new Date(), revokedReason: "dashboard" },
  });
  if (count !== 1) throw new NotFoundError("connected app", id);
  await recordActivity(tx, {
    action: "oauth_revoked",
    userId: by.userId,
    merchantId: scope.merchantId,
    origin: by.origin,
    detail: { grantId: id, via: "dashboard", livemode: scope.livemode },
  });
  return { id, object: "connected_app" as const, revoked: true };
}
