// next-auth's endpoints (/api/auth/csrf, /callback/signin, /callback/signup, /signout, /session); a sign-in
// refused for load answers 429/503 with Retry-After (lib/auth/auth-route.ts).
import NextAuth from "next-auth";
import { withAuthStatuses } from "@/lib/auth/auth-route";
import { authOptions } from "@/lib/auth/options";

export const dynamic = "force-dynamic";

const handler = withAuthStatuses(NextAuth(authOptions) as (req: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>);
export { handler as GET, handler as POST };
