// POST /oauth/revoke (RFC 7009): an access token ends itself only; a refresh token ends its whole grant
// (RFC 7009 2.1: "SHOULD also invalidate all access tokens based on the same authorization grant").
// Unknown or already revoked tokens are answered 200 too (2.2), so the endpoint reveals nothing. What it
// did revoke is logged `oauth_revoked` (the grant's user and merchant) in the same transaction.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { transaction, type Db } from "../db";
import { OAuthError } from "./errors";
import { param } from "./public-route";
import { hashToken } from "./secrets";

interface RevokedGrant {
  id: string;
  merchant_id: string;
  user_id: string | null;
}

export async function revokeToken(form: URLSearchParams, origin: RequestOrigin): Promise<void> {
  const token = param(form, "token");
  if (!token) throw new OAuthError("invalid_request", "token is required.");
  const clientId = param(form, "client_id");
  const hash = hashToken(token);
  await transaction(async (tx) => {
    const [access] = await tx.$queryRaw<RevokedGrant[]>`
      UPDATE oauth_access_tokens t SET revoked_at = now() FROM oauth_grants g
       WHERE t.token_hash = ${hash} AND t.revoked_at IS NULL AND g.id = t.grant_id AND (${clientId}::text IS NULL OR g.client_id = ${clientId})
      RETURNING g.id, g.merchant_id, g.user_id`;
    if (access) return logRevoked(tx, access, "access_token", origin);
    const [grant] = await tx.$queryRaw<RevokedGrant[]>`
      UPDATE oauth_grants g SET revoked_at = now(), revoked_reason = 'client' FROM oauth_refresh_tokens r
       WHERE r.token_hash = ${hash} AND g.id = r.grant_id AND g.revoked_at IS NULL AND (${clientId}::text IS NULL OR g.client_id = ${clientId})
      RETURNING g.id, g.merchant_id, g.user_id`;
    if (grant) await logRevoked(tx, grant, "refresh_token", origin);
  });
}

function logRevoked(tx: Db, grant: RevokedGrant, token: "access_token" | "refresh_token", origin: RequestOrigin) {
  return recordActivity(tx, {
    action: "oauth_revoked",
    userId: grant.user_id,
    merchantId: grant.merchant_id,
    origin,
    detail: { grantId: grant.id, via: "client", token },
  });
}
