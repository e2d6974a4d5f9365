// The dashboard's anti-forgery token: HMAC of the session's random `sid` under the auth secret. Pages
// render it into a <meta> tag; dashboardFetch sends it as X-CSRF-Token; dashboardApi checks it (and Origin).
// It changes with every sign-in and cannot be computed without the server's secret.
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "../auth/secret";

export const CSRF_HEADER = "x-csrf-token";

export function csrfTokenFor(sid: string): string {
  return createHmac("sha256", authSecret()).update(`aps:dashboard-csrf:v1:${sid}`).digest("base64url");
}

export function verifyCsrfToken(sid: string, token: string | null): boolean {
  if (!sid || !token) return false;
  const expected = Buffer.from(csrfTokenFor(sid));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
