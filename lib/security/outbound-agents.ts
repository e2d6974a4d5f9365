// Keep-alive agents for the service's outbound HTTP (webhook deliveries, forwarded paid requests): unless
// private addresses are allowed (WEBHOOK_ALLOW_PRIVATE_URLS), one that refuses to connect to non-public
// addresses whatever DNS says now. Each caller makes its own pool.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 };

/** A pool of agents; the function picks the one for a target's protocol and the address policy. */
export function outboundAgents(): (isHttps: boolean, allowPrivate: boolean) => http.Agent {
  const agents = {
    open: { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) },
    filtered: { http: new RequestFilteringHttpAgent(AGENT_OPTIONS), https: new RequestFilteringHttpsAgent(AGENT_OPTIONS) },
  };
  return (isHttps, allowPrivate) => (allowPrivate ? agents.open : agents.filtered)[isHttps ? "https" : "http"];
}
