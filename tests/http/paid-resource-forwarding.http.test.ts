// Issue 29, items 4 and 5: a forwarded paid request is signed (x-service-signature over method, path and query,
// x-payment-intent and body, with the resource's forwarding secret), so the merchant's server can tell it from
// anyone else's request with the SDK's verifyForwardedRequest, or with Stripe's own verifier; the secret rotates
// with an overlap. Forwarding is no proxy: the resource's one method (another is 405 before any payment is read),
// the answer capped, and the paid content served with CSP sandbox and nosniff (or from PAID_CONTENT_ORIGIN).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { Mppx } from "mppx/client";
import Stripe from "stripe";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceClient, ServiceError, verifyForwardedRequest } from "agent-payments-sdk";
import { serviceClientMethod } from "agent-payments-sdk/mpp";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { serveFetch, type FetchServer } from "../helpers/fetch-server";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { rawRequest } from "../helpers/raw-request";
import { freePort, startTestServer } from "../helpers/server";

// Stripe's verifier for its webhooks (an instance's, and the static one): the same t=,v1= scheme.
const stripeVerify = (payload: string | Buffer, header: string, secret: string) =>
  new Stripe("sk_test_x").webhooks.signature!.verifyHeader(payload, header, secret);
const staticStripeVerify = (payload: string | Buffer, header: string, secret: string) =>
  Stripe.webhooks.signature!.verifyHeader(payload, header, secret);

/** What the merchant's server saw of one request, and whether the SDK helper accepted it. */
interface Seen {
  method: string;
  pathAndQuery: string;
  headers: Headers;
  body: string;
  verified: boolean;
}

let m: TestMerchant;
let payer: TestMerchant;
let shop: FetchServer;
const seen: Seen[] = [];
/** The secrets the merchant's server verifies with (the test changes them as a merchant would). */
let shopSecrets: string[] = [];

beforeAll(async () => {
  [m, payer] = await Promise.all([createTestMerchant("Forwarding seller"), createTestMerchant("Forwarding payer")]);
  // The merchant's server: the three lines of docs/x402.md ("Forwarded requests") in front of its handler.
  shop = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const entry: Seen = {
      method: request.method,
      pathAndQuery: `${url.pathname}${url.search}`,
      headers: request.headers,
      body: await request.clone().text(),
      verified: false,
    };
    seen.push(entry);
    if (url.pathname === "/page")
      return new Response("<script>document.cookie</script>", {
        headers: { "content-type": "text/html", "set-cookie": "session=1", "x-merchant": "internal" },
      });
    try {
      const { paymentIntentId } = await verifyForwardedRequest(request, shopSecrets);
      entry.verified = true;
      return Response.json({ paidBy: paymentIntentId }, { status: 201 });
    } catch (err) {
      if (!ServiceError.is(err)) throw err;
      return Response.json({ refused: err.message }, { status: 401 });
    }
  });
});
afterAll(() => shop?.close());

