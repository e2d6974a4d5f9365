// The signed-in dashboard as the team code (lib/team) takes it.
import type { TeamActor } from "../team/actor";
import type { Dashboard } from "./session";

export const teamActor = (dashboard: Dashboard): TeamActor => ({
  userId: dashboard.user.id,
  email: dashboard.user.email,
  role: dashboard.role,
  merchantId: dashboard.scope.merchantId,
  merchantName: dashboard.merchantName,
});
