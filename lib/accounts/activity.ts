// The account activity log (Settings, "Activity"): sign-ins and failed sign-ins, password and two-factor
// changes, API keys created, rolled or revoked, OAuth consents and revocations, members and roles. A row
// is written in the same transaction as the change it tells about, so the log never misses one that
// committed. `merchantId` is null for what concerns the user alone (a sign-in, a password change).
import type { Db } from "../db";
import { createId } from "../ids";

/** Where a request came from, as the log shows it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface Activity {
  action: string;
  userId?: string | null;
  merchantId?: string | null;
  origin?: RequestOrigin;
  /** What the action was about (a key's id, a role, ...): never a secret. */
  detail?: Record<string, string | number | boolean | null>;
}

const USER_AGENT_MAX = 300;

export async function recordActivity(tx: Db, activity: Activity): Promise<void> {
  await tx.accountActivity.create({
    data: {
      id: createId("activity"),
      action: activity.action,
      userId: activity.userId ?? null,
      merchantId: activity.merchantId ?? null,
      ip: activity.origin?.ip ?? null,
      userAgent: activity.origin?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      detail: activity.detail ?? {},
    },
  });
}

/** The origin of a request for the log: the client IP (as the limits see it) and the User-Agent. */
export function originOf(headers: Headers, ip: string | null): RequestOrigin {
  return { ip, userAgent: headers.get("user-agent") };
}
