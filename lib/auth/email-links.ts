// Emailed links: resetting a forgotten password (here), and confirming a sign-up (lib/auth/pending-sign-ups.ts,
// whose tokens live with the sign-up itself). A link carries a random token; only its SHA-256 is stored
// (email_link_tokens), so the table alone opens nothing. A token is used once: one atomic UPDATE ... WHERE
// used_at IS NULL AND expires_at > now() RETURNING takes it, so two concurrent uses cannot both succeed (the
// database decides). Each change and its mail commit in one transaction (lib/mail/outbox.ts). Tokens are
// never logged.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { getDb, transaction, type Db } from "../db";
import { env } from "../env";
import { queueMail } from "../mail/outbox";
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { endEveryWayIn } from "../accounts/end-access";
import { recentAdditionsText } from "../accounts/recent-additions";
import { PASSWORD_MIN_LENGTH } from "./messages";
import { hashPassword } from "../crypto/password";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

export type LinkPurpose = "confirm_email" | "reset_password";

/** How long a link works: a confirmation a day, a password reset an hour. */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = { confirm_email: 24 * 3600, reset_password: 3600 };

export const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");
const hashToken = hashLinkToken;

/** A fresh random link token (it goes into the mail, nowhere else) and when it stops working. */
export function newLinkToken(purpose: LinkPurpose): { token: string; expiresAt: Date } {
  return { token: randomBytes(32).toString("base64url"), expiresAt: new Date(Date.now() + LINK_TTL_SECONDS[purpose] * 1000) };
}

/** A new single-use token for the user; returns the raw token (it goes into the mail, nowhere else). */
export async function issueLinkToken(tx: Db, userId: string, purpose: LinkPurpose): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx.emailLinkToken.create({
    data: { tokenHash: hashToken(token), userId, purpose, expiresAt: new Date(Date.now() + LINK_TTL_SECONDS[purpose] * 1000) },
  });
  return token;
}

/** Takes the token if it is unused and unexpired (atomically); its user id, or null. */
async function takeLinkToken(tx: Db, token: string, purpose: LinkPurpose): Promise<string | null> {
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    UPDATE email_link_tokens SET used_at = now()
     WHERE token_hash = ${hashToken(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
     RETURNING user_id`;
  return rows[0]?.user_id ?? null;
}

export const linkTo = (path: string, token: string) => `${env.BASE_URL.replace(/\/$/, "")}${path}?token=${encodeURIComponent(token)}`;

/** Sent instead of a confirmation when someone signs up with the address of a confirmed account. */
export async function queueExistingAccountMail(tx: Db, email: string): Promise<void> {
  await queueMail(tx, {
    to: email,
    kind: "signup_existing_account",
    subject: "Someone tried to sign up with your email",
    text: `Someone tried to create an Agent Payments Service account with this email address, which already has an account. Nothing changed.\n\nIf it was you, sign in instead: ${env.BASE_URL.replace(/\/$/, "")}/login\nForgot your password? Reset it: ${env.BASE_URL.replace(/\/$/, "")}/forgot-password\n\nIf it was not you, ignore this mail: the attempt gave no one access to your account, and its password is unchanged.`,
  });
}

const INVALID_EMAIL = "Enter a valid email address.";

export const ForgotInput = z.object({
  email: z.string("Enter a valid email address.").trim().toLowerCase().pipe(z.string().max(254, INVALID_EMAIL).email(INVALID_EMAIL)),
});

/**
 * "Forgot password": a reset link mailed when the email has an account (the caller answers the same either
 * way), with what was created in the account lately, so that a reset after a break-in shows what to undo.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email }, select: { id: true, email: true } });
    if (!user) return;
    const token = await issueLinkToken(tx, user.id, "reset_password");
    await queueMail(tx, {
      to: user.email,
      kind: "reset_password",
      subject: "Reset your Agent Payments Service password",
      text: `Someone (hopefully you) asked to reset the password of your Agent Payments Service account. Choose a new one here:\n\n${linkTo("/reset-password", token)}\n\nThe link works once, for 1 hour. Setting a new password signs every session of this account out and ends every app you connected with OAuth (connect them again afterwards). If you did not ask, ignore this mail: your password stays as it is.\n\n${await recentAdditionsText(tx, user.id)}`,
    });
  });
}

export const ResetInput = z.object({
  token: z.string().min(1).max(200),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(200, "Choose a password of at most 200 characters."),
});

/** Whether a link token is still usable (a read: taking it is takeLinkToken's, in the change's transaction). */
async function linkTokenUsable(token: string, purpose: LinkPurpose): Promise<boolean> {
  const rows = await getDb().$queryRaw<unknown[]>`
    SELECT 1 FROM email_link_tokens
     WHERE token_hash = ${hashToken(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()`;
  return rows.length > 0;
}

/**
 * Sets a new password with a reset link. A dead link is refused before any hashing (a flood of made-up
 * tokens costs no scrypt). Then, in one transaction: the token is taken, the password replaced, every other
 * reset link of the account spent, every way in ended (dashboard sessions, OAuth grants and their tokens:
 * lib/accounts/end-access.ts), the invitations the user sent that nobody accepted yet revoked, the sign-in
 * back-off cleared and `password_reset` logged. The password is hashed before it opens.
 */
export async function resetPassword(input: z.output<typeof ResetInput>, origin: RequestOrigin): Promise<"reset" | "invalid"> {
  if (!(await linkTokenUsable(input.token, "reset_password"))) return "invalid";
  const passwordHash = await hashPassword(input.password);
  return transaction(async (tx) => {
    const userId = await takeLinkToken(tx, input.token, "reset_password");
    if (!userId) return "invalid";
    const now = new Date();
    const user = await tx.user.update({ where: { id: userId }, data: { passwordHash }, select: { email: true } });
    await tx.emailLinkToken.updateMany({ where: { userId, purpose: "reset_password", usedAt: null }, data: { usedAt: now } });
    const ended = await endEveryWayIn(tx, userId);
    // Invitations this user sent and nobody accepted yet: whoever had the password may have sent them.
    await tx.invitation.updateMany({ where: { invitedById: userId, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    await tx.signInThrottle.deleteMany({ where: { email: user.email } });
    await recordActivity(tx, {
      action: "password_reset",
      userId,
      origin,
      detail: { sessionsEnded: ended.sessions, oauthGrantsRevoked: ended.oauthGrants },
    });
    return "reset";
  });
}

/** Link tokens one purge deletes at most. */
export const PURGE_BATCH = 5_000;

/**
 * Deletes link tokens that expired more than a day ago (the tick calls this), at most PURGE_BATCH a call, the
 * oldest first along the expires_at index: a backlog drains over a few ticks. Returns how many it deleted.
 */
export async function purgeLinkTokens(db: Db, now = new Date()): Promise<number> {
  const expired = Prisma.sql`expires_at < ${new Date(now.getTime() - 24 * 3600_000)}`;
  return purgeBatch(db, "email_link_tokens", expired, "expires_at", PURGE_BATCH);
}
