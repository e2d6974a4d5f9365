// Access and refresh tokens for a grant (the family): both stored as hashes, in the caller's transaction.
import type { Db } from "../db";
import { env } from "../env";
import { ACCESS_TOKEN_PREFIX, hashToken, newSecret, REFRESH_TOKEN_PREFIX } from "./secrets";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export async function issueTokens(tx: Db, grant: { id: string; scopes: string[] }): Promise<TokenResponse> {
  const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
  const now = Date.now();
  await tx.oAuthAccessToken.create({
    data: { tokenHash: hashToken(accessToken), grantId: grant.id, expiresAt: new Date(now + env.OAUTH_ACCESS_TOKEN_TTL_SECONDS * 1000) },
  });
  await tx.oAuthRefreshToken.create({
    data: { tokenHash: hashToken(refreshToken), grantId: grant.id, expiresAt: new Date(now + env.OAUTH_REFRESH_TOKEN_TTL_SECONDS * 1000) },
  });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: env.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    scope: grant.scopes.join(" "),
  };
}