async function resource(body: Record<string, unknown>, key = m.testKey, base?: string) {
  const res = await call("POST", "/v1/paid_resources", { key, base, body: { name: "Jobs", amount: 3, currency: "usd", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function x402Payer() {
  const account = privateKeyToAccount(generatePrivateKey());
  return wrapFetchWithPayment(fetch, new x402Client().register("eip155:84532", new ExactEvmScheme(account)));
}

/** The paid content's CSP: sandboxed (an opaque origin: no script, no cookies), and never framed. */
const SANDBOXED = "sandbox; frame-ancestors 'none'";

const x402Payments = () => getDb().paymentIntent.count({ where: { merchantId: m.merchantId, source: "x402" } });

/** The string the signature covers, written out by hand from the documented format (not with the SDK). */
const signedString = (s: Seen) => `${s.method} ${s.pathAndQuery}\n${s.headers.get("x-payment-intent")}\n${s.body}`;

describe("a forwarded request is signed with the resource's forwarding secret", () => {
  let jobs: any;
  let forwarded: Seen;

  beforeAll(async () => {
    jobs = await resource({ url: `${shop.url}/api/jobs?fixed=1`, method: "POST" });
    shopSecrets = [jobs.forwardingSecret];
    const res = await x402Payer()(`${baseUrl()}/x402/r/${jobs.id}?q=1&q=2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ job: "x", note: "é" }),
    });
    expect(res.status).toBe(201);
    forwarded = seen.at(-1)!;
    expect(await res.json()).toEqual({ paidBy: forwarded.headers.get("x-payment-intent") });
  });

  it("the secret is whsec_, in the creating answer only; the forward carries x-payment-intent and t=,v1=", async () => {
    expect(jobs).toMatchObject({ method: "POST", forwardingSecretSet: true, previousForwardingSecretExpiresAt: null });
    expect(jobs.forwardingSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const read = await call("GET", `/v1/paid_resources/${jobs.id}`, { key: m.testKey });
    expect(read.body.forwardingSecret).toBeUndefined();
    expect(read.body.forwardingSecretSet).toBe(true);
    expect(forwarded).toMatchObject({ method: "POST", pathAndQuery: "/api/jobs?fixed=1&q=1&q=2", verified: true });
    expect(forwarded.headers.get("x-payment-intent")).toMatch(/^pi_/);
    expect(forwarded.headers.get("x-service-signature")).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const pi = await call("GET", `/v1/payment_intents/${forwarded.headers.get("x-payment-intent")}`, { key: m.testKey });
    expect(pi.body).toMatchObject({ source: "x402", amount: 3, paidResourceId: jobs.id });
  });

  it("Stripe's verifier accepts the same signature over the documented string, and refuses it with another secret", () => {
    const header = forwarded.headers.get("x-service-signature")!;
    expect(stripeVerify(signedString(forwarded), header, jobs.forwardingSecret)).toBe(true);
    expect(staticStripeVerify(Buffer.from(signedString(forwarded)), header, jobs.forwardingSecret)).toBe(true);
    expect(() => stripeVerify(signedString(forwarded), header, "whsec_other")).toThrow();
    expect(() => stripeVerify(`${signedString(forwarded)} `, header, jobs.forwardingSecret)).toThrow();
  });

  it("an unsigned or altered request to the merchant's server is refused by the SDK helper (401 there); the exact one passes", async () => {
    const target = `${shop.url}${forwarded.pathAndQuery}`;
    const original = Object.fromEntries(
      ["content-type", "x-payment-intent", "x-service-signature"].map((n) => [n, forwarded.headers.get(n)!]),
    );
    const send = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) =>
      fetch(url, { method: init.method ?? "POST", headers: init.headers ?? original, body: init.body ?? forwarded.body });
    const { "x-service-signature": _signature, ...unsigned } = original;
    const attempts: [string, Response][] = [
      ["unsigned", await send(target, { headers: unsigned })],
      ["another body", await send(target, { body: JSON.stringify({ job: "y", note: "é" }) })],
      ["another query", await send(`${target}&admin=1`, {})],
      ["another path", await send(target.replace("/api/jobs", "/api/admin"), {})],
      ["another method", await send(target, { method: "PUT" })],
      ["another payment", await send(target, { headers: { ...original, "x-payment-intent": "pi_000000000000000000000000" } })],
      [
        "a forged signature",
        await send(target, { headers: { ...original, "x-service-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` } }),
      ],
    ];
    for (const [what, res] of attempts) expect(res.status, what).toBe(401);
    expect((await send(target, {})).status).toBe(201);
  });

  it("the helper refuses a signature older than its tolerance (300 s by default) and keeps the body readable", async () => {
    const replay = () =>
      new Request(`${shop.url}${forwarded.pathAndQuery}`, {
        method: "POST",
        headers: Object.fromEntries(["x-payment-intent", "x-service-signature"].map((n) => [n, forwarded.headers.get(n)!])),
        body: forwarded.body,
      });
    const later = Date.now() / 1000 + 301;
    await expect(verifyForwardedRequest(replay(), jobs.forwardingSecret, { now: later })).rejects.toMatchObject({
      code: "signature_verification_failed",
    });
    const req = replay();
    const verified = await verifyForwardedRequest(req, jobs.forwardingSecret, { now: later, toleranceSeconds: 600 });
    expect(verified).toMatchObject({ paymentIntentId: forwarded.headers.get("x-payment-intent"), body: forwarded.body });
    expect(await req.text()).toBe(forwarded.body);
  });

  it("MPP's forwards are signed the same way", async () => {
    const echo = await resource({ url: `${shop.url}/api/jobs`, method: "PUT" });
    shopSecrets = [echo.forwardingSecret];
    const minted = await call("POST", "/v1/shared_payment_tokens", {
      key: payer.testKey,
      body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", merchantId: m.merchantId },
    });
    expect(minted.status).toBe(201);
    const client = Mppx.create({ methods: [serviceClientMethod({ token: () => minted.body.id })], polyfill: false });
    const res = await client.fetch(`${baseUrl()}/mpp/r/${echo.id}`, { method: "PUT", body: "raw text" });
    expect(res.status).toBe(201);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: "PUT", pathAndQuery: "/api/jobs", body: "raw text", verified: true });
    expect(stripeVerify(signedString(last), last.headers.get("x-service-signature")!, echo.forwardingSecret)).toBe(true);
  });
});

