// Sign-up without pre-hijacking (docs/dashboard.md, "Sign-up"). A sign-up creates no account: it is a
// pending sign-up of its own (its name, email and password hash) keyed by its own single-use link token,
// mailed to the address. The account (the merchant, its first keys and its user) is created only when
// that link is used together with that sign-up's password, in one transaction, with that sign-up's
// password hash. So a confirmation never confirms a password the person confirming did not set: someone
// who signs up first with another person's email gets a link in that person's inbox they never see, and
// the owner, opening it by mistake, is refused unless they type the intruder's password. An email that
// has an account meanwhile: the link answers so and changes nothing (the unique index on users.email
// decides a race between two links of one address).
import { z } from "zod";
import { getDb, transaction, type Db } from "../db";
import { ConflictError } from "../errors";
import { createMerchant } from "../merchants/create-merchant";
import { queueMail } from "../mail/outbox";
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { verifyPassword } from "../crypto/password";
import { findNulPath } from "../validation/text-safety";
import { hashLinkToken, linkTo, newLinkToken, queueExistingAccountMail } from "./email-links";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

export interface SignUpRequest {
  name: string;
  email: string;
  /** Hashed before the caller's transaction opened (hashPassword). */
  passwordHash: string;
}

/**
 * One sign-up's mail: "you already have an account" when the email has one, else a pending sign-up of
 * its own and its confirmation link. The caller answers the same either way.
 */
export async function queueSignUp(tx: Db, request: SignUpRequest): Promise<void> {
  const existing = await tx.user.findUnique({ where: { email: request.email }, select: { email: true } });
  if (existing) return queueExistingAccountMail(tx, existing.email);
  const { token, expiresAt } = newLinkToken("confirm_email");
  await tx.pendingSignUp.create({
    data: { tokenHash: hashLinkToken(token), name: request.name, email: request.email, passwordHash: request.passwordHash, expiresAt },
  });
  await queueMail(tx, {
    to: request.email,
    kind: "confirm_email",
    subject: "Confirm your email for Agent Payments Service",
    text: `Someone (hopefully you) signed up for Agent Payments Service with this email address. To finish creating the account, open this link and enter the password chosen at sign-up:\n\n${linkTo("/confirm-email", token)}\n\nThe link works once, for 24 hours, and only with that password. If you did not sign up, ignore this mail: no account exists until the link is used.`,
  });
}

export const ConfirmInput = z.object({
  token: z.string().min(1, "Open the whole link from the mail.").max(200, "Open the whole link from the mail."),
  password: z.string().min(1, "Enter the password you chose when you signed up.").max(200, "That is not the password of this sign-up."),
});

export type ConfirmOutcome = "confirmed" | "invalid" | "wrong_password" | "taken";

/**
 * Uses a sign-up's link: checks the link (no password work for a dead one), then the password against
 * that sign-up's own hash, then, in one transaction, spends the link, creates the account with that hash
 * and logs `email_confirmed`. "taken": the email has an account already (another sign-up's link, or the
 * operator, made it); nothing changed, and the email's other links keep answering so until they expire.
 */
export async function confirmSignUp(input: z.output<typeof ConfirmInput>, origin: RequestOrigin): Promise<ConfirmOutcome> {
  if (findNulPath(input) !== null) return "invalid";
  const tokenHash = hashLinkToken(input.token);
  const [pending] = await getDb().$queryRaw<{ password_hash: string }[]>`
    SELECT password_hash FROM pending_sign_ups WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()`;
  if (!pending) return "invalid";
  if (!(await verifyPassword(input.password, pending.password_hash))) return "wrong_password";
  try {
    return await transaction(async (tx) => {
      const [signUp] = await tx.$queryRaw<{ name: string; email: string; password_hash: string }[]>`
        UPDATE pending_sign_ups SET used_at = now()
         WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()
         RETURNING name, email, password_hash`;
      if (!signUp) return "invalid";
      const created = await createMerchant(tx, { name: signUp.name, email: signUp.email, passwordHash: signUp.password_hash });
      await recordActivity(tx, { action: "email_confirmed", userId: created.userId, merchantId: created.merchantId, origin });
      return "confirmed";
    });
  } catch (err) {
    // The unique index on users.email: this address has an account already (another link won a race).
    if (err instanceof ConflictError) return "taken";
    throw err;
  }
}

/** Pending sign-ups one purge deletes at most. */
export const PURGE_BATCH = 5_000;

/**
 * Deletes pending sign-ups that expired more than a day ago (the tick calls this), at most PURGE_BATCH a call,
 * the oldest first along the expires_at index: a backlog drains over a few ticks. Returns how many it deleted.
 */
export async function purgePendingSignUps(db: Db, now = new Date()): Promise<number> {
  const expired = Prisma.sql`expires_at < ${new Date(now.getTime() - 24 * 3600_000)}`;
  return purgeBatch(db, "pending_sign_ups", expired, "expires_at", PURGE_BATCH);
}
