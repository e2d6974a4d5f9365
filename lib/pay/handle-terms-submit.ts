// POST /pay/paywall/submit?<terms>: the terms page's card form, through the pay forms' shared guards.
import { handleCardSubmit, type SubmitResult } from "./handle-pay-submit";
import { payPaywallTerms, PaywallTermsQuery, termsQuery, termsSubject } from "./paywall-terms";

export async function handleTermsSubmit(req: Request): Promise<Response> {
  const parsed = PaywallTermsQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success)
    return new Response("These payment terms are incomplete.", { status: 400, headers: { "Content-Type": "text/plain" } });
  const terms = parsed.data;
  const page = `/pay/paywall?${termsQuery(terms)}`;
  return handleCardSubmit(req, {
    page,
    tokenSubject: termsSubject(terms),
    submit: async (form): Promise<SubmitResult> => {
      const { outcome, paymentIntentId } = await payPaywallTerms(terms, form);
      switch (outcome.kind) {
        case "paid":
          return { kind: "redirect", to: `${page}&paymentIntentId=${paymentIntentId}` };
        case "declined":
          return { kind: "error", status: 402, code: "declined", param: outcome.reason };
        case "invalid":
          return { kind: "error", status: 400, code: outcome.code, fieldErrors: outcome.errors };
        case "blocked":
          return { kind: "error", status: 403, code: "blocked", param: outcome.country };
        case "unavailable":
          return { kind: "error", status: 503, code: outcome.code };
        default:
          return { kind: "error", status: 503, code: "unavailable" };
      }
    },
  });
}
