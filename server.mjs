// The production HTTP server: Next.js's request handler behind a plain Node server, so that the
// client's address comes from the socket. Whatever X-Forwarded-For a client sends, the socket peer is
// appended last; lib/http/client-ip.ts trusts only TRUSTED_PROXY_HOPS entries before it, and only in a
// process this file marks (served another way, the header is not trusted: see client-ip.ts). Under /v1,
// what Next would answer outside the error contract is answered in it (lib/http/v1-edge.mjs).
import { createServer } from "node:http";
import next from "next";
import { answerClientError, guardV1 } from "./lib/http/v1-edge.mjs";

globalThis[Symbol.for("aps.server-mjs.peer-in-x-forwarded-for")] = true;
// A long-running process: instrumentation.ts starts its background work (the commit listener and the
// webhook sender, docs/webhooks.md "Wake on commit"). A serverless host never runs this file.
process.env.APS_LONG_RUNNING = "1";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((req, res) => {
  const peer = req.socket.remoteAddress ?? "unknown";
  const forwarded = req.headers["x-forwarded-for"];
  req.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
  if (guardV1(req, res)) return;
  handle(req, res);
});
server.on("clientError", answerClientError);
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => console.log(`Agent Payments Service listening on http://localhost:${port}`));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
