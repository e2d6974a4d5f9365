// Signed receipts (docs/receipts.md; issue 32), against the real server: a captured PaymentIntent's receipt is
// signed once (every GET, concurrent first ones included, answers the same JWS) with the contract's claims; it
// verifies with jose against /.well-known/jwks.json in a separate process that has no database access, while an
// altered payload or a key the service does not publish fails there; the SDK's verifyReceipt agrees; the did:web
// document resolves the same key for x402's offer-receipt extension; refusals (404, 409 not_captured, a restricted
// key without `receipts`); the dashboard's payment page shows it and downloads it; and after `npm run receipts:rotate-key` old receipts still verify and new ones carry the
// new kid. The signing key is the deployment's own (one for every merchant): rotating it here leaves every other
// test file's receipts verifiable, as it does in production.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { extractPublicKeyFromKid } from "@x402/extensions/offer-receipt";
import { ServiceClient, ServiceError, verifyReceipt } from "agent-payments-sdk";
import { compactVerify, decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { normalizePermissions } from "../../lib/merchants/permissions";
import { ROOT } from "../../scripts/lib/prisma-cli";
import { dashboardCall, dashboardMerchant, dashboardPage } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, openCheckout, paidOrder, receiptCommittedWithCapture } from "../helpers/payments";
import { TEST_SECRETS_KEY } from "../helpers/server";

const VERIFIER = path.join(ROOT, "tests/helpers/verify-receipt.mjs");

let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  [merchant, other] = await Promise.all([createTestMerchant("Receipts merchant"), createTestMerchant("Receipts other merchant")]);
});

afterAll(async () => {
  await getDb().$disconnect();
});

interface Verified {
  ok: boolean;
  kid?: string;
  payload?: Record<string, any>;
  code?: string;
  databaseUrl: string | null;
}

/** jose in a process of its own: only PATH in its environment (no DATABASE_URL), the JWKS address and the JWS. */
function verifyElsewhere(jws: string): Promise<Verified> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VERIFIER, `${baseUrl()}/.well-known/jwks.json`, baseUrl()], {
      env: { PATH: process.env.PATH ?? "" } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code: number | null) =>
      code === 0 ? resolve(JSON.parse(out) as Verified) : reject(new Error(`verifier exited ${code}`)),
    );
    child.stdin.end(jws);
  });
}

/** A captured PaymentIntent of `m` (optionally the checkout's customer's); its id. */
async function capturedPayment(m: TestMerchant = merchant, amount = 1000): Promise<string> {
  const { order } = await paidOrder(m.testKey, amount);
  return order.paymentIntentId as string;
}

