// lib/webhooks/send-delivery.ts over real sockets (undici's pools): what one POST of a delivery returns for
// each way an endpoint can answer or fail, and the send-time address policy on IP literals in every form and
// on names that resolve to loopback. tests/http/webhook-delivery.http.test.ts proves the same through a server.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importWithEnv } from "../helpers/modules-with-env";

type Send = typeof import("../../lib/webhooks/send-delivery").sendSignedPost;
let sendSignedPost: Send;
let server: http.Server;
let port = 0;
let restoreEnv = () => {};
const received: { url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  const loaded = await importWithEnv({ WEBHOOK_TIMEOUT_MS: "500" }, () => import("../../lib/webhooks/send-delivery"));
  ({ sendSignedPost } = loaded.modules);
  restoreEnv = loaded.restore;
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ url: req.url!, body, headers: req.headers });
      if (req.url === "/silent") return; // never answers
      if (req.url === "/large") return void res.writeHead(200).end("x".repeat(200_000));
      if (req.url === "/redirect") return void res.writeHead(302, { location: "/ok" }).end();
      if (req.url === "/error") return void res.writeHead(500).end("no");
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  restoreEnv();
});

const send = (path: string, allowPrivate = true, host = "127.0.0.1") =>
  sendSignedPost(`http://${host}:${port}${path}`, '{"id":"evt_1"}', { "x-service-signature": "t=1,v1=ab" }, allowPrivate);

describe("sendSignedPost", () => {
  it("posts the body and headers as given, and a 2xx is a success", async () => {
    expect(await send("/ok?q=1")).toMatchObject({ ok: true, responseStatus: 200, error: null });
    const last = received.at(-1)!;
    expect(last).toMatchObject({ url: "/ok?q=1", body: '{"id":"evt_1"}' });
    expect(last.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": "14",
      "x-service-signature": "t=1,v1=ab",
      "user-agent": "AgentPaymentsService-Webhooks/1.0",
    });
  });

  it("a non-2xx (a redirect too: never followed) is an http_error with its status", async () => {
    expect(await send("/error")).toMatchObject({ ok: false, responseStatus: 500, error: "http_error" });
    const before = received.length;
    expect(await send("/redirect")).toMatchObject({ ok: false, responseStatus: 302, error: "http_error" });
    expect(received.length).toBe(before + 1);
  });

  it("a large answer is cut, its status stands", async () => {
    expect(await send("/large")).toMatchObject({ ok: true, responseStatus: 200 });
  });

  it("no answer within WEBHOOK_TIMEOUT_MS is a timeout, and the pool goes on", async () => {
    const result = await send("/silent");
    expect(result).toMatchObject({ ok: false, responseStatus: null, error: "timeout" });
    expect(result.durationMs).toBeGreaterThanOrEqual(490);
    expect(result.durationMs).toBeLessThan(1_500);
    expect(await send("/ok")).toMatchObject({ ok: true });
  });

  it("nothing listening is connection_refused", async () => {
    expect(await sendSignedPost("http://127.0.0.1:1/", "{}", {}, true)).toMatchObject({ ok: false, error: "connection_refused" });
  });

  it("under the address policy, no connection to a non-public address: literals in any form, and names resolving to one", async () => {
    const before = received.length;
    for (const host of ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]", "10.0.0.5", "169.254.169.254", "0.0.0.0"])
      expect(await send("/ok", false, host), host).toMatchObject({ ok: false, responseStatus: null, error: "blocked_address" });
    expect(received.length).toBe(before);
  });

  it("many at once share the keep-alive pool", async () => {
    const results = await Promise.all(Array.from({ length: 300 }, () => send("/ok")));
    expect(results.every((r) => r.ok)).toBe(true);
  });
});
