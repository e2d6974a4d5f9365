// POST /pay/:checkoutId/submit: the pay form's endpoint. It answers JSON to the page's script
// (Accept: application/json) and 303 redirects (post/redirect/get) to a plain HTML form post, so paying
// works without JavaScript. Guards: same-origin Origin header, the form token, and the per-IP rate limit.
import { env } from "../env";
import { RateLimitedError } from "../errors";
import { clientIp } from "../http/client-ip";
import { enforceRateLimit } from "../http/rate-limit-step";
import type { CardFieldErrors, CardForm } from "./card";
import { verifyFormToken } from "./form-token";
import { payErrorMessage, type PayErrorCode } from "./messages";
import { payCheckout } from "./pay-checkout";

const MAX_BODY_BYTES = 16 * 1024;

/** What the page's script receives: where to go next, or what to show. */
export interface PaySubmitReply {
  redirect?: string;
  error?: PayErrorCode;
  message?: string;
  fieldErrors?: CardFieldErrors;
}

export async function handlePaySubmit(req: Request, checkoutId: string): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const wantsJson = (req.headers.get("accept") ?? "").includes("application/json");
  const page = `/pay/${encodeURIComponent(checkoutId)}`;

  const reply = (status: number, body: PaySubmitReply, query?: Record<string, string>): Response => {
    if (wantsJson) {
      headers.set("Content-Type", "application/json");
      return new Response(JSON.stringify(body), { status, headers });
    }
    const location = body.redirect ?? `${page}?${new URLSearchParams(query ?? { error: body.error ?? "invalid_card" })}`;
    headers.set("Location", location);
    return new Response(null, { status: 303, headers });
  };
  const fail = (status: number, error: PayErrorCode, extra: Partial<PaySubmitReply> = {}, query?: Record<string, string>) =>
    reply(status, { error, message: payErrorMessage(error), ...extra }, query);

  if (!isSameOrigin(req)) return fail(403, "forbidden");
  try {
    await enforceRateLimit(`ip:${clientIp(req)}`, headers);
  } catch (err) {
    if (err instanceof RateLimitedError) return fail(429, "rate_limited");
    throw err;
  }
  const form = await readForm(req);
  if (!form) return fail(400, "invalid_card");
  if (!verifyFormToken(checkoutId, form.formToken)) return fail(403, "form_expired");

  const outcome = await payCheckout(checkoutId, form);
  switch (outcome.kind) {
    case "paid":
      return reply(200, { redirect: `${page}?status=success` });
    case "declined":
    case "closed":
    case "not_found":
      return reply(200, { redirect: page }); // the page shows the checkout as it now is (or its 404)
    case "invalid":
      return fail(400, outcome.code, { fieldErrors: outcome.errors }, { error: outcome.code, fields: Object.keys(outcome.errors).join(",") });
    case "blocked":
      return reply(403, { error: "blocked", message: payErrorMessage("blocked", outcome.country) }, { error: "blocked", country: outcome.country });
    case "unavailable":
      return fail(503, outcome.code);
  }
}

/** The browser's Origin must be this service (BASE_URL, or the Host the request came to). */
function isSameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  const allowed = new Set([new URL(env.BASE_URL).origin]);
  const host = req.headers.get("host");
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  return allowed.has(origin);
}

async function readForm(req: Request): Promise<(CardForm & { formToken: string }) | null> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) return null;
  const text = await req.text().catch(() => null);
  if (text === null || text.length > MAX_BODY_BYTES) return null;
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
  return { cardNumber: str("cardNumber"), expiry: str("expiry"), cvc: str("cvc"), name: str("name"), billingCountry: str("billingCountry"), formToken: str("formToken") };
}
