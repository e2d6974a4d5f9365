// Issue 29, item 5: a paid resource's forward has its own switch for non-public addresses
// (PAID_RESOURCE_ALLOW_PRIVATE_URLS, on by default only for a loopback BASE_URL), independent of the webhooks'.
// On a deployment (public BASE_URL) a loopback or private target is refused at creation and update, and at every
// forward, a name re-pointed at a private address after creation (DNS rebinding) included: the payment is refunded
// and the merchant's server is never reached. The servers here preload tests/helpers/dns-stub.mjs, so the test
// decides what `rebind.test` resolves to at each lookup.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

const PUBLIC = "93.184.216.34"; // example.com's address: public, never connected to here
const stubFile = path.join(os.tmpdir(), `dns-stub-${process.pid}-${Date.now()}.json`);
const pointRebindAt = (address: string) => writeFileSync(stubFile, JSON.stringify({ "rebind.test": address }));
const withStub = { nodeArgs: ["--import", path.join(import.meta.dirname, "../helpers/dns-stub.mjs")] };

const INTERNAL = [
  "http://127.0.0.1:9/h",
  "http://localhost:3000/h",
  "http://10.0.0.5:6379/",
  "http://192.168.0.10:8080/h",
  "http://169.254.169.254/latest/meta-data",
  "http://[::1]/h",
  "http://[::ffff:127.0.0.1]/h",
  "http://0x7f000001/h",
  "https://[fd00::1]/h",
  "http://rebind.test/h", // resolving to 127.0.0.1 at creation
];

let strict: ServerProcess; // public BASE_URL, the webhooks' switch on: paid resources stay strict
let allowing: ServerProcess; // public BASE_URL, PAID_RESOURCE_ALLOW_PRIVATE_URLS=1, the webhooks' switch off
let m: TestMerchant;
let origin: Server;
let originUrl: string;
const received: string[] = [];

beforeAll(async () => {
  pointRebindAt("127.0.0.1");
  const env = { BASE_URL: "https://pay.example.com", DNS_STUB_FILE: stubFile };
  [strict, allowing, m] = await Promise.all([
    startTestServer({ ...env, WEBHOOK_ALLOW_PRIVATE_URLS: "1" }, withStub),
    startTestServer({ ...env, PAID_RESOURCE_ALLOW_PRIVATE_URLS: "1", WEBHOOK_ALLOW_PRIVATE_URLS: "0" }, withStub),
    createTestMerchant("Paid resource SSRF"),
  ]);
  origin = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" }).end('{"internal":true}');
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  origin?.close();
  await Promise.all([strict, allowing].filter(Boolean).map((s) => s.stop()));
});

function pay(url: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  return wrapFetchWithPayment(fetch, new x402Client().register("eip155:84532", new ExactEvmScheme(account)))(url);
}

async function create(base: string, url: string, key = m.testKey) {
  return call("POST", "/v1/paid_resources", { key, base, body: { name: "Internal", amount: 4, currency: "usd", url } });
}

/** A paid request the service must not forward: 502 forward_failed, the payment refunded, the origin untouched. */
async function expectRefusedForward(id: string) {
  const before = received.length;
  const res = await pay(`${strict.url}/x402/r/${id}`);
  expect(res.status).toBe(502);
  const body = await res.json();
  expect(body.error).toMatchObject({ code: "UPSTREAM_ERROR", details: { reason: "forward_failed" } });
  expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONN|private IP/);
  const pi = await call("GET", `/v1/payment_intents/${body.error.details.paymentIntentId}`, { key: m.testKey, base: strict.url });
  expect(pi.body).toMatchObject({ status: "refunded", amountRefunded: 4 });
  expect(received.length).toBe(before);
}

describe("a deployment (public BASE_URL)", () => {
  it.each(INTERNAL)("refuses a paid resource at %s in both modes, even with WEBHOOK_ALLOW_PRIVATE_URLS=1", async (url) => {
    for (const key of [m.testKey, m.liveKey]) {
      const res = await create(strict.url, url, key);
      expect(res.status, `${url} ${key.slice(0, 7)}`).toBe(400);
      expect(res.body.error.details.fields[0]).toMatchObject({ path: "url", message: expect.stringMatching(/private|loopback/) });
    }
  });

  it("refuses an update to an internal address; the webhooks' own switch still applies to webhooks", async () => {
    const r = await create(strict.url, "https://example.com/api");
    expect(r.status).toBe(201);
    const res = await call("POST", `/v1/paid_resources/${r.body.id}`, { key: m.testKey, base: strict.url, body: { url: originUrl } });
    expect(res.status).toBe(400);
    const hook = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, base: strict.url, body: { url: `${originUrl}/h` } });
    expect(hook.status).toBe(201);
    await call("DELETE", `/v1/webhook-endpoints/${hook.body.id}`, { key: m.testKey, base: strict.url });
  });

  it("PAID_RESOURCE_ALLOW_PRIVATE_URLS=1 accepts them (and forwards there), independently of the webhooks' switch", async () => {
    const r = await create(allowing.url, `${originUrl}/ok`);
    expect(r.status).toBe(201);
    const hook = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, base: allowing.url, body: { url: `${originUrl}/h` } });
    expect(hook.status).toBe(400);
    const res = await pay(`${allowing.url}/x402/r/${r.body.id}`);
    expect(res.status).toBe(200);
    expect(received.at(-1)).toBe("GET /ok");
  });

  it("refuses at forward time a resource whose address is private (made where it was allowed)", async () => {
    const r = await create(allowing.url, `${originUrl}/made-elsewhere`);
    expect(r.status).toBe(201);
    await expectRefusedForward(r.body.id);
  });

  it("DNS rebinding: a name public at creation and private at the forward is refused at the forward", async () => {
    const port = (origin.address() as AddressInfo).port;
    pointRebindAt(PUBLIC);
    const r = await create(strict.url, `http://rebind.test:${port}/rebound`);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    pointRebindAt("127.0.0.1");
    await expectRefusedForward(r.body.id);
    // The control: where private addresses are allowed the same name reaches the origin (the stub works).
    const res = await pay(`${allowing.url}/x402/r/${r.body.id}`);
    expect(res.status).toBe(200);
    expect(received.at(-1)).toBe("GET /rebound");
  });
});
