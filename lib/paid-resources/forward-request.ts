// Forwards a paid request to the merchant's URL (a hosted paid resource with `url`; docs/x402.md, "Forwarded
// requests"). No proxy: the resource's one method to its `url` plus the payer's query string (no path suffix), a
// few of the payer's headers, the answer capped and only its Content-Type relayed. The outbound protection of
// webhook deliveries (lib/security/address-policy.ts, send-delivery.ts) with its own switch: unless
// PAID_RESOURCE_ALLOW_PRIVATE_URLS, an agent that refuses to connect to non-public addresses whatever DNS says
// now (a name re-pointed after creation included); redirects are not followed; a hard time-out. Each forward is
// signed with the resource's forwarding secret (agent-payments-sdk: verifyForwardedRequest).
import http from "node:http";
import https from "node:https";
import { PAYMENT_INTENT_HEADER, SIGNATURE_HEADER, signForwardedRequest } from "agent-payments-sdk";
import { env } from "../env";
import type { PaidResource } from "../generated/prisma/client";
import { checkWebhookUrl } from "../security/address-policy";
import { outboundAgents } from "../security/outbound-agents";
import { forwardingSecretsOf } from "./forwarding-secret";

const agentFor = outboundAgents();

/** Largest merchant answer relayed to the payer. */
export const MAX_FORWARD_RESPONSE_BYTES = 1024 * 1024;

export type ForwardResult =
  | { ok: true; status: number; contentType: string | null; body: Buffer; usageUnits: string | null }
  | { ok: false; status: number | null; failure: "http_error" | "network_error" | "timeout" | "too_large" };

export interface ForwardRequest {
  url: URL;
  method: string;
  body?: string;
  headers: Record<string, string>;
}

/** The payer's headers a merchant's server sees (the rest, credentials above all, stay here). */
const FORWARDED_HEADERS = ["content-type", "accept", "accept-language"];

/** A forward target at creation or update: the webhook URL policy, with the paid resources' switch. */
export function checkForwardUrl(raw: string): Promise<string> {
  return checkWebhookUrl(raw, env.PAID_RESOURCE_ALLOW_PRIVATE_URLS);
}

/** A paid request (x402 or MPP) to a hosted resource's URL: its query string joined on, a few of its headers, who paid, signed. */
export function forwardPaidRequest(
  req: Request,
  resource: PaidResource,
  paid: { paymentIntentId: string; payer: string | null; body: string | undefined },
): Promise<ForwardResult> {
  const url = new URL(resource.url!);
  const query = new URL(req.url).search.slice(1);
  if (query) url.search = url.search ? `${url.search}&${query}` : query;
  const body = paid.body ?? "";
  const secrets = forwardingSecretsOf(resource);
  const parts = { method: resource.method, pathAndQuery: `${url.pathname}${url.search}`, paymentIntentId: paid.paymentIntentId, body };
  return forwardRequest({
    url,
    method: resource.method,
    body,
    headers: {
      ...Object.fromEntries(FORWARDED_HEADERS.flatMap((name) => (req.headers.get(name) ? [[name, req.headers.get(name)!]] : []))),
      "x-paid-resource": resource.id,
      [PAYMENT_INTENT_HEADER]: paid.paymentIntentId,
      ...(paid.payer ? { "x-payer": paid.payer } : {}),
      // A resource made before forwards were signed has no secret until its first rotation.
      ...(secrets.length ? { [SIGNATURE_HEADER]: signForwardedRequest(secrets, parts, Math.floor(Date.now() / 1000)) } : {}),
    },
  });
}

/** 5xx, a network failure, a time-out or an oversized answer is a failure (the caller refunds); anything else is relayed. */
export function forwardRequest(request: ForwardRequest): Promise<ForwardResult> {
  const target = request.url;
  const isHttps = target.protocol === "https:";
  const agent = agentFor(isHttps, env.PAID_RESOURCE_ALLOW_PRIVATE_URLS);
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
          else {
            // A usage-priced resource's server reports what the request used (x402 upto: sell-metered.ts).
            const usage = res.headers["x-usage-units"];
            const usageUnits = typeof usage === "string" ? usage : null;
            finish({ ok: true, status, contentType: res.headers["content-type"] ?? null, body: Buffer.concat(chunks), usageUnits });
          }
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
