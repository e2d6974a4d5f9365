// paywallHttp()'s answers (paywall-http.ts, paywall-upto.ts): JSON responses, and a response with its payment block.
import type { FailedCallPayment } from "./paywall-refund";
import type { PaymentBlock } from "./paywall-terms";

export const PAYMENT_RESPONSE_HEADER = "x-service-payment-response";

export async function withPayment(response: Response, payment: PaymentBlock | FailedCallPayment): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(PAYMENT_RESPONSE_HEADER, JSON.stringify(payment));
  if (isJson(response.headers.get("content-type")) && response.body !== null) {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, statusText: response.statusText, headers });
    }
    const augmented = typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body, payment } : body;
    headers.delete("content-length");
    return new Response(JSON.stringify(augmented), { status: response.status, statusText: response.statusText, headers });
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

export function json(status: number, body: unknown, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...extraHeaders, "content-type": "application/json" } });
}
