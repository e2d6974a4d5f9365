// POST /api/account/invitations/accept (lib/auth/invitation-route.ts; docs/dashboard.md, "Team").
import { acceptInvitationRoute } from "@/lib/auth/invitation-route";

export const dynamic = "force-dynamic";
export const POST = acceptInvitationRoute;
