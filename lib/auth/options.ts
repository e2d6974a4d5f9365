// next-auth (v4) for the dashboard: two Credentials providers ("signin", "signup"), JWT sessions in an
// encrypted cookie. The token carries the user id and `sid`, the id of a server-side session row
// (lib/auth/sessions.ts) that sign-out revokes and that keys the dashboard's CSRF token
// (lib/dashboard/csrf.ts). Every dashboard request re-reads the session row with its user and merchant
// (lib/dashboard/session.ts), so sign-out, expiry or a deleted user end access at once.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "../env";
import { originOf, type RequestOrigin } from "../accounts/activity";
import { clientIp, clientIpKey } from "../http/client-ip";
import { signIn, signUp, type SignedInUser } from "./credentials";
import { authSecret } from "./secret";
import { revokeSession, startSession } from "./sessions";

declare module "next-auth" {
  interface User {
    twoFactor?: boolean;
  }
  interface Session {
    userId: string;
    sid: string;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    sid?: string;
  }
}

const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** A next-auth request (its headers arrive as a plain object) as far as the client-IP helpers read one. */
function requestOf(req: { headers?: Record<string, unknown> }): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers ?? {})) if (typeof value === "string") headers.set(name, value);
  return { headers } as Request;
}

/** The per-IP bucket name (IPv4, or IPv6 /64) of a next-auth request. */
const ipOf = (req: { headers?: Record<string, unknown> }): string => clientIpKey(requestOf(req));

/** Where a next-auth request came from, for the account activity log. */
function originOfAuth(req: { headers?: Record<string, unknown> }): RequestOrigin {
  const request = requestOf(req);
  return originOf(request.headers, clientIp(request));
}

const publicUrl = env.NEXTAUTH_URL ?? env.BASE_URL;

export const authOptions: NextAuthOptions = {
  get secret() {
    return authSecret();
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  useSecureCookies: publicUrl.startsWith("https://"),
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      id: "signin",
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        code: { label: "Authentication code", type: "text" },
      },
      authorize: (credentials, req) => signIn(credentials, ipOf(req), originOfAuth(req)),
    }),
    CredentialsProvider({
      id: "signup",
      name: "Create an account",
      credentials: {
        name: { label: "Business name" },
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: (credentials, req): Promise<SignedInUser> => signUp(credentials, ipOf(req)),
    }),
  ],
  events: {
    async signOut({ token }) {
      if (token?.sid) await revokeSession(token.sid);
    },
  },
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.email = user.email;
        token.sid = await startSession(user.id, SESSION_MAX_AGE_SECONDS, user.twoFactor === true);
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, userId: token.sub ?? "", sid: token.sid ?? "" };
    },
  },
};
