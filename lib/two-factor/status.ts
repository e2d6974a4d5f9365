// What the security page shows: whether two-factor sign-in is on (since when) and how many recovery codes
// are left.
import type { Db } from "../db";

export interface TwoFactorStatus {
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export async function getTwoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const [row, recoveryCodesLeft] = await Promise.all([
    db.userTwoFactor.findUnique({ where: { userId }, select: { enabledAt: true } }),
    db.recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return { enabledAt: row?.enabledAt ?? null, recoveryCodesLeft: row?.enabledAt ? recoveryCodesLeft : 0 };
}
