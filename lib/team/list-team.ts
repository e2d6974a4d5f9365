// What the Team page shows: the members with their roles, and the pending invitations.
import type { Role } from "../accounts/roles";
import type { Db } from "../db";

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}

export async function listMembers(db: Db, merchantId: string): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: { userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
  });
  return rows.map((row) => ({
    userId: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: row.role as Role,
    joinedAt: row.createdAt,
  }));
}

export async function listPendingInvitations(db: Db, merchantId: string): Promise<PendingInvitation[]> {
  const rows = await db.invitation.findMany({
    where: { merchantId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true, invitedBy: { select: { email: true } } },
  });
  return rows.map((row) => ({ ...row, role: row.role as Role, invitedBy: row.invitedBy?.email ?? null }));
}

/** The merchants a user belongs to, for the switcher (oldest membership first). */
export async function listUserMerchants(db: Db, userId: string): Promise<{ merchantId: string; name: string; role: Role }[]> {
  const rows = await db.membership.findMany({
    where: { userId },
    orderBy: [{ createdAt: "asc" }, { merchantId: "asc" }],
    select: { merchantId: true, role: true, merchant: { select: { name: true } } },
  });
  return rows.map((row) => ({ merchantId: row.merchantId, name: row.merchant.name, role: row.role as Role }));
}
