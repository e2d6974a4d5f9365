// Who is looking at the dashboard: the signed-in user, their merchant and the selected mode, as the same
// Scope object the /v1 domain functions take. One database read per request (React cache): the session
// row (not revoked, not expired) with its user and merchant.
import { getServerSession } from "next-auth";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { authOptions } from "../auth/options";
import { liveSessionUser } from "../auth/sessions";
import type { Role } from "../accounts/roles";
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
  const user = await liveSessionUser(session.sid, session.userId);
  if (!user) return null;
  const selected = mode ?? parseMode((await cookies()).get(MODE_COOKIE)?.value);
  return {
    scope: { merchantId: user.merchantId, livemode: selected === "live" },
    mode: selected,
    user: { id: user.id, email: user.email },
    role: "owner",
    twoFactor: user.twoFactor,
    merchantName: user.merchant.name,
    timeZone: user.merchant.timeZone,
    sid: session.sid,
    csrfToken: csrfTokenFor(session.sid),
  };
});

/** For dashboard pages: the signed-in dashboard, or a redirect to /login that comes back to this page. */
export async function requireDashboard(): Promise<Dashboard> {
  const dashboard = await getDashboard();
  if (!dashboard) redirect(loginUrlFor((await headers()).get(REQUESTED_PATH_HEADER)));
  setDisplayTimeZone(dashboard.timeZone);
  return dashboard;
}
