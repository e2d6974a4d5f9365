// The consent decision (POST /oauth/authorize from the consent page): the signed-in dashboard user
// approves (a code for the mode and scopes they chose, for the merchant the dashboard has selected, as a
// developer or higher there) or denies (error=access_denied). The form must come
// from this site (Origin) with the session's CSRF token: a forged form cannot grant anything.
import { originOf, recordActivity } from "../accounts/activity";
import { transaction } from "../db";
import { ForbiddenError } from "../errors";
import { clientIp } from "../http/client-ip";
import { verifyCsrfToken } from "./csrf";
import { requireRole } from "../accounts/require-role";
import type { Dashboard } from "./session";
import { assertLiveWriteAllowed } from "./two-factor-gate";
import { isSameOrigin } from "../security/same-origin";
import { AUTHORIZE_PARAMS, BoundRequestError, checkAuthorizeRequest, errorRedirect, redirectWith } from "../oauth/authorize-request";
import { issuer, writeIsOptional, type Scope } from "../oauth/config";
import { issueCode } from "../oauth/issue-code";

export const CSRF_FIELD = "csrf_token";
/** The merchant the consent page was shown for: a switch in another tab meanwhile refuses the form. */
export const MERCHANT_FIELD = "merchant";

/** The authorization request's own parameters, out of the consent form (or a query). */
export function authorizeParamsOf(source: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) for (const value of source.getAll(name)) params.append(name, value);
  return params;
}

/** Where the browser goes next: the client's redirect URI with a code, or with error=access_denied. */
export async function decideConsent(req: Request, form: URLSearchParams, dashboard: Dashboard): Promise<string> {
  if (!isSameOrigin(req)) throw new ForbiddenError("Cross-site request refused: the Origin header is not this service.");
  if (!verifyCsrfToken(dashboard.sid, form.get(CSRF_FIELD)))
    throw new ForbiddenError("Missing or invalid CSRF token: reload the consent page and try again.");
  const shownFor = form.get(MERCHANT_FIELD);
  if (shownFor !== null && shownFor !== dashboard.scope.merchantId)
    throw new ForbiddenError("The dashboard switched to another merchant since this page was shown: reload it and try again.");
  const request = await checkAuthorizeRequest(authorizeParamsOf(form)).catch((err: unknown) => {
    // The form's checks passed: an error of a request bound to the client goes back to its redirect URI.
    throw err instanceof BoundRequestError ? errorRedirect(err.redirectUri, err.state, err.error, err.description) : err;
  });
  if (form.get("decision") !== "approve") {
    throw errorRedirect(request.redirectUri, request.state, "access_denied", "The merchant denied the request.");
  }
  // Granting an app access is handing out a credential, as creating an API key is: developers and up.
  requireRole(dashboard, "developer");
  const mode = form.get("mode");
  if (mode !== "test" && mode !== "live") throw new ForbiddenError("Choose test or live mode.");
  // A live grant lets the app act on real money: the live-mode rule of the dashboard holds here too.
  assertLiveWriteAllowed(dashboard, mode === "live");
  // Exactly the scopes asked (read when none were), less only by write where read was asked too; never more.
  const optionalWrite = writeIsOptional(request.scopes);
  const granted = request.scopes.filter((scope: Scope) => scope !== "write" || !optionalWrite || form.get("grant_write") === "on");
  const grant = { merchantId: dashboard.scope.merchantId, userId: dashboard.user.id, livemode: mode === "live", scopes: granted };
  // The code and the consent's activity row commit together.
  const code = await transaction(async (tx) => {
    const issued = await issueCode(tx, request, grant);
    await recordActivity(tx, {
      action: "oauth_consent",
      userId: grant.userId,
      merchantId: grant.merchantId,
      origin: originOf(req.headers, clientIp(req)),
      detail: { clientId: request.client.id, clientName: request.client.name, livemode: grant.livemode, scopes: granted.join(" ") },
    });
    return issued;
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer() });
}
