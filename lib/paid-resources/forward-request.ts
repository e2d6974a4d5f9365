// Forwards a paid request to the merchant's URL (a hosted paid resource with `url`), with the outbound
// protection of webhook deliveries (lib/webhooks/address-policy.ts, send-delivery.ts): unless private
// addresses are allowed (WEBHOOK_ALLOW_PRIVATE_URLS), an agent that refuses to connect to non-public
// addresses whatever DNS says now; redirects are not followed; a hard time-out; the answer is capped.
import http from "node:http";
import https from "node:https";
import { env } from "../env";
import { mayUsePrivateAddresses } from "../webhooks/address-policy";
import { outboundAgents } from "../webhooks/outbound-agents";

const agentFor = outboundAgents();

/** Largest merchant answer relayed to the payer. */
export const MAX_FORWARD_RESPONSE_BYTES = 1024 * 1024;

export type ForwardResult =
  | { ok: true; status: number; contentType: string | null; body: Buffer }
  | { ok: false; status: number | null; failure: "http_error" | "network_error" | "timeout" | "too_large" };

export interface ForwardRequest {
  url: string;
  method: string;
  body?: string;
  headers: Record<string, string>;
}

/** The payer's headers a merchant's server sees (the rest, credentials above all, stay here). */
const FORWARDED_HEADERS = ["content-type", "accept", "accept-language"];

/** A paid request (x402 or MPP) to a hosted resource's URL: its query string joined on, a few of its headers, who paid. */
export function forwardPaidRequest(
  req: Request,
  paid: { resourceId: string; url: string; paymentIntentId: string; payer: string | null; body: string | undefined },
): Promise<ForwardResult> {
  const search = new URL(req.url).search;
  return forwardRequest({
    url: search ? `${paid.url}${paid.url.includes("?") ? "&" : "?"}${search.slice(1)}` : paid.url,
    method: req.method,
    body: paid.body,
    headers: {
      ...Object.fromEntries(FORWARDED_HEADERS.flatMap((name) => (req.headers.get(name) ? [[name, req.headers.get(name)!]] : []))),
      "x-paid-resource": paid.resourceId,
      "x-payment-intent": paid.paymentIntentId,
      ...(paid.payer ? { "x-payer": paid.payer } : {}),
    },
  });
}

/** 5xx, a network failure, a time-out or an oversized answer is a failure (the caller refunds); anything else is relayed. */
export function forwardRequest(request: ForwardRequest): Promise<ForwardResult> {
  const target = new URL(request.url);
  const isHttps = target.protocol === "https:";
  const agent = agentFor(isHttps, mayUsePrivateAddresses());
  const send = isHttps ? https.request : http.request;
  const body = request.body ?? "";
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ForwardResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      target,
      {
        method: request.method,
        agent,
        headers: {
          ...request.headers,
          ...(body ? { "content-length": String(Buffer.byteLength(body)) } : {}),
          "user-agent": "AgentPaymentsService-PaidResources/1.0",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const status = res.statusCode ?? 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_FORWARD_RESPONSE_BYTES) {
            finish({ ok: false, status, failure: "too_large" });
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          if (status >= 500 || status < 200) finish({ ok: false, status, failure: "http_error" });
          else finish({ ok: true, status, contentType: res.headers["content-type"] ?? null, body: Buffer.concat(chunks) });
        });
        res.on("error", () => finish({ ok: false, status, failure: "network_error" }));
        res.on("close", () => finish({ ok: false, status, failure: "network_error" }));
      },
    );
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error("time-out"));
    }, env.WEBHOOK_TIMEOUT_MS);
    req.on("error", () => finish({ ok: false, status: null, failure: timedOut ? "timeout" : "network_error" }));
    req.end(body || undefined);
  });
}
