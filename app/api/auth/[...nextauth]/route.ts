// next-auth's endpoints (/api/auth/csrf, /callback/signin, /callback/signup, /signout, /session); a sign-in
// refused for load answers 429/503 with Retry-After (lib/auth/auth-route.ts). POST bodies are read under
// the forms' 16 KiB limit first (lib/http/form-body-limit.ts; next-auth itself would buffer any size).
import NextAuth from "next-auth";
import { withAuthStatuses } from "@/lib/auth/auth-route";
import { authOptions } from "@/lib/auth/options";
import { withFormBodyLimit } from "@/lib/http/form-body-limit";

export const dynamic = "force-dynamic";

const handler = withAuthStatuses(
  NextAuth(authOptions) as (req: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>,
);
export const GET = handler;
export const POST = withFormBodyLimit(handler);
