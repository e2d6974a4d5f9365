// ACP request signing (docs/acp.md "Request signing"), against a real server and database. A merchant without a
// signing key is answered as before; once it registers the agent platform's public key (/v1/acp_signing_keys),
// every /acp request must carry a Signature (base64url, Ed25519 or ES256 over the canonical JSON of
// { body, method, path, timestamp }) and a fresh Timestamp: unsigned, badly signed, signed for another body or
// stale requests are 401 in ACP's flat error shape; revoking the key turns the check off again. The signatures are
// made here with node:crypto and a canonical JSON written here, not with the service's code.
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { acpCall } from "../helpers/acp";
import { createProduct, delegateBody, expectValid } from "../helpers/acp-edges";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let m: TestMerchant;
let productId: string;
const ed = generateKeyPairSync("ed25519");
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const stranger = generateKeyPairSync("ed25519");

beforeAll(async () => {
  m = await createTestMerchant("ACP signing shop");
  productId = await createProduct(m.testKey, 800);
});

/** JSON with object keys sorted at every level and no whitespace (RFC 8785's ordering for plain JSON). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function signature(key: KeyObject, method: string, path: string, timestamp: string, body: unknown): string {
  const data = Buffer.from(canonical({ body: body ?? null, method, path, timestamp }));
  const bytes = key.asymmetricKeyType === "ed25519" ? sign(null, data, key) : sign("sha256", data, { key, dsaEncoding: "ieee-p1363" });
  return bytes.toString("base64url");
}

interface Signed {
  key?: KeyObject;
  timestamp?: string;
  /** Sign this body instead of the one sent (a tampered request). */
  signedBody?: unknown;
  /** Idempotency-Key (default: a fresh one on POST). */
  idem?: string;
}

function signedCall(method: string, path: string, body: unknown, s: Signed = {}) {
  const timestamp = s.timestamp ?? new Date().toISOString();
  const headers = s.key
    ? { Signature: signature(s.key, method, path, timestamp, s.signedBody === undefined ? body : s.signedBody), Timestamp: timestamp }
    : undefined;
  return acpCall(method, path, { key: m.testKey, body, headers, idem: s.idem });
}

const cart = () => ({ items: [{ id: productId, quantity: 1 }] });

