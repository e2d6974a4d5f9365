// The grant id of a client's consent, read from the test database (the dashboard page names it only in its revoke
// button), and grants with access tokens written there directly.
import pg from "pg";
import { transaction } from "../../lib/db";
import { createId, randomBase62 } from "../../lib/ids";
import { ACCESS_TOKEN_PREFIX, hashToken, newSecret } from "../../lib/oauth/secrets";

export async function grantIdOf(clientId: string): Promise<string> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query(
      "SELECT id FROM oauth_grants WHERE client_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1",
      [clientId],
    );
    return rows[0].id;
  } finally {
    await db.end();
  }
}

/**
 * A consented grant of a fresh client for `merchantId` (test mode, read and write, resource `<base>/mcp`) with
 * `tokens` live access tokens, as consent and refreshes would leave it: written straight to the test database.
 */
export async function grantWithAccessTokens(base: string, merchantId: string, tokens: number): Promise<string[]> {
  const clientId = `mcpc_${randomBase62(24)}`;
  const grantId = createId("oauthGrant");
  const secrets = Array.from({ length: tokens }, () => newSecret(ACCESS_TOKEN_PREFIX));
  await transaction(async (tx) => {
    await tx.oAuthClient.create({ data: { id: clientId, name: "test agent", redirectUris: ["http://127.0.0.1:9/cb"] } });
    await tx.oAuthGrant.create({
      data: { id: grantId, clientId, merchantId, livemode: false, scopes: ["read", "write"], resource: `${base}/mcp` },
    });
    await tx.oAuthAccessToken.createMany({
      data: secrets.map((token) => ({ tokenHash: hashToken(token), grantId, expiresAt: new Date(Date.now() + 3600_000) })),
    });
  });
  return secrets;
}
