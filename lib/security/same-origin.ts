// Cross-site request forgery guard shared by every browser-facing POST (pay forms, dashboard mutations):
// the browser's Origin header must be this service — BASE_URL, NEXTAUTH_URL, or the Host the request came to.
import { env } from "../env";

export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  const allowed = new Set([new URL(env.BASE_URL).origin]);
  if (env.NEXTAUTH_URL) allowed.add(new URL(env.NEXTAUTH_URL).origin);
  const host = req.headers.get("host");
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  return allowed.has(origin);
}
