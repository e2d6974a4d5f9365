// The pay form's error banners, by code. The no-JavaScript path carries only the code (and a country
// code) in the redirect's query, never text, so nothing the URL says is echoed onto the page.
import { countryName } from "./countries";
import { declineInPlainWords } from "./decline-reasons";

export const PAY_ERROR_CODES = [
  "invalid_card",
  "not_test_card",
  "blocked",
  "unavailable",
  "live_unavailable",
  "rate_limited",
  "form_expired",
  "forbidden",
  "declined",
] as const;
export type PayErrorCode = (typeof PAY_ERROR_CODES)[number];

export function isPayErrorCode(value: unknown): value is PayErrorCode {
  return typeof value === "string" && (PAY_ERROR_CODES as readonly string[]).includes(value);
}

/** `param`: the billing country for "blocked", the decline reason for "declined". */
export function payErrorMessage(code: PayErrorCode, param?: string): string {
  const country = param;
  switch (code) {
    case "invalid_card":
      return "Check your card details and try again.";
    case "not_test_card":
      return "This is a test checkout: use a test card such as 4242 4242 4242 4242.";
    case "blocked":
      return `Payment blocked: payments billed to ${country && /^[A-Z]{2}$/.test(country) ? countryName(country) : "this country"} cannot be accepted because of sanctions screening. Nothing was charged.`;
    case "unavailable":
      return "The payment network is not responding. Nothing was charged; try again in a moment.";
    case "live_unavailable":
      return "This business has not finished setting up live payments, so this checkout cannot be paid yet. Nothing was charged.";
    case "rate_limited":
      return "Too many attempts from your network. Wait a minute, then try again.";
    case "form_expired":
      return "This payment form has expired. Reload the page and try again.";
    case "declined":
      return `${declineInPlainWords(param).title} Nothing was charged; you can try another card.`;
    case "forbidden":
      return "This payment was not submitted from the payment page. Reload the page and try again.";
  }
}
