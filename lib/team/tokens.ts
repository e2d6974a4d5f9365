// Invitation links' tokens: random, only their SHA-256 stored (invitations.token_hash), so the table alone
// opens nothing. Never logged.
import { createHash, randomBytes } from "node:crypto";

/** How long an invitation works. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

export const newInvitationToken = () => randomBytes(32).toString("base64url");

export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");
