// One HTTP POST of a signed event to an endpoint: undici's keep-alive pools (lib/security/outbound-dispatcher.ts;
// node:http's request objects were the largest share of the sender's CPU, and Node 20's fetch measured 4-5x
// slower than node:http for this pattern), a hard time-out, redirects never followed (a 3xx is a failure),
// and unless private addresses are allowed (WEBHOOK_ALLOW_PRIVATE_URLS), a connector that refuses to connect
// to non-public addresses whatever DNS says now. A failure is recorded as its class, never its raw message.
import type { Dispatcher } from "undici";
import { env } from "../env";
import { classifySendError, type DeliveryErrorClass } from "./delivery-errors";
import { outboundDispatchers } from "../security/outbound-dispatcher";

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  /** The class of the failure (delivery-errors.ts), null on success. */
  error: DeliveryErrorClass | null;
}

let dispatcherFor: ((allowPrivate: boolean) => Dispatcher) | undefined;

const MAX_RESPONSE_BYTES = 64 * 1024;

// Origin and path by endpoint URL: parsing the URL on every send was a measurable share of the CPU; bounded.
const targets = new Map<string, { origin: string; path: string }>();
function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= 5_000) targets.delete(targets.keys().next().value!);
    targets.set(url, target);
  }
  return target;
}

class TimedOut extends Error {}

export function sendSignedPost(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  const startedAt = performance.now();
  const { origin, path } = targetOf(url);
  dispatcherFor ??= outboundDispatchers(env.WEBHOOK_TIMEOUT_MS);
  return new Promise((resolve) => {
    let settled = false;
    let status = 0;
    let received = 0;
    let controller: Dispatcher.DispatchController | null = null;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - startedAt) });
    };
    // Hard: from now to the end of the answer, however long the connection or the endpoint takes.
    const timer = setTimeout(() => {
      controller?.abort(new TimedOut());
      finish({ ok: false, responseStatus: null, error: "timeout" });
    }, env.WEBHOOK_TIMEOUT_MS);
    const answered = () => {
      const ok = status >= 200 && status < 300;
      finish({ ok, responseStatus: status, error: ok ? null : "http_error" });
    };
    try {
      dispatcherFor!(allowPrivate).dispatch(
        {
          origin,
          path,
          method: "POST",
          body,
          headers: { ...headers, "content-type": "application/json", "user-agent": "AgentPaymentsService-Webhooks/1.0" },
          headersTimeout: env.WEBHOOK_TIMEOUT_MS,
          bodyTimeout: env.WEBHOOK_TIMEOUT_MS,
        },
        {
          onRequestStart(c) {
            controller = c;
            if (settled) c.abort(new TimedOut());
          },
          onResponseStart(_c, statusCode) {
            status = statusCode;
          },
          onResponseData(c, chunk) {
            received += chunk.length;
            // The answer's body is not needed: a large one ends the connection, the status stands.
            if (received > MAX_RESPONSE_BYTES) {
              answered();
              c.abort(new Error("answer too large"));
            }
          },
          onResponseEnd: answered,
          onResponseError(_c, err) {
            if (status !== 0) return answered(); // cut after the status line: the status stands, as before
            finish({ ok: false, responseStatus: null, error: err instanceof TimedOut ? "timeout" : classifySendError(err) });
          },
        },
      );
    } catch (err) {
      finish({ ok: false, responseStatus: null, error: classifySendError(err) });
    }
  });
}
