// POST /oauth/revoke (RFC 7009): an access token ends itself only; a refresh token ends its whole grant
// (RFC 7009 2.1: "SHOULD also invalidate all access tokens based on the same authorization grant").
// Unknown or already revoked tokens are answered 200 too (2.2), so the endpoint reveals nothing.
import { sql, statement } from "../db";
import { OAuthError } from "./errors";
import { param } from "./public-route";
import { revokeGrant } from "./revoke-grant";
import { hashToken } from "./secrets";

const REVOKE_ACCESS = statement(
  "oauth_revoke_access",
  `UPDATE oauth_access_tokens t SET revoked_at = now() FROM oauth_grants g
    WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND g.id = t.grant_id AND ($2::text IS NULL OR g.client_id = $2)`,
);
const REFRESH_GRANT = statement(
  "oauth_refresh_grant",
  "SELECT g.id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = $1 AND ($2::text IS NULL OR g.client_id = $2)",
);

export async function revokeToken(form: URLSearchParams): Promise<void> {
  const token = param(form, "token");
  if (!token) throw new OAuthError("invalid_request", "token is required.");
  const clientId = param(form, "client_id");
  const hash = hashToken(token);
  if ((await sql().count(REVOKE_ACCESS, [hash, clientId])) > 0) return;
  const [grant] = await sql().rows<{ id: string }>(REFRESH_GRANT, [hash, clientId]);
  if (grant) await revokeGrant(grant.id, "client");
}
