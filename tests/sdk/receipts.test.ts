// The SDK's verifyReceipt (docs/receipts.md), offline: receipts signed with jose as the service signs them (ES256,
// and EdDSA, which the contract also allows) verify against a JWK Set served by a fetch of the test's own; the key
// set is fetched once and kept (an unknown kid refetches it at most every 30 s, so a key rotated in is found); an
// altered payload, a key not published, another issuer, `alg: none` and garbage are refused with their reasons; a
// failed fetch of the keys is not kept.
import { randomUUID } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearReceiptKeyCache, ServiceError, verifyReceipt } from "agent-payments-sdk";

const BASE = "https://pay.example";

const claims = (paymentIntentId = `pi_${randomUUID().replace(/-/g, "").slice(0, 24)}`) => ({
  iss: BASE,
  sub: paymentIntentId,
  iat: 1_800_000_000,
  paymentIntentId,
  merchantId: "mer_abc",
  livemode: false,
  amount: 1250,
  currency: "usd",
  source: "x402",
  payer: { type: "address", id: "0x1111111111111111111111111111111111111111" },
  paidResourceId: "xr_abc",
  capturedAt: "2026-11-29T10:00:00.000Z",
});

async function signingKey(alg: "ES256" | "EdDSA") {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, jwk: { ...jwk, kid, alg, use: "sig" } as JWK };
}

type Key = Awaited<ReturnType<typeof signingKey>>;

const sign = (key: Key, payload: Record<string, unknown>, alg = key.jwk.alg!) =>
  new SignJWT(payload).setProtectedHeader({ alg, kid: key.kid, typ: "JWT" }).sign(key.privateKey);

/** A fetch serving `published` as the JWK Set at BASE, counting its calls. */
function jwksFetch(published: () => JWK[]) {
  return vi.fn(async (url: string) => {
    expect(url).toBe(`${BASE}/.well-known/jwks.json`);
    return new Response(JSON.stringify({ keys: published() }), { headers: { "content-type": "application/json" } });
  });
}

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "verified";
  } catch (err) {
    expect(ServiceError.is(err), String(err)).toBe(true);
    expect((err as ServiceError).code).toBe("signature_verification_failed");
    return (err as ServiceError).details.reason as string;
  }
}

let es256: Key;
let eddsa: Key;

beforeEach(async () => {
  clearReceiptKeyCache();
  [es256, eddsa] = await Promise.all([signingKey("ES256"), signingKey("EdDSA")]);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("verifyReceipt", () => {
  it("answers the claims of a receipt signed by a published key (ES256 and EdDSA); the keys are fetched once", async () => {
    const fetch = jwksFetch(() => [es256.jwk, eddsa.jwk]);
    const payload = claims();
    expect(await verifyReceipt(await sign(es256, payload), { baseUrl: `${BASE}/`, fetch })).toEqual(payload);
    expect(await verifyReceipt(await sign(eddsa, payload), { baseUrl: BASE, fetch })).toEqual(payload);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("refuses an altered payload, a key not published, another key under a published kid, and another issuer", async () => {
    const fetch = jwksFetch(() => [es256.jwk]);
    const jws = await sign(es256, claims());
    const [header, , signature] = jws.split(".");
    const richer = Buffer.from(JSON.stringify({ ...claims(), amount: 1 })).toString("base64url");
    expect(await reason(verifyReceipt(`${header}.${richer}.${signature}`, { baseUrl: BASE, fetch }))).toBe("bad_signature");
    expect(await reason(verifyReceipt(await sign(eddsa, claims()), { baseUrl: BASE, fetch }))).toBe("unknown_key");
    const impostor = await signingKey("ES256");
    const underPublishedKid = await new SignJWT(claims()).setProtectedHeader({ alg: "ES256", kid: es256.kid }).sign(impostor.privateKey);
    expect(await reason(verifyReceipt(underPublishedKid, { baseUrl: BASE, fetch }))).toBe("bad_signature");
    expect(await reason(verifyReceipt(await sign(es256, { ...claims(), iss: "https://evil.example" }), { baseUrl: BASE, fetch }))).toBe(
      "wrong_issuer",
    );
  });

  it("refuses what is no signed receipt: garbage, alg none, a header without kid", async () => {
    const fetch = jwksFetch(() => [es256.jwk]);
    expect(await reason(verifyReceipt("not a jws", { baseUrl: BASE, fetch }))).toBe("malformed");
    expect(await reason(verifyReceipt("a.b.c", { baseUrl: BASE, fetch }))).toBe("malformed");
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    expect(await reason(verifyReceipt(`${part({ alg: "none", kid: es256.kid })}.${part(claims())}.`, { baseUrl: BASE, fetch }))).toBe(
      "unsupported_algorithm",
    );
    const noKid = await new SignJWT(claims()).setProtectedHeader({ alg: "ES256" }).sign(es256.privateKey);
    expect(await reason(verifyReceipt(noKid, { baseUrl: BASE, fetch }))).toBe("unknown_key");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("finds a key rotated in after the keys were fetched, refetching at most every 30 s", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const published = [es256.jwk];
    const fetch = jwksFetch(() => published);
    await verifyReceipt(await sign(es256, claims()), { baseUrl: BASE, fetch });
    const rotatedIn = await signingKey("ES256");
    published.unshift(rotatedIn.jwk);
    const fresh = await sign(rotatedIn, claims());
    expect(await reason(verifyReceipt(fresh, { baseUrl: BASE, fetch }))).toBe("unknown_key"); // within 30 s: not refetched
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 30_000);
    expect(await reason(verifyReceipt(fresh, { baseUrl: BASE, fetch }))).toBe("verified");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("a failed fetch of the keys is jwks_unavailable (status 0) and is not kept", async () => {
    const jws = await sign(es256, claims());
    const down = vi.fn(async () => new Response("no", { status: 503 }));
    const failed = await verifyReceipt(jws, { baseUrl: BASE, fetch: down }).catch((err: unknown) => err as ServiceError);
    expect(failed).toMatchObject({ code: "signature_verification_failed", status: 0, details: { reason: "jwks_unavailable" } });
    expect(await reason(verifyReceipt(jws, { baseUrl: BASE, fetch: jwksFetch(() => [es256.jwk]) }))).toBe("verified");
  });
});
