// Who changes the team: the signed-in user in the selected merchant, with their role there (the dashboard
// route builds it: lib/dashboard/team-actor.ts). Plain values, so the team code stays below the pipelines.
import type { Role } from "../accounts/roles";

export interface TeamActor {
  userId: string;
  email: string;
  role: Role;
  merchantId: string;
  merchantName: string;
}
