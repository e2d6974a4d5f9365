// One HTTP POST of a signed event to an endpoint: keep-alive agents (Node 20's fetch measured 4-5x
// slower for this pattern), a hard time-out, redirects never followed (a 3xx is a failure), and for
// unless private addresses are allowed (WEBHOOK_ALLOW_PRIVATE_URLS), an agent that refuses to connect to
// non-public addresses whatever DNS says now. A failure is recorded as its class, never its raw message.
import http from "node:http";
import https from "node:https";
import { urlToHttpOptions } from "node:url";
import { env } from "../env";
import { classifySendError, type DeliveryErrorClass } from "./delivery-errors";
import { outboundAgents } from "../security/outbound-agents";

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  /** The class of the failure (delivery-errors.ts), null on success. */
  error: DeliveryErrorClass | null;
}

const agentFor = outboundAgents();

const MAX_RESPONSE_BYTES = 64 * 1024;

// Request options by endpoint URL: parsing the URL on every send was a measurable share of the CPU; bounded.
const targets = new Map<string, { isHttps: boolean; options: http.RequestOptions }>();
function targetOf(url: string): { isHttps: boolean; options: http.RequestOptions } {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    target = { isHttps: parsed.protocol === "https:", options: urlToHttpOptions(parsed) };
    if (targets.size >= 5_000) targets.delete(targets.keys().next().value!);
    targets.set(url, target);
  }
  return target;
}

export function sendSignedPost(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  const startedAt = performance.now();
  const { isHttps, options } = targetOf(url);
  const agent = agentFor(isHttps, allowPrivate);
  const request = isHttps ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - startedAt) });
    };
    const req = request(
      {
        ...options,
        method: "POST",
        agent,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "AgentPaymentsService-Webhooks/1.0",
        },
      },
      (res) => {
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy(); // the answer's body is not needed
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish({ ok, responseStatus: status, error: ok ? null : "http_error" });
        };
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(`no answer within ${env.WEBHOOK_TIMEOUT_MS} ms`));
    }, env.WEBHOOK_TIMEOUT_MS);
    req.on("error", (err) => finish({ ok: false, responseStatus: null, error: timedOut ? "timeout" : classifySendError(err) }));
    req.end(body);
  });
}