describe("rotating the forwarding secret", () => {
  it("returns a new secret once; the previous one signs beside it until it expires (default 24 h; 0: at once)", async () => {
    const r = await resource({ url: `${shop.url}/api/jobs` });
    const first = r.forwardingSecret;
    const rotated = await call("POST", `/v1/paid_resources/${r.id}/rotate-forwarding-secret`, { key: m.testKey, body: {} });
    expect(rotated.status).toBe(200);
    const second = rotated.body.forwardingSecret;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const expires = Date.parse(rotated.body.previousForwardingSecretExpiresAt) - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000);

    // During the overlap: two v1 entries; a server that still has the old secret, or already the new one, accepts.
    for (const secrets of [[first], [second]]) {
      shopSecrets = secrets;
      expect((await x402Payer()(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(201);
      expect(seen.at(-1)!.headers.get("x-service-signature")).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    }

    // The alias path, ending the previous secret at once: only the newest signs.
    const again = await call("POST", `/v1/x402/resources/${r.id}/rotate-forwarding-secret`, {
      key: m.testKey,
      body: { previousSecretExpiresInSeconds: 0 },
    });
    expect(again.status).toBe(200);
    const third = again.body.forwardingSecret;
    shopSecrets = [second];
    // The merchant's refusal (401) is its answer, relayed as it is.
    expect((await x402Payer()(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(401);
    expect(seen.at(-1)!.headers.get("x-service-signature")).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    shopSecrets = [third];
    expect((await x402Payer()(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(201);
    // Another merchant's key, or the other mode's: 404, nothing rotated.
    for (const key of [payer.testKey, m.liveKey]) {
      const res = await call("POST", `/v1/paid_resources/${r.id}/rotate-forwarding-secret`, { key, body: {} });
      expect(res.status).toBe(404);
    }
    expect(
      (
        await call("POST", `/v1/paid_resources/${r.id}/rotate-forwarding-secret`, {
          key: m.testKey,
          body: { previousSecretExpiresInSeconds: -1 },
        })
      ).status,
    ).toBe(400);
  });

  it("a resource made before forwards were signed forwards unsigned until its first rotation, then signed", async () => {
    const r = await resource({ url: `${shop.url}/api/jobs` });
    await getDb().$executeRaw`UPDATE paid_resources SET forwarding_secret_ciphertext = NULL WHERE id = ${r.id}`;
    expect((await call("GET", `/v1/paid_resources/${r.id}`, { key: m.testKey })).body.forwardingSecretSet).toBe(false);
    expect((await x402Payer()(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(401);
    expect(seen.at(-1)!.headers.get("x-service-signature")).toBeNull();
    expect(seen.at(-1)!.headers.get("x-payment-intent")).toMatch(/^pi_/);
    // The SDK's method this time.
    const rotated = await new ServiceClient({ baseUrl: baseUrl(), apiKey: m.testKey }).paidResources.rotateForwardingSecret(r.id);
    expect(rotated).toMatchObject({ forwardingSecretSet: true, previousForwardingSecretExpiresAt: null });
    shopSecrets = [rotated.forwardingSecret!];
    expect((await x402Payer()(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(201);
  });
});

describe("a resource takes its one method", () => {
  it("defaults to GET; another method is 405 with Allow before the payment or the body is read, nothing charged", async () => {
    const get = await resource({ url: `${shop.url}/api/jobs` });
    const post = await resource({ url: `${shop.url}/api/jobs`, method: "POST" });
    const content = await resource({ content: { a: 1 }, method: "DELETE" });
    expect(get.method).toBe("GET");
    const before = await x402Payments();
    const seenBefore = seen.length;
    const cases: [string, string, string][] = [
      [get.id, "POST", "GET, HEAD"],
      [get.id, "DELETE", "GET, HEAD"],
      [post.id, "GET", "POST"],
      [post.id, "PUT", "POST"],
      [content.id, "GET", "DELETE"],
    ];
    for (const [id, method, allow] of cases) {
      // A payment header that would be refused (402 invalid_payload) if it were read, and a body past the limit.
      const body = method === "GET" ? undefined : "x".repeat(2_000_000);
      const x402 = await rawRequest(baseUrl(), method, `/x402/r/${id}`, { headers: { "PAYMENT-SIGNATURE": "not base64!" }, body });
      expect(x402.status, `x402 ${method} ${id}`).toBe(405);
      expect(x402.headers.allow).toBe(allow);
      expect(JSON.parse(x402.text).error).toMatchObject({ code: "METHOD_NOT_ALLOWED", details: { allowed: allow.split(", ") } });
      const mpp = await rawRequest(baseUrl(), method, `/mpp/r/${id}`, { headers: { Authorization: "Payment garbage" }, body });
      expect(mpp.status, `mpp ${method} ${id}`).toBe(405);
      expect(mpp.headers.allow).toBe(allow);
    }
    expect(await x402Payments()).toBe(before);
    expect(seen.length).toBe(seenBefore);
    // Its own method is sold (402 first), and the method is validated at creation and update.
    expect((await rawRequest(baseUrl(), "POST", `/x402/r/${post.id}`, { body: "{}" })).status).toBe(402);
    for (const method of ["TRACE", "get", "HEAD", 1]) {
      expect(
        (await call("POST", "/v1/paid_resources", { key: m.testKey, body: { name: "x", amount: 1, currency: "usd", content: 1, method } }))
          .status,
      ).toBe(400);
    }
    const changed = await call("POST", `/v1/paid_resources/${get.id}`, { key: m.testKey, body: { method: "PATCH" } });
    expect(changed.body.method).toBe("PATCH");
    expect((await rawRequest(baseUrl(), "GET", `/x402/r/${get.id}`)).status).toBe(405);
  });
});

describe("the paid content", () => {
  it("is served with Content-Security-Policy: sandbox and nosniff, and only the merchant's Content-Type", async () => {
    const content = await resource({ content: { forecast: "sunny" } });
    const page = await resource({ url: `${shop.url}/page` });
    for (const id of [content.id, page.id]) {
      const res = await x402Payer()(`${baseUrl()}/x402/r/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toBe(SANDBOXED);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("payment-response")).toBeTruthy();
    }
    // Every answer of these paths (an unpaid 402 too) is sandboxed and never framed.
    for (const protocol of ["x402", "mpp"]) {
      const unpaid = await fetch(`${baseUrl()}/${protocol}/r/${page.id}`);
      expect(unpaid.status).toBe(402);
      expect(unpaid.headers.get("content-security-policy")).toBe(SANDBOXED);
      expect(unpaid.headers.get("x-frame-options")).toBe("DENY");
    }
    const html = await x402Payer()(`${baseUrl()}/x402/r/${page.id}`);
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.headers.get("set-cookie")).toBeNull();
    expect(html.headers.get("x-merchant")).toBeNull();
    expect(await html.text()).toBe("<script>document.cookie</script>");
  });

  it("a 50 MiB answer from the merchant's server is cut at the 1 MiB cap: 502, refunded, the stream closed early", async () => {
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => (closed = resolve));
    const chunk = Buffer.alloc(64 * 1024, 97);
    const huge = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(50 * 1024 * 1024) });
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", closed);
      pump();
    });
    await new Promise<void>((resolve) => huge.listen(0, "127.0.0.1", resolve));
    try {
      const r = await resource({ url: `http://127.0.0.1:${(huge.address() as AddressInfo).port}/big` });
      const started = Date.now();
      const res = await x402Payer()(`${baseUrl()}/x402/r/${r.id}`);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(502);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "UPSTREAM_ERROR", details: { reason: "forward_failed" } });
      expect(body.error.message).toContain("too_large");
      const pi = await call("GET", `/v1/payment_intents/${body.error.details.paymentIntentId}`, { key: m.testKey });
      expect(pi.body).toMatchObject({ status: "refunded", amountRefunded: 3 });
      await done;
      console.log(
        `[cap] 50 MiB origin: 502 after ${elapsed} ms; the origin wrote ${(written / 1024 / 1024).toFixed(1)} MiB before the close`,
      );
      expect(written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      huge.close();
    }
  });
});

describe("PAID_CONTENT_ORIGIN", () => {
  let separate: ServerProcess;
  let origin: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.2:${port}`;
    separate = await startTestServer({ PAID_CONTENT_ORIGIN: origin }, { port });
  });
  afterAll(() => separate?.stop());

  it("names the other origin in x402Url and mppUrl, sends the service's own host there (308), and serves it there", async () => {
    const r = await resource({ content: { a: 1 } }, m.testKey, separate.url);
    expect(r.x402Url).toBe(`${origin}/x402/r/${r.id}`);
    expect(r.mppUrl).toBe(`${origin}/mpp/r/${r.id}`);
    for (const protocol of ["x402", "mpp"]) {
      const moved = await fetch(`${separate.url}/${protocol}/r/${r.id}?a=1`, { method: "POST", redirect: "manual" });
      expect(moved.status).toBe(308);
      expect(moved.headers.get("location")).toBe(`${origin}/${protocol}/r/${r.id}?a=1`);
    }
    const unpaid = await fetch(r.x402Url);
    expect(unpaid.status).toBe(402);
    const paid = await x402Payer()(r.x402Url);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ a: 1 });
    expect(paid.headers.get("content-security-policy")).toBe(SANDBOXED);
  });
});
