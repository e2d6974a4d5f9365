// next-auth's endpoints (/api/auth/csrf, /callback/signin, /callback/signup, /signout, /session).
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
