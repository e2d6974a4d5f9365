// Ends a grant (a connected app) and so every access and refresh token of its family, at once: token
// checks join the grant and refuse a revoked one.
import { sql, statement } from "../db";

export type RevokeReason = "dashboard" | "client" | "refresh_reuse" | "code_reuse";

const REVOKE = statement(
  "oauth_revoke_grant",
  "UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL",
);

export async function revokeGrant(grantId: string, reason: RevokeReason): Promise<void> {
  await sql().count(REVOKE, [grantId, reason]);
}
