// Where to go after signing in: the dashboard page that was asked for, never anywhere else. The value
// arrives in the URL (/login?callbackUrl=...), so anyone can craft it; only a same-origin relative path
// under /dashboard, or exactly the OAuth consent page (/oauth/consent with its query: the authorization
// request being approved) or an invitation's page (/invitations/accept?token=), is honoured; everything else (absolute URLs, protocol-relative "//host",
// "/\host", which browsers read as "//host", control characters, other paths) becomes /dashboard.
export const CALLBACK_PARAM = "callbackUrl";
export const DASHBOARD_HOME = "/dashboard";
/** The one page outside /dashboard a sign-in may return to: the OAuth consent screen (docs/oauth-and-mcp.md). */
export const OAUTH_CONSENT_PATH = "/oauth/consent";
/** An emailed team invitation (lib/auth/accept-invitation.ts): an existing user signs in, then accepts. */
export const INVITATION_PATH = "/invitations/accept";

const PROBE_ORIGIN = "http://callback.invalid";

export function safeCallbackPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > 2048) return DASHBOARD_HOME;
  // One leading slash, then no second slash or backslash; no whitespace or control characters anywhere
  // (URL parsers drop tabs and newlines, so "/\t/evil.example" would become "//evil.example").
  if (!/^\/(?![/\\])/.test(raw) || /[\\\u0000-\u0020\u007f]/.test(raw)) return DASHBOARD_HOME;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return DASHBOARD_HOME;
  }
  // The parsed path is normalised ("/dashboard/../login" -> "/login", "%2e%2e" too), so check that one.
  if (url.origin !== PROBE_ORIGIN) return DASHBOARD_HOME;
  if (
    url.pathname !== DASHBOARD_HOME &&
    !url.pathname.startsWith(`${DASHBOARD_HOME}/`) &&
    url.pathname !== OAUTH_CONSENT_PATH &&
    url.pathname !== INVITATION_PATH
  )
    return DASHBOARD_HOME;
  if (url.pathname.startsWith("//")) return DASHBOARD_HOME;
  return `${url.pathname}${url.search}`;
}

/** /login (or /signup) with the page to come back to; /dashboard itself is the default, not carried. */
export function withCallback(page: "/login" | "/signup", path: string | null | undefined): string {
  const target = safeCallbackPath(path);
  return target === DASHBOARD_HOME ? page : `${page}?${CALLBACK_PARAM}=${encodeURIComponent(target)}`;
}

export const loginUrlFor = (path: string | null | undefined) => withCallback("/login", path);
