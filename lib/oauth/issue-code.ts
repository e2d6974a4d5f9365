// The consent's answer: a single-use, short-lived authorization code bound to everything the request
// said (client, redirect URI, PKCE challenge, resource) and what the merchant granted (scopes, mode).
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "./config";
import type { AuthorizeRequest } from "./authorize-request";
import { CODE_PREFIX, hashToken, newSecret } from "./secrets";

export async function issueCode(
  tx: Db,
  request: AuthorizeRequest,
  grant: { merchantId: string; userId: string; livemode: boolean; scopes: Scope[] },
): Promise<string> {
  const code = newSecret(CODE_PREFIX);
  await tx.oAuthAuthorizationCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: request.client.id,
      merchantId: grant.merchantId,
      userId: grant.userId,
      livemode: grant.livemode,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scopes: grant.scopes,
      expiresAt: new Date(Date.now() + env.OAUTH_CODE_TTL_SECONDS * 1000),
    },
  });
  return code;
}
