// Who calls /mcp: an OAuth access token (its grant's merchant, mode and scopes) or the merchant's API key
// (its mode, every scope; a restricted key's grants decide which tools it sees). `actor` names the caller for
// idempotency records: a key's id, or the grant. `bucket` names its rate-limit bucket (the one an API key's /v1
// calls take from, or the grant's) and the holder of its tool-call slots.
import { bearerToken } from "../http/authenticate";
import { sql, statement } from "../db";
import { hashSecret, looksLikeSecret } from "../merchants/api-key-secret";
import { mcpResource, type Scope as OAuthScope } from "../oauth/config";
import { verifyAccessToken } from "../oauth/verify-access-token";

export interface McpPrincipal {
  merchantId: string;
  livemode: boolean;
  scopes: OAuthScope[];
  actor: string;
  /** Its rate-limit bucket: `key:<api key id>` as on /v1 (lib/http/authenticate.ts), or `oauth:<grant id>`. */
  bucket: string;
  /** The OAuth client, or "api_key". */
  clientId: string;
  token: string;
  expiresAt?: number;
  /** A restricted API key's grants (docs/restricted-keys.md); null for a secret key or an OAuth token. */
  permissions: Record<string, string> | null;
}

const FIND_KEY = statement(
  "mcp_find_key",
  "SELECT id, merchant_id, livemode, permissions FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())",
);

/** The caller, or null (no credential: 401 without an error code) / "invalid" (401 invalid_token). */
export async function mcpPrincipal(req: Request): Promise<McpPrincipal | null | "invalid"> {
  const token = bearerToken(req);
  if (!token) return req.headers.has("authorization") ? "invalid" : null;
  if (looksLikeSecret(token)) {
    type KeyRow = { id: string; merchant_id: string; livemode: boolean; permissions: Record<string, string> | null };
    const [key] = await sql().rows<KeyRow>(FIND_KEY, [hashSecret(token)]);
    if (!key) return "invalid";
    const { merchant_id: merchantId, livemode, permissions } = key;
    const bucket = `key:${key.id}`;
    return { merchantId, livemode, scopes: ["read", "write"], actor: key.id, bucket, clientId: "api_key", token, permissions };
  }
  if (token.length > 200) return "invalid";
  const grant = await verifyAccessToken(token);
  if (!grant || grant.resource !== mcpResource()) return "invalid";
  return {
    merchantId: grant.merchantId,
    livemode: grant.livemode,
    scopes: grant.scopes.filter((s): s is OAuthScope => s === "read" || s === "write"),
    actor: `oauth:${grant.grantId}`,
    bucket: `oauth:${grant.grantId}`,
    clientId: grant.clientId,
    token,
    expiresAt: Math.floor(grant.expiresAt.getTime() / 1000),
    permissions: null,
  };
}
