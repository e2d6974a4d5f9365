// POST /api/account/reset-password (lib/auth/account-routes.ts; docs/dashboard.md, "Email links").
import { resetPasswordRoute } from "@/lib/auth/account-routes";

export const dynamic = "force-dynamic";
export const POST = resetPasswordRoute;