describe("ACP request signing", () => {
  let edKeyId: string;
  let ecKeyId: string;

  it("unconfigured: unsigned requests are accepted as before", async () => {
    const created = await signedCall("POST", "/acp/checkout_sessions", cart());
    expect(created.status).toBe(201);
    const list = await call("GET", "/v1/acp_signing_keys", { key: m.testKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: "list", data: [], hasMore: false });
  });

  it("registers public keys only (Ed25519, P-256)", async () => {
    const privateJwk = ed.privateKey.export({ format: "jwk" });
    const refused = await call("POST", "/v1/acp_signing_keys", { key: m.testKey, body: { jwk: privateJwk } });
    expect(refused.status).toBe(400);
    const rsa = await call("POST", "/v1/acp_signing_keys", { key: m.testKey, body: { jwk: { kty: "RSA", n: "x", e: "AQAB" } } });
    expect(rsa.status).toBe(400);

    const edKey = await call("POST", "/v1/acp_signing_keys", {
      key: m.testKey,
      body: { jwk: ed.publicKey.export({ format: "jwk" }), name: "Agent platform (Ed25519)" },
    });
    expect(edKey.status, JSON.stringify(edKey.body)).toBe(201);
    expect(edKey.body).toMatchObject({ object: "acp_signing_key", alg: "EdDSA", status: "active", livemode: false });
    expect(edKey.body.jwk.d).toBeUndefined();
    edKeyId = edKey.body.id;
    const ecKey = await call("POST", "/v1/acp_signing_keys", { key: m.testKey, body: { jwk: ec.publicKey.export({ format: "jwk" }) } });
    expect(ecKey.status).toBe(201);
    expect(ecKey.body.alg).toBe("ES256");
    ecKeyId = ecKey.body.id;
    const list = await call("GET", "/v1/acp_signing_keys", { key: m.testKey });
    expect(list.body.data.map((k: any) => k.id).sort()).toEqual([edKeyId, ecKeyId].sort());
  });

  it("configured: a valid signature is accepted, with either key, on every /acp route", async () => {
    const created = await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ed.privateKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const byEc = await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ec.privateKey });
    expect(byEc.status).toBe(201);
    const read = await signedCall("GET", `/acp/checkout_sessions/${created.body.id}`, undefined, { key: ed.privateKey });
    expect(read.status).toBe(200);
    const offset = new Date(Date.now() - 60_000).toISOString().replace("Z", "+00:00");
    const withOffset = await signedCall(
      "POST",
      `/acp/checkout_sessions/${created.body.id}/cancel`,
      {},
      { key: ed.privateKey, timestamp: offset },
    );
    expect(withOffset.status).toBe(200);
  });

  it("configured: unsigned, badly signed, tampered or stale requests are refused 401 (ACP's flat error), nothing done", async () => {
    const unsigned = await signedCall("POST", "/acp/checkout_sessions", cart());
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toMatchObject({ type: "invalid_request", code: "signature_required" });
    expectValid("agentic_checkout", "2026-04-17", "Error", unsigned.body);

    const wrongKey = await signedCall("POST", "/acp/checkout_sessions", cart(), { key: stranger.privateKey });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toMatchObject({ type: "invalid_request", code: "invalid_signature" });

    const tampered = await signedCall(
      "POST",
      "/acp/checkout_sessions",
      { items: [{ id: productId, quantity: 5 }] },
      {
        key: ed.privateKey,
        signedBody: cart(),
      },
    );
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe("invalid_signature");

    const stale = await signedCall("POST", "/acp/checkout_sessions", cart(), {
      key: ed.privateKey,
      timestamp: new Date(Date.now() - 10 * 60_000).toISOString(),
    });
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe("invalid_timestamp");
    const notRfc3339 = await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ed.privateKey, timestamp: "yesterday" });
    expect(notRfc3339.body.code).toBe("invalid_timestamp");

    const garbage = await acpCall("POST", "/acp/checkout_sessions", {
      key: m.testKey,
      body: cart(),
      headers: { Signature: "not base64url!", Timestamp: new Date().toISOString() },
    });
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe("invalid_signature");

    const session = await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ed.privateKey });
    const read = await signedCall("GET", `/acp/checkout_sessions/${session.body.id}`, undefined);
    expect(read.status).toBe(401);
    const delegate = await signedCall(
      "POST",
      "/acp/agentic_commerce/delegate_payment",
      delegateBody(m.merchantId, session.body.id, "4242424242424242", 800),
    );
    expect(delegate.status).toBe(401);
    expect(delegate.body.code).toBe("signature_required");
    const delegateSigned = await signedCall(
      "POST",
      "/acp/agentic_commerce/delegate_payment",
      delegateBody(m.merchantId, session.body.id, "4242424242424242", 800),
      { key: ec.privateKey },
    );
    expect(delegateSigned.status).toBe(201);
  });

  it("configured: a refused request claims nothing, so its Idempotency-Key still serves the genuine request", async () => {
    // As Stripe: a 401 never touches idempotency. Were the refusal stored under K, the genuine request with K would
    // get that 401 replayed.
    for (const [path, body] of [
      ["/acp/checkout_sessions", cart()],
      [
        "/acp/agentic_commerce/delegate_payment",
        delegateBody(
          m.merchantId,
          (await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ed.privateKey })).body.id,
          "4242424242424242",
          800,
        ),
      ],
    ] as const) {
      const idem = randomUUID();
      const unsigned = await signedCall("POST", path, body, { idem });
      expect(unsigned.status).toBe(401);
      const forged = await signedCall("POST", path, body, { idem, key: stranger.privateKey });
      expect(forged.status, JSON.stringify(forged.body)).toBe(401);
      expect(forged.body.code).toBe("invalid_signature");
      expect(forged.headers.get("idempotent-replayed")).toBeNull();

      const genuine = await signedCall("POST", path, body, { idem, key: ed.privateKey });
      expect(genuine.status, JSON.stringify(genuine.body)).toBe(201);
      expect(genuine.headers.get("idempotent-replayed")).toBeNull();
      // The genuine request's retry (signed afresh) is answered with its first answer; a forged one still 401.
      const retry = await signedCall("POST", path, body, { idem, key: ec.privateKey });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body.id).toBe(genuine.body.id);
      const forgedAfter = await signedCall("POST", path, body, { idem, key: stranger.privateKey });
      expect(forgedAfter.status).toBe(401);
      expect(forgedAfter.body.code).toBe("invalid_signature");
    }
  });

  it("another merchant without keys is unaffected; revoking the keys turns the check off", async () => {
    const other = await createTestMerchant("ACP unsigned shop");
    const otherProduct = await createProduct(other.testKey, 500);
    const theirs = await acpCall("POST", "/acp/checkout_sessions", {
      key: other.testKey,
      body: { items: [{ id: otherProduct, quantity: 1 }] },
    });
    expect(theirs.status).toBe(201);

    const revoked = await call("POST", `/v1/acp_signing_keys/${edKeyId}/revoke`, { key: m.testKey, body: {} });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: edKeyId, status: "revoked" });
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    // One key left: an Ed25519 signature no longer verifies, and unsigned is still refused.
    expect((await signedCall("POST", "/acp/checkout_sessions", cart(), { key: ed.privateKey })).status).toBe(401);
    expect((await call("POST", `/v1/acp_signing_keys/${ecKeyId}/revoke`, { key: m.testKey, body: {} })).status).toBe(200);
    expect((await signedCall("POST", "/acp/checkout_sessions", cart())).status).toBe(201);
    expect((await call("POST", `/v1/acp_signing_keys/${ecKeyId}/revoke`, { key: other.testKey, body: {} })).status).toBe(404);
  });
});
