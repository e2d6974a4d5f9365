// A small GET to another party's server (foreign agent key directories; docs/cards.md "Foreign agent operators"):
// the outbound SSRF guard of webhook deliveries with hard caps. Unless private addresses are allowed, every URL
// (the first and each redirect's) is checked against the address policy (address-policy.ts), and the connection is
// made by an agent that refuses non-public addresses whatever DNS answers at connect time (DNS rebinding); `http:`
// only when private addresses are allowed. One deadline for the whole exchange, redirects included; the body is
// cut off past `maxBytes`.
import http from "node:http";
import https from "node:https";
import { ValidationError } from "../errors";
import { checkWebhookUrl } from "./address-policy";
import { outboundAgents } from "./outbound-agents";

const agentFor = outboundAgents();

export interface GuardedGetOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  headers?: Record<string, string>;
}

export type GuardedGetFailure = "refused_address" | "timeout" | "too_large" | "network_error" | "too_many_redirects";

export type GuardedGetResult =
  { ok: true; url: URL; status: number; headers: http.IncomingHttpHeaders; body: Buffer } | { ok: false; failure: GuardedGetFailure };

type Hop = GuardedGetResult | { ok: true; redirect: string };

/** The URL as the policy allows it, or null: http(s) only, `http:` only with private addresses, public addresses otherwise. */
async function allowed(raw: string, allowPrivate: boolean): Promise<URL | null> {
  try {
    const url = new URL(await checkWebhookUrl(raw, allowPrivate));
    return url.protocol === "https:" || allowPrivate ? url : null;
  } catch (err) {
    if (err instanceof ValidationError) return null;
    throw err;
  }
}

function getOnce(url: URL, options: GuardedGetOptions, deadline: number): Promise<Hop> {
  const isHttps = url.protocol === "https:";
  const send = isHttps ? https.get : http.get;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      url,
      {
        agent: agentFor(isHttps, options.allowPrivate),
        headers: { ...options.headers, "user-agent": "AgentPaymentsService-Directories/1.0" },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return finish({ ok: true, redirect: new URL(res.headers.location, url).href });
        }
        const declared = Number(res.headers["content-length"] ?? "0");
        if (declared > options.maxBytes) {
          res.destroy();
          return finish({ ok: false, failure: "too_large" });
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) {
            res.destroy();
            return finish({ ok: false, failure: "too_large" });
          }
          chunks.push(chunk);
        });
        res.on("end", () => finish({ ok: true, url, status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", () => finish({ ok: false, failure: "network_error" }));
        res.on("close", () => finish({ ok: false, failure: "network_error" }));
      },
    );
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        req.destroy(new Error("time-out"));
      },
      Math.max(1, deadline - Date.now()),
    );
    req.on("error", () => finish({ ok: false, failure: timedOut ? "timeout" : "network_error" }));
  });
}

/** GETs `raw` under the guard; a redirect is followed (at most `maxRedirects`) only to a URL the policy allows too. */
export async function guardedGet(raw: string, options: GuardedGetOptions): Promise<GuardedGetResult> {
  const deadline = Date.now() + options.timeoutMs;
  let next = raw;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    const url = await allowed(next, options.allowPrivate);
    if (!url) return { ok: false, failure: "refused_address" };
    if (Date.now() >= deadline) return { ok: false, failure: "timeout" };
    const result = await getOnce(url, options, deadline);
    if (!("redirect" in result)) return result;
    next = result.redirect;
  }
  return { ok: false, failure: "too_many_redirects" };
}
