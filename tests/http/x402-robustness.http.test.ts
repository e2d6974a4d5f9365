// x402 under pressure (docs/x402.md): 50 concurrent settlements of ONE authorization across two server
// processes make exactly one PaymentIntent (hosted resource and facilitator alike), and bad input on every
// new path gets the protocol's own answer (402 with PAYMENT-REQUIRED, or the facilitator's
// { isValid | success: false, reason }), never a 500. Payloads are made by the real @x402/core client
// (x402Client.createPaymentPayload with @x402/evm's ExactEvmScheme), or signed by hand with viem where the
// client would refuse to make them (an expired authorization).
import { x402Client } from "@x402/core/client";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { authorizationTypes, ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, livePayable, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";

const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
const unb64 = (text: string) => JSON.parse(Buffer.from(text, "base64").toString("utf8"));

let m: TestMerchant;
let payTo: string;
let livePayTo: string;
beforeAll(async () => {
  m = await createTestMerchant("x402 robustness");
  payTo = (await call("GET", "/x402/supported", { key: m.testKey })).body.kinds[0].extra.payTo;
  livePayTo = await livePayable(m); // live: the merchant's payout address on the server's (unreachable) live network
});

async function resource(amount = 5) {
  const res = await call("POST", "/v1/paid_resources", {
    key: m.testKey,
    body: { name: "Robust", amount, currency: "usd", content: { ok: true } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** The real client's PaymentPayload for a resource's 402 (not sent). */
async function signedFor(resourceId: string, account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()), base = baseUrl()) {
  const res = await fetch(`${base}/x402/r/${resourceId}`);
  expect(res.status).toBe(402);
  const required = unb64(res.headers.get("payment-required")!);
  const client = new x402Client().register("eip155:84532", new ExactEvmScheme(account));
  const payload = await client.createPaymentPayload(required);
  return { payload: JSON.parse(JSON.stringify(payload)), required, account };
}

/** A v2 payload signed by hand (what the client would never make: an expired window, another chain). */
async function handSigned(options: {
  to: string;
  value: string;
  validBefore: bigint;
  chainId?: number;
  asset?: string;
  network?: string;
  name?: string;
}) {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as `0x${string}`;
  const authorization = {
    from: account.address,
    to: options.to,
    value: options.value,
    validAfter: "0",
    validBefore: options.validBefore.toString(),
    nonce,
  };
  const asset = options.asset ?? USDC;
  const name = options.name ?? "USDC";
  const signature = await account.signTypedData({
    domain: { name, version: "2", chainId: options.chainId ?? 84532, verifyingContract: asset as `0x${string}` },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      to: options.to as `0x${string}`,
      value: BigInt(options.value),
      validAfter: 0n,
      validBefore: options.validBefore,
    },
  });
  const accepted = {
    scheme: "exact",
    network: options.network ?? "eip155:84532",
    amount: options.value,
    asset,
    payTo: options.to,
    maxTimeoutSeconds: 300,
    extra: { name, version: "2" },
  };
  return { x402Version: 2, accepted, payload: { signature, authorization } };
}

const now = () => BigInt(Math.floor(Date.now() / 1000));

describe("50 concurrent settlements of one authorization across two server processes", () => {
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers.push(await startTestServer({ RATE_LIMIT_MAX: "10000" }), await startTestServer({ RATE_LIMIT_MAX: "10000" }));
  }, 120_000);
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it("at the hosted resource: one PaymentIntent, and all 50 get the same paid answer (the duplicates wait for the first)", async () => {
    const r = await resource(9);
    const { payload } = await signedFor(r.id, undefined, servers[0].url);
    const header = b64(payload);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${servers[i % 2].url}/x402/r/${r.id}`, { headers: { "PAYMENT-SIGNATURE": header } }).then(async (res) => ({
          res,
          body: await res.text(),
        })),
      ),
    );
    const statuses = results.map((x) => x.res.status);
    expect(
      statuses.filter((s) => s === 200),
      statuses.join(","),
    ).toHaveLength(50);
    expect(new Set(results.map((x) => x.body)).size).toBe(1);
    expect(new Set(results.map((x) => x.res.headers.get("payment-response"))).size).toBe(1);
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: r.id } })).toBe(1);
    // Captured, or already settled by another test file's tick (the tick settles every due PaymentIntent).
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: r.id, status: { in: ["captured", "settled"] } } })).toBe(1);
  });

  it("at the facilitator: one PaymentIntent; one first success and 49 answers of it (the same transaction, replayed)", async () => {
    const r = await resource(8);
    const { payload } = await signedFor(r.id, undefined, servers[1].url);
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const before = await getDb().paymentIntent.count({ where: { merchantId: m.merchantId, source: "x402" } });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call("POST", "/x402/settle", { key: m.testKey, base: servers[i % 2].url, body })),
    );
    const outcomes = results.map(
      (x) => `${x.status} ${x.body.success} ${x.body.extensions?.replayed ?? false} ${x.body.errorReason ?? ""}`,
    );
    expect(
      outcomes.filter((o) => o === "200 true false "),
      outcomes.join(","),
    ).toHaveLength(1);
    expect(outcomes.filter((o) => o === "200 true true ")).toHaveLength(49);
    expect(new Set(results.map((x) => x.body.transaction)).size).toBe(1);
    expect(await getDb().paymentIntent.count({ where: { merchantId: m.merchantId, source: "x402" } })).toBe(before + 1);
  });
});

describe("bad input at /x402/r/:id: 402 with the reason in PAYMENT-REQUIRED, never a 500", () => {
  it("malformed base64, not JSON, wrong version, unknown scheme, wrong network, altered signature, expired, underpaid, huge", async () => {
    const r = await resource(5);
    const { payload } = await signedFor(r.id);
    const altered = structuredClone(payload);
    const sig: string = altered.payload.signature;
    altered.payload.signature = sig.slice(0, 10) + (sig[10] === "a" ? "b" : "a") + sig.slice(11);
    const otherValue = structuredClone(payload);
    otherValue.payload.authorization.value = "1000000";
    const wrongScheme = { ...structuredClone(payload), accepted: { ...payload.accepted, scheme: "upto" } };
    const wrongNetwork = { ...structuredClone(payload), accepted: { ...payload.accepted, network: "eip155:1" } };
    const expired = await handSigned({ to: payTo, value: "50000", validBefore: now() - 10n });
    const underpaid = await handSigned({ to: payTo, value: "40000", validBefore: now() + 300n });
    const wrongPayee = await handSigned({ to: "0x1111111111111111111111111111111111111111", value: "50000", validBefore: now() + 300n });
    const cases: [string, Record<string, string>, string][] = [
      ["malformed base64", { "PAYMENT-SIGNATURE": "%%%not-base64%%%" }, "invalid_payload"],
      ["base64 of not JSON", { "PAYMENT-SIGNATURE": Buffer.from("hello").toString("base64") }, "invalid_payload"],
      ["v1 header not JSON", { "X-PAYMENT": Buffer.from("[1,").toString("base64") }, "invalid_payload"],
      ["v1 header of {}", { "X-PAYMENT": "e30" }, "invalid_x402_version"],
      ["wrong version", { "PAYMENT-SIGNATURE": b64({ ...payload, x402Version: 3 }) }, "invalid_x402_version"],
      ["no version", { "PAYMENT-SIGNATURE": b64({ hello: 1 }) }, "invalid_x402_version"],
      ["unknown scheme", { "PAYMENT-SIGNATURE": b64(wrongScheme) }, "invalid_scheme"],
      ["wrong network", { "PAYMENT-SIGNATURE": b64(wrongNetwork) }, "invalid_exact_evm_network_mismatch"],
      [
        "v1 on a v2 payload shape",
        { "X-PAYMENT": b64({ x402Version: 1, scheme: "exact", network: "base", payload: payload.payload }) },
        "invalid_exact_evm_network_mismatch",
      ],
      ["altered signature", { "PAYMENT-SIGNATURE": b64(altered) }, "invalid_exact_evm_signature"],
      ["altered value", { "PAYMENT-SIGNATURE": b64(otherValue) }, "invalid_exact_evm_signature"],
      ["expired authorization", { "PAYMENT-SIGNATURE": b64(expired) }, "invalid_exact_evm_payload_authorization_valid_before"],
      ["underpaid (accepted echo differs)", { "PAYMENT-SIGNATURE": b64(underpaid) }, "invalid_payload"],
      ["another payee", { "PAYMENT-SIGNATURE": b64(wrongPayee) }, "invalid_payload"],
      ["missing payload", { "PAYMENT-SIGNATURE": b64({ x402Version: 2, accepted: payload.accepted }) }, "invalid_payload"],
      ["huge header", { "PAYMENT-SIGNATURE": "A".repeat(15_000) }, "invalid_payload"],
    ];
    const before = await getDb().paymentIntent.count({ where: { paidResourceId: r.id } });
    for (const [label, headers, reason] of cases) {
      const res = await fetch(`${baseUrl()}/x402/r/${r.id}`, { headers });
      expect(res.status, label).toBe(402);
      expect(unb64(res.headers.get("payment-required")!).error, label).toBe(reason);
      expect((await res.json()).x402Version, label).toBe(1);
    }
    // Past Node's 16 KB header limit the server answers 431 and closes the connection (undici may see only the close).
    const tooBig = await fetch(`${baseUrl()}/x402/r/${r.id}`, { headers: { "PAYMENT-SIGNATURE": "A".repeat(40_000) } }).then(
      (res) => res.status,
      (err) => (err?.cause?.code === "UND_ERR_SOCKET" ? 431 : 0),
    );
    expect(tooBig).toBe(431);
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: r.id } })).toBe(before);
    // The untouched payload still pays once: nothing above used it up.
    const ok = await fetch(`${baseUrl()}/x402/r/${r.id}`, { headers: { "PAYMENT-SIGNATURE": b64(payload) } });
    expect(ok.status).toBe(200);
  });
});

describe("bad input at the facilitator: its own answers, never a 500", () => {
  it("refuses without a key, malformed bodies 400, and each bad payment with its reason", async () => {
    const r = await resource(6);
    const { payload } = await signedFor(r.id);
    const good = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    expect((await call("POST", "/x402/verify", { body: good })).status).toBe(401);
    expect((await call("GET", "/x402/supported", {})).status).toBe(401);
    const notJson = await call("POST", "/x402/verify", {
      key: m.testKey,
      rawBody: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ isValid: false, invalidReason: "invalid_payload" });
    const notJsonSettle = await call("POST", "/x402/settle", {
      key: m.testKey,
      rawBody: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJsonSettle.status).toBe(400);
    expect(notJsonSettle.body).toMatchObject({ success: false, errorReason: "invalid_payload", transaction: "", network: "" });
    for (const path of ["/x402/verify", "/x402/settle"]) {
      for (const body of [{}, { x402Version: "2" }, { x402Version: 2, paymentPayload: "x", paymentRequirements: {} }, [1, 2]]) {
        const res = await call("POST", path, { key: m.testKey, body });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(path.endsWith("verify") ? res.body.isValid : res.body.success).toBe(false);
        expect(path.endsWith("verify") ? res.body.invalidReason : res.body.errorReason).toBe("invalid_payload");
      }
      const huge = await call("POST", path, { key: m.testKey, body: { ...good, padding: "x".repeat(100_000) } });
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
    }
    const altered = structuredClone(payload);
    altered.payload.authorization.nonce = `0x${"ab".repeat(32)}`;
    const expired = await handSigned({ to: payTo, value: "60000", validBefore: now() - 1n });
    const cases: [string, unknown, string][] = [
      ["wrong version", { ...good, x402Version: 7 }, "invalid_x402_version"],
      ["version mismatch", { ...good, x402Version: 1 }, "invalid_x402_version"],
      ["unknown scheme", { ...good, paymentRequirements: { ...good.paymentRequirements, scheme: "stream" } }, "invalid_scheme"],
      ["wrong network", { ...good, paymentRequirements: { ...good.paymentRequirements, network: "eip155:1" } }, "invalid_network"],
      [
        "other asset",
        { ...good, paymentRequirements: { ...good.paymentRequirements, asset: "0x1111111111111111111111111111111111111111" } },
        "invalid_payload",
      ],
      [
        "requirements missing amount",
        { ...good, paymentRequirements: { ...good.paymentRequirements, amount: undefined } },
        "invalid_payment_requirements",
      ],
      ["altered authorization", { ...good, paymentPayload: altered }, "invalid_exact_evm_signature"],
      [
        "expired",
        { x402Version: 2, paymentPayload: expired, paymentRequirements: expired.accepted },
        "invalid_exact_evm_payload_authorization_valid_before",
      ],
      [
        "fractional cents",
        {
          ...good,
          paymentRequirements: { ...good.paymentRequirements, amount: "60001" },
          paymentPayload: { ...payload, accepted: { ...payload.accepted, amount: "60001" } },
        },
        "invalid_payment_requirements",
      ],
    ];
    for (const [label, body, reason] of cases) {
      const verify = await call("POST", "/x402/verify", { key: m.testKey, body });
      expect(verify.status, label).toBe(200);
      expect(verify.body, label).toMatchObject({ isValid: false, invalidReason: reason });
      const settle = await call("POST", "/x402/settle", { key: m.testKey, body });
      expect(settle.status, label).toBe(200);
      expect(settle.body, label).toMatchObject({ success: false, errorReason: reason, transaction: "" });
    }
    // v1 bodies too.
    const v1 = {
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: payload.payload },
      paymentRequirements: {
        scheme: "exact",
        network: "base-sepolia",
        maxAmountRequired: "60000",
        resource: "https://x/y",
        description: "d",
        mimeType: "application/json",
        payTo,
        maxTimeoutSeconds: 300,
        asset: USDC,
        extra: { name: "USDC", version: "2" },
      },
    };
    expect((await call("POST", "/x402/verify", { key: m.testKey, body: v1 })).body).toEqual({
      isValid: true,
      payer: payload.payload.authorization.from,
    });
    expect((await call("POST", "/x402/verify", { key: m.testKey, body: good })).body).toEqual({
      isValid: true,
      payer: payload.payload.authorization.from,
    });
  });

  it("GET /x402/supported names exact (v2 and v1) and upto on the mode's networks and where the merchant is paid; live mode needs the chain", async () => {
    const test = await call("GET", "/x402/supported", { key: m.testKey });
    expect(test.body.kinds).toEqual([
      {
        x402Version: 2,
        scheme: "exact",
        network: "eip155:84532",
        extra: expect.objectContaining({ payTo, asset: USDC, name: "USDC", version: "2" }),
      },
      { x402Version: 1, scheme: "exact", network: "base-sepolia", extra: expect.objectContaining({ payTo }) },
      {
        x402Version: 2,
        scheme: "upto",
        network: "eip155:84532",
        extra: expect.objectContaining({ payTo, asset: USDC, facilitatorAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) }),
      },
    ]);
    // Live: the configured live network (Base Sepolia here), paid to the merchant's own payout address.
    const supportedLive = await call("GET", "/x402/supported", { key: m.liveKey });
    expect(supportedLive.body.kinds).toEqual([
      { x402Version: 2, scheme: "exact", network: "eip155:84532", extra: expect.objectContaining({ payTo: livePayTo, asset: USDC }) },
      { x402Version: 1, scheme: "exact", network: "base-sepolia", extra: expect.objectContaining({ payTo: livePayTo }) },
      {
        x402Version: 2,
        scheme: "upto",
        network: "eip155:84532",
        extra: expect.objectContaining({ payTo: livePayTo, facilitatorAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) }),
      },
    ]);
    expect(livePayTo).not.toBe(payTo);
    // A network this deployment does not settle on in live mode: refused, as the protocol refuses it.
    const mainnet = await handSigned({
      to: livePayTo,
      value: "10000",
      validBefore: now() + 300n,
      chainId: 8453,
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      network: "eip155:8453",
      name: "USD Coin",
    });
    const refused = { x402Version: 2, paymentPayload: mainnet, paymentRequirements: mainnet.accepted };
    expect((await call("POST", "/x402/verify", { key: m.liveKey, body: refused })).body).toMatchObject({
      isValid: false,
      invalidReason: "invalid_network",
    });
    // A well-formed live payment while its chain cannot be reached: 502 in the facilitator's shape, nothing written.
    const live = await handSigned({ to: livePayTo, value: "10000", validBefore: now() + 300n });
    const body = { x402Version: 2, paymentPayload: live, paymentRequirements: live.accepted };
    const verify = await call("POST", "/x402/verify", { key: m.liveKey, body });
    expect(verify.status).toBe(502);
    expect(verify.body).toMatchObject({ isValid: false, invalidReason: "unexpected_verify_error" });
    const settle = await call("POST", "/x402/settle", { key: m.liveKey, body });
    expect(settle.status).toBe(502);
    expect(settle.body).toEqual({
      success: false,
      errorReason: "unexpected_settle_error",
      errorMessage: expect.stringContaining("could not be reached"),
      transaction: "",
      network: "eip155:84532",
      payer: live.payload.authorization.from,
    });
    expect(await getDb().paymentIntent.count({ where: { merchantId: m.merchantId, livemode: true } })).toBe(0);
  });
});

describe("a settlement the rail cannot make answers in x402's shape, with nothing charged", () => {
  let tripped: TestMerchant;
  beforeAll(async () => {
    // Trip the merchant's own test-rail circuit on the shared server (CIRCUIT_FAILURE_THRESHOLD, default 5).
    tripped = await createTestMerchant("x402 circuit open");
    let status = 0;
    for (let i = 0; i < 10 && status !== 503; i++) {
      const checkout = await call("POST", "/v1/checkouts", { key: tripped.testKey, body: { amount: 100, currency: "usd" } });
      status = (
        await call("POST", `/v1/checkouts/${checkout.body.id}/capture`, {
          key: tripped.testKey,
          body: { paymentMethod: "pm_rail_unavailable" },
        })
      ).status;
    }
    expect(status).toBe(503);
  });

  async function trippedResource() {
    const res = await call("POST", "/v1/paid_resources", {
      key: tripped.testKey,
      body: { name: "Circuit", amount: 7, currency: "usd", content: { ok: true } },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("the hosted resource, paid with the stock @x402/fetch: 402 with the reason in PAYMENT-REQUIRED and a failed PAYMENT-RESPONSE", async () => {
    const r = await trippedResource();
    const account = privateKeyToAccount(generatePrivateKey());
    const pay = wrapFetchWithPayment(fetch, new x402Client().register("eip155:84532", new ExactEvmScheme(account)));
    const res = await pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(402);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(unb64(res.headers.get("payment-required")!)).toMatchObject({ x402Version: 2, error: "unexpected_settle_error" });
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({
      success: false,
      errorReason: "unexpected_settle_error",
      transaction: "",
      network: "eip155:84532",
      payer: account.address,
    });
    expect(await res.json()).toMatchObject({ x402Version: 1, error: "unexpected_settle_error", accepts: [expect.any(Object)] });
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: r.id } })).toBe(0);
  });

  it("the facilitator: 503 in the settle response's shape with Retry-After, which the stock HTTPFacilitatorClient reads as a SettleError", async () => {
    const r = await trippedResource();
    const { payload } = await signedFor(r.id);
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const settle = await call("POST", "/x402/settle", { key: tripped.testKey, body });
    expect(settle.status).toBe(503);
    expect(Number(settle.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(settle.body).toMatchObject({ success: false, errorReason: "unexpected_settle_error", transaction: "", network: "eip155:84532" });
    const facilitator = new HTTPFacilitatorClient({
      url: `${baseUrl()}/x402`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${tripped.testKey}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    await expect(facilitator.settle(payload, payload.accepted)).rejects.toMatchObject({
      statusCode: 503,
      errorReason: "unexpected_settle_error",
    });
    expect(await getDb().paymentIntent.count({ where: { merchantId: tripped.merchantId, source: "x402" } })).toBe(0);
  });
});
