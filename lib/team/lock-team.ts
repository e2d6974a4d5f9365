// The merchant's memberships taken FOR UPDATE: every change that could leave a merchant without an owner
// (a role change, a removal, leaving) runs after this in its transaction, so two of them run one after
// the other and the second sees the first's result (the guarded statements in change-role.ts and
// remove-member.ts then decide). Returns the role of `userId`, or null when not a member.
import type { Role } from "../accounts/roles";
import type { Db } from "../db";

export async function lockTeam(tx: Db, merchantId: string, userId: string): Promise<Role | null> {
  const rows = await tx.$queryRaw<{ user_id: string; role: Role }[]>`
    SELECT user_id, role FROM memberships WHERE merchant_id = ${merchantId} ORDER BY user_id FOR UPDATE`;
  return rows.find((row) => row.user_id === userId)?.role ?? null;
}