async function receipt(paymentIntentId: string, key = merchant.testKey) {
  const res = await call("GET", `/v1/payment_intents/${paymentIntentId}/receipt`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.jws as string;
}

/** The same JWS with other claims (its signature kept). */
function altered(jws: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = jws.split(".");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  return [header, Buffer.from(JSON.stringify({ ...claims, ...change })).toString("base64url"), signature].join(".");
}

async function jwksKids(): Promise<string[]> {
  const res = await fetch(`${baseUrl()}/.well-known/jwks.json`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
}

describe("GET /v1/payment_intents/:id/receipt", () => {
  it("signs once: two GETs answer the same JWS, with the contract's claims and the kid in its header", async () => {
    const customer = await createCustomer(merchant.testKey);
    const checkout = await openCheckout(merchant.testKey, { amount: 2500, customerId: customer.id });
    expect((await capture(merchant.testKey, checkout.id)).status).toBe(200);
    const pi = (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: merchant.testKey })).body;

    const first = await call("GET", `/v1/payment_intents/${pi.id}/receipt`, { key: merchant.testKey });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ object: "receipt", paymentIntentId: pi.id, jws: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(await receipt(pi.id)).toBe(first.body.jws);
    // An API capture signs no receipt in its transaction: the first GET signed and stored it, after the capture.
    expect(await receiptCommittedWithCapture(pi.id)).toBe(false);

    const header = decodeProtectedHeader(first.body.jws);
    expect(header).toMatchObject({ alg: "ES256", kid: expect.any(String) });
    expect(await jwksKids()).toContain(header.kid);
    const claims = decodeJwt(first.body.jws);
    expect(claims).toEqual({
      iss: baseUrl(),
      sub: pi.id,
      iat: expect.any(Number),
      paymentIntentId: pi.id,
      merchantId: merchant.merchantId,
      livemode: false,
      amount: 2500,
      currency: pi.currency,
      source: "api",
      payer: { type: "customer", id: customer.id },
      orderId: pi.orderId,
      capturedAt: pi.capturedAt,
    });
  });

  it("concurrent first requests answer one and the same JWS, stored once", async () => {
    const id = await capturedPayment();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call("GET", `/v1/payment_intents/${id}/receipt`, { key: merchant.testKey })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => res.body.jws)).size).toBe(1);
    expect(await getDb().receipt.count({ where: { paymentIntentId: id } })).toBe(1);
    // A card paid without a customer names no payer.
    expect(decodeJwt(answers[0].body.jws).payer).toBeNull();
  });

  it("refuses: an unknown or another merchant's PaymentIntent is 404, one not captured 409 not_captured", async () => {
    const id = await capturedPayment();
    expect((await call("GET", `/v1/payment_intents/${id}/receipt`, { key: other.testKey })).status).toBe(404);
    expect((await call("GET", `/v1/payment_intents/${id}/receipt`, { key: merchant.liveKey })).status).toBe(404);
    expect((await call("GET", `/v1/payment_intents/pi_${"0".repeat(24)}/receipt`, { key: merchant.testKey })).status).toBe(404);
    const open = await openCheckout(merchant.testKey);
    const refused = await call("GET", `/v1/payment_intents/${open.paymentIntentId}/receipt`, { key: merchant.testKey });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "not_captured", status: "requires_payment" } });
    expect(await getDb().receipt.count({ where: { paymentIntentId: open.paymentIntentId } })).toBe(0);
  });

  it("a restricted key needs receipts: read (payment_intents: read is not enough)", async () => {
    const id = await capturedPayment();
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const keyWith = (grants: Record<string, string>) =>
      transaction((tx) => createScopedApiKey(tx, scope, { name: "receipts", permissions: normalizePermissions(grants) }));
    const payments = await keyWith({ payment_intents: "read" });
    const denied = await call("GET", `/v1/payment_intents/${id}/receipt`, { key: payments.secret });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ reason: "permission_denied", resource: "receipts", required: "read" });
    const receipts = await keyWith({ receipts: "read" });
    expect(await receipt(id, receipts.secret)).toBe(await receipt(id));
  });

  it("the SDK's client method answers the same receipt", async () => {
    const id = await capturedPayment();
    const client = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey });
    expect((await client.paymentIntents.receipt(id)).jws).toBe(await receipt(id));
  });
});

