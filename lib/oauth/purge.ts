// The tick's clean-up of OAuth leftovers: codes, access tokens and refresh tokens more than a day past
// their expiry. A rotated refresh token is kept until then (its reuse must still revoke the family);
// grants, revoked or not, stay as the record of who was allowed what.
import { sql, statement } from "../db";

const PURGE = statement(
  "oauth_purge",
  `WITH c AS (DELETE FROM oauth_authorization_codes WHERE expires_at < now() - interval '1 day' RETURNING 1),
        a AS (DELETE FROM oauth_access_tokens WHERE expires_at < now() - interval '1 day' RETURNING 1),
        r AS (DELETE FROM oauth_refresh_tokens WHERE expires_at < now() - interval '1 day' RETURNING 1)
   SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM a) + (SELECT count(*) FROM r) AS n`,
);

export async function purgeOAuthLeftovers(): Promise<number> {
  const [row] = await sql().rows<{ n: string }>(PURGE, []);
  return Number(row?.n ?? 0);
}
