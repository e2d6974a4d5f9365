// The server's role check (lib/dashboard/route.ts runs it for every dashboard route with the role the route
// declares; the OAuth consent and the team's owner-only changes run it too). Pages use requireDashboard(role).
import { hasRole, type Role } from "./roles";
import { ForbiddenError } from "../errors";

/** Refuses a role below `least`: 403 FORBIDDEN with details { reason: "role_required", role }. */
export function requireRole(dashboard: { role: Role }, least: Role): void {
  if (!hasRole(dashboard.role, least))
    throw new ForbiddenError(`This needs the ${least} role or higher; your role in this merchant is ${dashboard.role}.`, {
      reason: "role_required",
      role: least,
    });
}
