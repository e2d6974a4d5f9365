// next-auth's endpoints (/api/auth/csrf, /callback/signin, /callback/signup, /signout, /session). Its POST
// bodies are read under the form limit first (next-auth itself would buffer any size).
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { withFormBodyLimit } from "@/lib/http/form-body-limit";

export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);
export const GET = handler;
export const POST = withFormBodyLimit(handler);
