// POST /oauth/token: the authorization_code and refresh_token grants (OAuth 2.1 4.1.3, 4.3) for public
// clients (client_id in the body, no secret; PKCE S256 proves the code's requester). The client is a registered
// one, or an HTTPS client_id whose metadata document is still valid (lib/oauth/client-metadata-document.ts).
//
// Codes: consumed by ONE atomic UPDATE ... WHERE used_at IS NULL (two concurrent exchanges: one wins),
// committed before anything else is checked, so a failed attempt (wrong verifier, redirect URI, client,
// resource) burns the code too; a code presented again revokes the grant it was exchanged for (OAuth 2.1
// 4.1.2). Refresh tokens: rotated on every use by the same kind of UPDATE; presenting a rotated one again
// revokes the whole family (the grant), for the legitimate holder and the thief alike.
import { sql, statement, transaction } from "../db";
import { createId } from "../ids";
import { isUrlClientId, metadataDocumentClient } from "./client-metadata-document";
import { OAuthError } from "./errors";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { param } from "./public-route";
import { revokeGrant } from "./revoke-grant";
import { hashToken, PKCE_VERIFIER, s256 } from "./secrets";

interface CodeRow {
  client_id: string;
  merchant_id: string;
  user_id: string;
  livemode: boolean;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scopes: string[];
  expired: boolean;
}

const CONSUME_CODE = statement(
  "oauth_consume_code",
  `UPDATE oauth_authorization_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL
   RETURNING client_id, merchant_id, user_id, livemode, redirect_uri, code_challenge, resource, scopes, expires_at <= now() AS expired`,
);
const USED_CODE_GRANT = statement(
  "oauth_used_code_grant",
  "SELECT grant_id FROM oauth_authorization_codes WHERE code_hash = $1 AND used_at IS NOT NULL",
);

interface GrantRow {
  id: string;
  scopes: string[];
  resource: string;
}

const ROTATE_REFRESH = statement(
  "oauth_rotate_refresh",
  `UPDATE oauth_refresh_tokens r SET used_at = now() FROM oauth_grants g
    WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now()
      AND g.id = r.grant_id AND g.revoked_at IS NULL AND g.client_id = $2
   RETURNING g.id, g.scopes, g.resource`,
);
const ROTATED_REFRESH = statement(
  "oauth_rotated_refresh",
  "SELECT grant_id FROM oauth_refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL",
);
const CLIENT_EXISTS = statement("oauth_client_exists", "SELECT 1 FROM oauth_clients WHERE id = $1");

export async function tokenEndpoint(form: URLSearchParams): Promise<TokenResponse> {
  const grantType = param(form, "grant_type");
  if (!grantType) throw new OAuthError("invalid_request", "grant_type is required.");
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    throw new OAuthError("unsupported_grant_type", "Supported grant types: authorization_code, refresh_token.");
  }
  if (form.has("client_secret")) throw new OAuthError("invalid_client", "Clients here are public: send client_id without a secret.");
  const clientId = param(form, "client_id");
  if (!clientId) throw new OAuthError("invalid_client", "client_id is required.");
  await checkClient(clientId);
  return grantType === "authorization_code" ? exchangeCode(form, clientId) : refresh(form, clientId);
}

/** A registered client, or a metadata document client whose document (cached or fetched again) is still valid. */
async function checkClient(clientId: string): Promise<void> {
  if (isUrlClientId(clientId)) {
    await metadataDocumentClient(clientId).catch((err: unknown) => {
      throw err instanceof OAuthError ? new OAuthError("invalid_client", err.description) : err;
    });
    return;
  }
  if (clientId.length > 64 || (await sql().rows(CLIENT_EXISTS, [clientId])).length === 0)
    throw new OAuthError("invalid_client", "Unknown client.");
}

async function exchangeCode(form: URLSearchParams, clientId: string): Promise<TokenResponse> {
  const code = param(form, "code");
  const redirectUri = param(form, "redirect_uri");
  const verifier = param(form, "code_verifier");
  if (!code) throw new OAuthError("invalid_request", "code is required.");
  if (!verifier) throw new OAuthError("invalid_request", "code_verifier is required (PKCE).");
  if (!PKCE_VERIFIER.test(verifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 unreserved characters.");
  const codeHash = hashToken(code);
  const [row] = await sql().rows<CodeRow>(CONSUME_CODE, [codeHash]);
  if (!row) {
    const [used] = await sql().rows<{ grant_id: string | null }>(USED_CODE_GRANT, [codeHash]);
    if (used?.grant_id) await revokeGrant(used.grant_id, "code_reuse");
    throw new OAuthError(
      "invalid_grant",
      used ? "The authorization code was already used: the tokens issued for it are revoked." : "Unknown authorization code.",
    );
  }
  if (row.expired) throw new OAuthError("invalid_grant", "The authorization code has expired.");
  if (row.client_id !== clientId) throw new OAuthError("invalid_grant", "The authorization code was issued to another client.");
  if (redirectUri !== row.redirect_uri) throw new OAuthError("invalid_grant", "redirect_uri does not match the authorization request's.");
  if (s256(verifier) !== row.code_challenge)
    throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge (PKCE).");
  const resource = param(form, "resource");
  if (resource !== null && resource !== row.resource)
    throw new OAuthError("invalid_target", "resource does not match the authorization request's.");

  return transaction(async (tx) => {
    const grant = await tx.oAuthGrant.create({
      data: {
        id: createId("oauthGrant"),
        clientId,
        merchantId: row.merchant_id,
        userId: row.user_id,
        livemode: row.livemode,
        scopes: row.scopes,
        resource: row.resource,
      },
    });
    await tx.oAuthAuthorizationCode.update({ where: { codeHash }, data: { grantId: grant.id } });
    return issueTokens(tx, grant);
  });
}

async function refresh(form: URLSearchParams, clientId: string): Promise<TokenResponse> {
  const token = param(form, "refresh_token");
  if (!token) throw new OAuthError("invalid_request", "refresh_token is required.");
  const tokenHash = hashToken(token);
  const [grant] = await sql().rows<GrantRow>(ROTATE_REFRESH, [tokenHash, clientId]);
  if (!grant) {
    const [rotated] = await sql().rows<{ grant_id: string }>(ROTATED_REFRESH, [tokenHash]);
    if (rotated) {
      await revokeGrant(rotated.grant_id, "refresh_reuse");
      throw new OAuthError("invalid_grant", "The refresh token was already used: every token of this grant is revoked; authorize again.");
    }
    throw new OAuthError("invalid_grant", "The refresh token is unknown, expired, revoked or belongs to another client.");
  }
  const resource = param(form, "resource");
  if (resource !== null && resource !== grant.resource) throw new OAuthError("invalid_target", "resource does not match the grant's.");
  const scope = param(form, "scope");
  if (
    scope !== null &&
    scope
      .split(" ")
      .filter(Boolean)
      .some((s) => !grant.scopes.includes(s))
  ) {
    throw new OAuthError("invalid_scope", "A refresh cannot add scopes the merchant did not grant.");
  }
  return transaction((tx) => issueTokens(tx, grant));
}
