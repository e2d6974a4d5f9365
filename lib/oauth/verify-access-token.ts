// The /mcp bearer check for an OAuth access token: live token of a live grant, bound to this resource.
// One statement finds it and stamps the grant's last use (the dashboard's "last used").
import { sql, statement } from "../db";
import { hashToken } from "./secrets";

export interface OAuthPrincipal {
  grantId: string;
  clientId: string;
  merchantId: string;
  livemode: boolean;
  scopes: string[];
  resource: string;
  expiresAt: Date;
}

const FIND_AND_TOUCH = statement(
  "oauth_access_token_touch",
  `UPDATE oauth_grants g SET last_used_at = now() FROM oauth_access_tokens t
    WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND g.id = t.grant_id AND g.revoked_at IS NULL
   RETURNING g.id, g.client_id, g.merchant_id, g.livemode, g.scopes, g.resource, t.expires_at`,
);

export async function verifyAccessToken(token: string): Promise<OAuthPrincipal | null> {
  const [row] = await sql().rows<{
    id: string;
    client_id: string;
    merchant_id: string;
    livemode: boolean;
    scopes: string[];
    resource: string;
    expires_at: Date;
  }>(FIND_AND_TOUCH, [hashToken(token)]);
  if (!row) return null;
  return {
    grantId: row.id,
    clientId: row.client_id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    scopes: row.scopes,
    resource: row.resource,
    expiresAt: row.expires_at,
  };
}
