// The OAuth consent screen: which app asks, where it will be sent back to, what it may do and in which
// mode. Signed out: through /login and back here (the sign-in's callback allow-list names this page).
// The form posts to /oauth/authorize with the session's CSRF token (lib/dashboard/oauth-consent.ts).
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { buttonClass } from "@/components/dashboard/Button";
import { ConsentScopes } from "@/components/oauth/ConsentScopes";
import { loginUrlFor, OAUTH_CONSENT_PATH } from "@/lib/dashboard/callback-path";
import { hasRole } from "@/lib/accounts/roles";
import { getDashboard } from "@/lib/dashboard/session";
import { needsTwoFactorForLive, TWO_FACTOR_SETUP_PATH } from "@/lib/dashboard/two-factor-gate";
import { checkAuthorizeRequest, type AuthorizeRequest } from "@/lib/oauth/authorize-request";
import { isUrlClientId } from "@/lib/oauth/client-metadata-document";
import { authorizeParamsOf, CSRF_FIELD, MERCHANT_FIELD } from "@/lib/dashboard/oauth-consent";
import { OAuthError } from "@/lib/oauth/errors";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Authorize an app · Agent Payments Service" };

type SearchParams = Record<string, string | string[] | undefined>;

function toParams(raw: SearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) for (const v of Array.isArray(value) ? value : [value ?? ""]) params.append(key, v);
  return authorizeParamsOf(params);
}

export default async function ConsentPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = toParams(await searchParams);
  const dashboard = await getDashboard();
  if (!dashboard) redirect(loginUrlFor(`${OAUTH_CONSENT_PATH}?${params}`));
  let request: AuthorizeRequest;
  try {
    request = await checkAuthorizeRequest(params);
  } catch (err) {
    // Shown, never redirected: only the consent form's POST sends an error back to the client (lib/dashboard/oauth-consent.ts).
    const message = err instanceof OAuthError ? err.description : "This authorization request cannot be handled.";
    return (
      <AuthCard
        title="This authorization request is not valid"
        footer={
          <Link href="/dashboard" className="font-medium text-indigo-700 underline-offset-2 hover:underline">
            Back to the dashboard
          </Link>
        }
      >
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      </AuthCard>
    );
  }
  const mayGrant = hasRole(dashboard.role, "developer");
  // The one checked fact about the app is where its codes go; its name is whatever the registrant typed.
  const returnTo = new URL(request.redirectUri);
  const redirectHost = returnTo.host || returnTo.protocol.replace(/:$/, "");
  const liveLocked = needsTwoFactorForLive(dashboard);
  // A client ID metadata document client: its id is the HTTPS URL of its description, a host its publisher controls.
  const documentHost = isUrlClientId(request.client.id) ? new URL(request.client.id).host : null;
  return (
    <AuthCard
      title={`Allow an app at ${redirectHost} to use your account?`}
      footer={
        <>
          Signed in as {dashboard.user.email} · {dashboard.merchantName}
        </>
      }
    >
      <form method="post" action="/oauth/authorize" className="flex flex-col gap-5">
        {[...params.entries()].map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CSRF_FIELD} value={dashboard.csrfToken} />
        <input type="hidden" name={MERCHANT_FIELD} value={dashboard.scope.merchantId} />
        <p className="break-words text-sm text-slate-700">
          It calls itself <strong className="font-semibold text-slate-900">{request.client.name}</strong> (unverified name) and wants to act
          for <strong className="font-semibold text-slate-900">{dashboard.merchantName}</strong> through the MCP server. You will be sent
          back to <strong className="break-all font-semibold text-slate-900">{redirectHost}</strong>.
          {documentHost ? (
            <>
              {" "}
              Its description is published by <strong className="break-all font-semibold text-slate-900">{documentHost}</strong>.
            </>
          ) : null}
        </p>
        <p className="text-xs text-slate-600">
          Whoever registers an app chooses its name, so the name proves nothing: allow it only if you know the address it sends you back to.
        </p>
        <ConsentScopes scopes={request.scopes} />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">Mode</legend>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="mode" value="test" defaultChecked className="h-4 w-4 accent-indigo-600" />
            Test mode (test data only)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name="mode"
              value="live"
              disabled={liveLocked}
              aria-describedby={liveLocked ? "consent-live-two-factor" : undefined}
              className="h-4 w-4 accent-indigo-600"
            />
            Live mode (real money)
          </label>
          {liveLocked ? (
            <p id="consent-live-two-factor" className="text-xs text-slate-600">
              Live access needs two-factor authentication on your sign-in first:{" "}
              <Link href={TWO_FACTOR_SETUP_PATH} className="font-medium text-indigo-700 underline underline-offset-2">
                set it up
              </Link>
              .
            </p>
          ) : null}
        </fieldset>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="submit" name="decision" value="deny" className={buttonClass("secondary")}>
            Deny
          </button>
          {mayGrant ? (
            <button type="submit" name="decision" value="approve" className={buttonClass("primary")}>
              Allow
            </button>
          ) : null}
        </div>
        {mayGrant ? null : (
          <p role="note" className="text-sm text-slate-700">
            Your role in {dashboard.merchantName} is {dashboard.role}: connecting an app needs the developer role or higher. Ask an admin of
            the team.
          </p>
        )}
        <p className="text-xs text-slate-600">You can revoke this access at any time under Connected apps in the dashboard.</p>
      </form>
    </AuthCard>
  );
}
