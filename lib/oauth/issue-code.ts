// The consent's answer: a single-use, short-lived authorization code bound to everything the request
// said (client, redirect URI, PKCE challenge, resource) and what the merchant granted (scopes, mode).
// It also stamps the client as authorized (lib/oauth/purge.ts deletes clients nobody ever authorized).
import type { Db } from "../db";
import { env } from "../env";
import type { Scope } from "./config";
import { UnredirectableError, type AuthorizeRequest } from "./authorize-request";
import { CODE_PREFIX, hashToken, newSecret } from "./secrets";

export async function issueCode(
  tx: Db,
  request: AuthorizeRequest,
  grant: { merchantId: string; userId: string; livemode: boolean; scopes: Scope[] },
): Promise<string> {
  // The client is authorized now: the purge of never-authorized clients spares it from here on. One the purge
  // deleted a moment ago is unknown (lib/oauth/purge.ts).
  const stamped = await tx.oAuthClient.updateMany({ where: { id: request.client.id }, data: { lastAuthorizedAt: new Date() } });
  if (stamped.count === 0) throw new UnredirectableError("invalid_client", "Unknown client_id: register the client again.", 400);
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
