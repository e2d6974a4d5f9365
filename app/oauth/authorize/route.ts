// OAuth 2.1 authorization endpoint (public, limited per IP).
// GET: checks the request (client, exact redirect URI, PKCE S256, scope, resource) and sends the browser to
// the consent page (/oauth/consent, which sends a signed-out browser through /login and back). Its errors are
// answered here (400, the RFC's JSON), never redirected: nothing has checked the browser's user yet.
// POST: the consent page's decision (lib/dashboard/oauth-consent.ts), the one place an error is redirected to the client.
import { CALLBACK_PARAM, OAUTH_CONSENT_PATH } from "@/lib/dashboard/callback-path";
import { getDashboard } from "@/lib/dashboard/session";
import { readBodyText } from "@/lib/http/read-body";
import { checkAuthorizeRequest, RedirectedError } from "@/lib/oauth/authorize-request";
import { authorizeParamsOf, decideConsent } from "@/lib/dashboard/oauth-consent";
import { OAUTH_BODY_LIMIT_BYTES, publicRoute } from "@/lib/oauth/public-route";

function seeOther(location: string, headers: Headers): Response {
  const h = new Headers(headers);
  h.set("Location", location);
  return new Response(null, { status: 303, headers: h });
}

async function redirectingErrors(work: () => Promise<string>, headers: Headers): Promise<Response> {
  try {
    return seeOther(await work(), headers);
  } catch (err) {
    if (err instanceof RedirectedError) return seeOther(err.location, headers);
    throw err;
  }
}

export const GET = publicRoute(async (req, headers) => {
  const params = authorizeParamsOf(new URL(req.url).searchParams);
  await checkAuthorizeRequest(params);
  return seeOther(`${OAUTH_CONSENT_PATH}?${params}`, headers);
});

export const POST = publicRoute(async (req, headers) =>
  redirectingErrors(async () => {
    const form = new URLSearchParams(await readBodyText(req, OAUTH_BODY_LIMIT_BYTES));
    const dashboard = await getDashboard();
    if (!dashboard) {
      const consent = `${OAUTH_CONSENT_PATH}?${authorizeParamsOf(form)}`;
      return `/login?${CALLBACK_PARAM}=${encodeURIComponent(consent)}`;
    }
    return decideConsent(req, form, dashboard);
  }, headers),
);

export const dynamic = "force-dynamic";
