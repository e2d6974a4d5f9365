// The pay forms' endpoints (POST /pay/:checkoutId/submit and POST /pay/paywall/submit). They answer JSON
// to the page's script (Accept: application/json) and 303 redirects (post/redirect/get) to a plain HTML
// form post, so paying works without JavaScript. Guards: same-origin Origin header, the form token, and
// the per-IP rate limit.
import { RateLimitedError } from "../errors";
import { readFormText } from "../http/form-body-limit";
import { limitByClientIp } from "../http/rate-limit-step";
import { isSameOrigin } from "../security/same-origin";
import type { CardFieldErrors, CardForm } from "./card";
import { verifyFormToken } from "./form-token";
import { payErrorMessage, type PayErrorCode } from "./messages";
import { payCheckout } from "./pay-checkout";

/** What the page's script receives: where to go next, or what to show. */
export interface PaySubmitReply {
  redirect?: string;
  error?: PayErrorCode;
  message?: string;
  fieldErrors?: CardFieldErrors;
}

export type SubmitResult =
  | { kind: "redirect"; to: string }
  /** `param`: a country code (blocked) or a decline reason (declined), carried by code only. */
  | { kind: "error"; status: number; code: PayErrorCode; param?: string; fieldErrors?: CardFieldErrors };

interface Target {
  /** The page the form is on (no-JS errors come back to it as query parameters). */
  page: string;
  /** What the form token was issued for. */
  tokenSubject: string;
  submit: (form: CardForm) => Promise<SubmitResult>;
}

export function handlePaySubmit(req: Request, checkoutId: string): Promise<Response> {
  const page = `/pay/${encodeURIComponent(checkoutId)}`;
  return handleCardSubmit(req, {
    page,
    tokenSubject: checkoutId,
    submit: async (form) => {
      const outcome = await payCheckout(checkoutId, form);
      switch (outcome.kind) {
        case "paid":
          return { kind: "redirect", to: `${page}?status=success` };
        case "declined":
        case "closed":
        case "not_found":
          return { kind: "redirect", to: page }; // the page shows the checkout as it now is (or its 404)
        case "invalid":
          return { kind: "error", status: 400, code: outcome.code, fieldErrors: outcome.errors };
        case "blocked":
          return { kind: "error", status: 403, code: "blocked", param: outcome.country };
        case "unavailable":
          return { kind: "error", status: 503, code: outcome.code };
      }
    },
  });
}

export async function handleCardSubmit(req: Request, target: Target): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const wantsJson = (req.headers.get("accept") ?? "").includes("application/json");

  const respond = (result: SubmitResult): Response => {
    if (wantsJson) {
      headers.set("Content-Type", "application/json");
      const body: PaySubmitReply =
        result.kind === "redirect"
          ? { redirect: result.to }
          : {
              error: result.code,
              message: payErrorMessage(result.code, result.param),
              ...(result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}),
            };
      return new Response(JSON.stringify(body), { status: result.kind === "redirect" ? 200 : result.status, headers });
    }
    let location = result.kind === "redirect" ? result.to : null;
    if (result.kind === "error") {
      const query = new URLSearchParams({ error: result.code });
      if (result.param) query.set(result.code === "blocked" ? "country" : "reason", result.param);
      if (result.fieldErrors) query.set("fields", Object.keys(result.fieldErrors).join(","));
      location = `${target.page}${target.page.includes("?") ? "&" : "?"}${query}`;
    }
    headers.set("Location", location!);
    return new Response(null, { status: 303, headers });
  };
  const fail = (status: number, code: PayErrorCode) => respond({ kind: "error", status, code });

  if (!isSameOrigin(req)) return fail(403, "forbidden");
  try {
    await limitByClientIp(req, headers);
  } catch (err) {
    if (err instanceof RateLimitedError) return fail(429, "rate_limited");
    throw err;
  }
  const form = await readForm(req);
  if (!form) return fail(400, "invalid_card");
  if (!verifyFormToken(target.tokenSubject, form.formToken)) return fail(403, "form_expired");
  return respond(await target.submit(form));
}

async function readForm(req: Request): Promise<(CardForm & { formToken: string }) | null> {
  const text = await readFormText(req); // streamed under the limit, never buffered whole
  if (text === null) return null;
  let fields: Record<string, unknown>;
  if ((req.headers.get("content-type") ?? "").includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
      fields = parsed as Record<string, unknown>;
    } catch {
      return null;
    }
  } else {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  const str = (name: string) => (typeof fields[name] === "string" ? (fields[name] as string).replace(/\u0000/g, "").slice(0, 200) : "");
  return {
    cardNumber: str("cardNumber"),
    expiry: str("expiry"),
    cvc: str("cvc"),
    name: str("name"),
    billingCountry: str("billingCountry"),
    formToken: str("formToken"),
  };
}
