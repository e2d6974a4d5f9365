// Accepting an emailed invitation. The link is the proof that its holder reads that address, so:
// - no account with the address yet: the link creates one (name + password), confirmed by the link itself,
//   and its membership;
// - an account exists: its user signs in first, then joins (the signed-in address must be the invited one).
// Either way ONE statement spends the invitation (UPDATE ... WHERE accepted_at IS NULL AND revoked_at IS
// NULL AND expires_at > now() RETURNING), so a link works once however many times it is sent at once, and
// the account, membership and activity row commit with it or not at all.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { PASSWORD_MIN_LENGTH } from "./messages";
import { z } from "zod";
import type { Role } from "../accounts/roles";
import { selectSessionMerchant } from "./sessions";
import { hashPassword } from "../crypto/password";
import { transaction, type Db } from "../db";
import { ConflictError, ForbiddenError, GoneError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import { hashInvitationToken } from "../team/tokens";

/** The invitation page's form: the token; a new account also chooses its name and password. */
export const AcceptInvitationBody = z
  .object({
    token: z.string().min(1).max(200),
    name: z.string().trim().min(1).max(100).optional(),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(200).optional(),
  })
  .strict();

interface Spent {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
}

export interface InvitationPreview {
  merchantName: string;
  email: string;
  role: Role;
  /** Whether the address already has an account (then its user signs in to accept). */
  accountExists: boolean;
}

const gone = () => new GoneError("This invitation link has expired, was already used or was revoked. Ask the team for a new one.");

/** What a pending invitation's page shows (reading spends nothing), or null. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview | null> {
  const invitation = await db.invitation.findFirst({
    where: { tokenHash: hashInvitationToken(token), acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { email: true, role: true, merchant: { select: { name: true } } },
  });
  if (!invitation) return null;
  const account = await db.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
  return { merchantName: invitation.merchant.name, email: invitation.email, role: invitation.role as Role, accountExists: !!account };
}

/** A new account for the invited address: created, confirmed and joined in one transaction. */
export async function acceptAsNewUser(input: { token: string; name: string; password: string }, origin: RequestOrigin) {
  // Hashed before the transaction opens (no connection held while scrypt waits or runs).
  const passwordHash = await hashPassword(input.password);
  return transaction(async (tx) => {
    const [spent] = await tx.$queryRaw<Spent[]>`
      UPDATE invitations i SET accepted_at = now()
       WHERE token_hash = ${hashInvitationToken(input.token)} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         AND NOT EXISTS (SELECT 1 FROM users u WHERE u.email = i.email)
       RETURNING id, merchant_id, email, role`;
    if (!spent) throw (await accountExists(tx, input.token)) ? signInFirst() : gone();
    const user = await tx.user
      .create({
        data: { id: createId("user"), email: spent.email, name: input.name, passwordHash, emailConfirmedAt: new Date() },
        select: { id: true },
      })
      .catch((err: unknown) => {
        // An account for the address was created meanwhile: all of this rolls back, the link stays usable.
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw signInFirst();
        throw err;
      });
    await join(tx, spent, user.id, origin);
    return { status: "joined" as const, email: spent.email, role: spent.role };
  });
}

/** The signed-in user (session `sid`) joins with the link sent to their address; the session selects the team. */
export async function acceptAsSignedInUser(token: string, user: { id: string; email: string; sid: string }, origin: RequestOrigin) {
  return transaction(async (tx) => {
    const [spent] = await tx.$queryRaw<Spent[]>`
      UPDATE invitations SET accepted_at = now()
       WHERE token_hash = ${hashInvitationToken(token)} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
         AND email = ${user.email}
       RETURNING id, merchant_id, email, role`;
    if (!spent) {
      const other = await tx.invitation.findFirst({
        where: { tokenHash: hashInvitationToken(token), acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
        select: { email: true },
      });
      if (other)
        throw new ForbiddenError(`This invitation was sent to ${other.email}: sign in with that address to accept it.`, {
          reason: "other_email",
        });
      throw gone();
    }
    await join(tx, spent, user.id, origin);
    await selectSessionMerchant(tx, user.sid, user.id, spent.merchant_id);
    return { status: "joined" as const, email: spent.email, role: spent.role };
  });
}

async function join(tx: Db, spent: Spent, userId: string, origin: RequestOrigin) {
  // Already a member (joined by another invitation meanwhile): the role they hold stays.
  await tx.$executeRaw`
    INSERT INTO memberships (merchant_id, user_id, role) VALUES (${spent.merchant_id}, ${userId}, ${spent.role})
    ON CONFLICT (merchant_id, user_id) DO NOTHING`;
  await recordActivity(tx, {
    action: "member_joined",
    userId,
    merchantId: spent.merchant_id,
    origin,
    detail: { invitationId: spent.id, role: spent.role },
  });
}

async function accountExists(tx: Db, token: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ exists: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM invitations i JOIN users u ON u.email = i.email
                    WHERE i.token_hash = ${hashInvitationToken(token)} AND i.accepted_at IS NULL AND i.revoked_at IS NULL
                      AND i.expires_at > now()) AS exists`;
  return rows[0]?.exists ?? false;
}

const signInFirst = () =>
  new ConflictError("An account with this email already exists: sign in with it, then open the link again to join.", {
    reason: "account_exists",
  });
