// Who is looking at the dashboard: the signed-in user, their merchant and the selected mode, as the same
// Scope object the /v1 domain functions take. One database read per request (React cache): the session
// row (not revoked, not expired) with its user, the merchant it selected, the user's role there and their
// two-factor state (lib/auth/sessions.ts liveSession).
import { getServerSession } from "next-auth";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { authOptions } from "../auth/options";
import { liveSession } from "../auth/sessions";
import { hasRole, type Role } from "../accounts/roles";
import type { Scope } from "../scope";
import { loginUrlFor } from "./callback-path";
import { csrfTokenFor } from "./csrf";
import { MODE_COOKIE, parseMode, type DashboardMode } from "./mode";
import { REQUESTED_PATH_HEADER } from "./requested-path";
import { setDisplayTimeZone } from "./time-zone";

export interface Dashboard {
  scope: Scope;
  mode: DashboardMode;
  user: { id: string; email: string };
  /** The user's role in this merchant (lib/accounts/roles.ts). */
  role: Role;
  /** Two-factor sign-in: on for the user; proved by this session since it was turned on (two-factor-gate.ts). */
  twoFactor: { enabled: boolean; verified: boolean };
  merchantName: string;
  /** The IANA time zone dashboard times are shown in (Settings). */
  timeZone: string;
  /** The session's random id (keys the CSRF token). */
  sid: string;
  csrfToken: string;
}

/** The signed-in dashboard, or null. `mode` overrides the mode cookie (dashboardApi passes the page's). */
export const getDashboard = cache(async (mode?: DashboardMode): Promise<Dashboard | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.userId || !session.sid) return null;
  const live = await liveSession(session.sid, session.userId);
  if (!live) return null;
  const selected = mode ?? parseMode((await cookies()).get(MODE_COOKIE)?.value);
  return {
    scope: { merchantId: live.merchantId, livemode: selected === "live" },
    mode: selected,
    user: { id: live.userId, email: live.email },
    role: live.role,
    twoFactor: { enabled: live.twoFactorEnabled, verified: live.twoFactorVerified },
    merchantName: live.merchantName,
    timeZone: live.timeZone,
    sid: session.sid,
    csrfToken: csrfTokenFor(session.sid),
  };
});

/**
 * For dashboard pages: the signed-in dashboard, or a redirect to /login that comes back to this page. A
 * page the user's role may not see at all (below `least`) answers as a missing one does (404).
 */
export async function requireDashboard(least: Role = "viewer"): Promise<Dashboard> {
  const dashboard = await getDashboard();
  if (!dashboard) redirect(loginUrlFor((await headers()).get(REQUESTED_PATH_HEADER)));
  if (!hasRole(dashboard.role, least)) notFound();
  setDisplayTimeZone(dashboard.timeZone);
  return dashboard;
}
