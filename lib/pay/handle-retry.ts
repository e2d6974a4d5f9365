// POST /pay/:checkoutId/retry, the declined page's "Try again with another card": the same guards as the
// pay form (same origin, the page's form token, the per-IP limit), then retryDeclinedCheckout in one
// transaction and a 303 to the new checkout's pay page (or back to this page when there is nothing to retry).
import { retryDeclinedCheckout } from "../checkouts/retry-checkout";
import { transaction } from "../db";
import { RateLimitedError } from "../errors";
import { readFormText } from "../http/form-body-limit";
import { limitByClientIp } from "../http/rate-limit-step";
import { isSameOrigin } from "../security/same-origin";
import { PATH_ID_PATTERN } from "../validation/text-safety";
import { verifyFormToken } from "./form-token";

export async function handleRetry(req: Request, checkoutId: string): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const page = `/pay/${encodeURIComponent(checkoutId)}`;
  const redirect = (to: string) => {
    headers.set("Location", to);
    return new Response(null, { status: 303, headers });
  };
  if (!isSameOrigin(req)) return redirect(`${page}?error=forbidden`);
  try {
    await limitByClientIp(req, headers);
  } catch (err) {
    if (err instanceof RateLimitedError) return redirect(`${page}?error=rate_limited`);
    throw err;
  }
  const text = await readFormText(req);
  const token = text === null ? null : new URLSearchParams(text).get("formToken");
  if (!PATH_ID_PATTERN.test(checkoutId) || !verifyFormToken(checkoutId, token)) return redirect(`${page}?error=form_expired`);
  const retryId = await transaction((tx) => retryDeclinedCheckout(tx, checkoutId));
  return redirect(retryId ? `/pay/${encodeURIComponent(retryId)}` : page);
}
