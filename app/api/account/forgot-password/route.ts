// POST /api/account/forgot-password (lib/auth/account-routes.ts; docs/dashboard.md, "Email links").
import { forgotPasswordRoute } from "@/lib/auth/account-routes";

export const dynamic = "force-dynamic";
export const POST = forgotPasswordRoute;