describe("verifying a receipt without the service's database", () => {
  it("verifies with jose against /.well-known/jwks.json in a separate process that has no DATABASE_URL", async () => {
    const id = await capturedPayment(merchant, 1234);
    const jws = await receipt(id);
    const verified = await verifyElsewhere(jws);
    expect(verified).toMatchObject({ ok: true, kid: decodeProtectedHeader(jws).kid, databaseUrl: null });
    expect(verified.payload).toMatchObject({ iss: baseUrl(), sub: id, paymentIntentId: id, amount: 1234, merchantId: merchant.merchantId });
  });

  it("an altered payload fails, and so does a JWS signed by a key the service does not publish", async () => {
    const jws = await receipt(await capturedPayment(merchant, 1000));
    expect(await verifyElsewhere(altered(jws, { amount: 1 }))).toMatchObject({ ok: false, code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
    expect(await verifyElsewhere(altered(jws, { merchantId: other.merchantId }))).toMatchObject({ ok: false });

    const { privateKey } = await generateKeyPair("ES256");
    const claims = decodeJwt(jws);
    const unpublished = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "not-a-published-key", typ: "JWT" })
      .sign(privateKey);
    expect(await verifyElsewhere(unpublished)).toMatchObject({ ok: false, code: "ERR_JWKS_NO_MATCHING_KEY" });
    // Another key under the published kid: the published key does not verify it.
    const impostor = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: decodeProtectedHeader(jws).kid!, typ: "JWT" })
      .sign(privateKey);
    expect(await verifyElsewhere(impostor)).toMatchObject({ ok: false, code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
  });

  it("the SDK's verifyReceipt accepts the receipt and refuses the same forgeries", async () => {
    const id = await capturedPayment();
    const jws = await receipt(id);
    const verified = await verifyReceipt(jws, { baseUrl: baseUrl() });
    expect(verified).toMatchObject({ iss: baseUrl(), paymentIntentId: id, merchantId: merchant.merchantId, livemode: false });
    const reasonOf = (promise: Promise<unknown>) =>
      promise.then(
        () => "verified",
        (err: unknown) => (ServiceError.is(err) ? (err.details.reason as string) : String(err)),
      );
    expect(await reasonOf(verifyReceipt(altered(jws, { amount: 1 }), { baseUrl: baseUrl() }))).toBe("bad_signature");
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT(decodeJwt(jws)).setProtectedHeader({ alg: "ES256", kid: "not-a-published-key" }).sign(privateKey);
    expect(await reasonOf(verifyReceipt(forged, { baseUrl: baseUrl() }))).toBe("unknown_key");
    // The right keys, another issuer: the receipt is not that service's.
    const elsewhere = "http://service.example";
    expect(await reasonOf(verifyReceipt(jws, { baseUrl: elsewhere, jwksUrl: `${baseUrl()}/.well-known/jwks.json` }))).toBe("wrong_issuer");
  });

  it("the did:web document resolves the signing key for x402's offer-receipt extension (kid did:web:<host>#<kid>)", async () => {
    const jws = await receipt(await capturedPayment());
    const res = await fetch(`${baseUrl()}/.well-known/did.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      id: string;
      verificationMethod: { id: string; publicKeyJwk: { kid: string } }[];
      assertionMethod: string[];
    };
    const did = `did:web:${encodeURIComponent(new URL(baseUrl()).host)}`;
    const kid = decodeProtectedHeader(jws).kid!;
    expect(doc.id).toBe(did);
    expect(doc.assertionMethod).toContain(`${did}#${kid}`);
    expect(doc.verificationMethod.map((method) => method.publicKeyJwk.kid).sort()).toEqual((await jwksKids()).sort());
    // The extension's own resolver fetches the document over HTTP and imports the key it names.
    const key = await extractPublicKeyFromKid(`${did}#${kid}`);
    await expect(compactVerify(jws, key)).resolves.toBeTruthy();
  });
});

describe("the dashboard's payment page", () => {
  it("shows a captured payment's receipt and downloads it as receipt-<pi>.jws; another merchant's is 404", async () => {
    const owner = await dashboardMerchant("Receipts dashboard merchant");
    const { order } = await paidOrder(owner.key, 4200);
    const jws = await receipt(order.paymentIntentId, owner.key);
    const page = await dashboardPage(owner.session, `/dashboard/payments/${order.paymentIntentId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="receipt"');
    expect(page.html).toContain(jws);

    const download = await dashboardCall(owner.session, "GET", `/api/dashboard/payments/${order.paymentIntentId}/receipt`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/jose");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${order.paymentIntentId}.jws"`);
    expect(download.body).toBe(jws);

    const stranger = await dashboardMerchant("Receipts dashboard stranger");
    expect((await dashboardCall(stranger.session, "GET", `/api/dashboard/payments/${order.paymentIntentId}/receipt`)).status).toBe(404);
    // An open checkout's PaymentIntent shows no receipt section.
    const open = await openCheckout(owner.key);
    expect((await dashboardPage(owner.session, `/dashboard/payments/${open.paymentIntentId}`)).html).not.toContain('data-testid="receipt"');
  });
});

describe("npm run receipts:rotate-key", () => {
  it("a new key signs new receipts; old receipts are not re-signed and still verify; the retired key cannot sign", async () => {
    const oldId = await capturedPayment();
    const oldJws = await receipt(oldId);
    const oldKid = decodeProtectedHeader(oldJws).kid!;

    const run = spawnSync("npm", ["run", "-s", "receipts:rotate-key", "--", "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, SECRETS_ENCRYPTION_KEY: TEST_SECRETS_KEY },
    });
    expect(run.status, run.stderr).toBe(0);
    const rotated = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { kid: string; retiredKid: string | null };
    expect(rotated.kid).not.toBe(oldKid);
    expect(rotated.retiredKid).not.toBeNull();

    const kids = await jwksKids();
    expect(kids[0]).toBe(rotated.kid); // newest first
    expect(kids).toContain(oldKid);
    expect(await receipt(oldId)).toBe(oldJws);
    expect(await verifyElsewhere(oldJws)).toMatchObject({ ok: true, kid: oldKid });

    const newJws = await receipt(await capturedPayment());
    expect(decodeProtectedHeader(newJws).kid).toBe(rotated.kid);
    expect(await verifyElsewhere(newJws)).toMatchObject({ ok: true, kid: rotated.kid });

    // Retired keys lose their private half; the database admits one active key.
    const retired = await getDb().serviceSigningKey.findUniqueOrThrow({ where: { kid: rotated.retiredKid! } });
    expect(retired).toMatchObject({ active: false, privateJwkCiphertext: null, retiredAt: expect.any(Date) });
    await expect(
      getDb().$executeRaw`INSERT INTO service_signing_keys (kid, public_jwk, private_jwk_ciphertext) VALUES ('second-active', '{}', 'x')`,
    ).rejects.toThrow(/service_signing_keys_one_active|unique/i);
  });
});
