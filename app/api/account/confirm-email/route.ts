// POST /api/account/confirm-email (lib/auth/account-routes.ts; docs/dashboard.md, "Email links").
import { confirmEmailRoute } from "@/lib/auth/account-routes";

export const dynamic = "force-dynamic";
export const POST = confirmEmailRoute;
