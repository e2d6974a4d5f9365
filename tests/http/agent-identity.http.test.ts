// Agent identity on a running server (docs/cards.md): agent keys (agk_, keyid = RFC 7638 thumbprint, public JWK
// only, revocable), the public key directories, and POST /mastercard/verify and /visa/verify: the stock
// web-bot-auth signer's requests verify (signed its README's way), the stock http-message-sig signs a TAP request
// that /visa/verify accepts, and each refusal gives its own reason code. The nonce is spent in the database:
// two parallel verifications of one signed request pass once. A foreign Signature-Agent is never fetched.
import { createServer } from "node:http";
import { createSignature } from "http-message-sig";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { signAgentObject, signAgentRequest, type AgentPrivateJwk } from "agent-payments-sdk";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { newAgentKey } from "../helpers/agent-keys";
import { registerAgentKey } from "../helpers/agent-registration";

const pub = (k: AgentPrivateJwk) => ({ kty: k.kty, crv: k.crv, x: k.x });

let payer: TestMerchant;
let shop: TestMerchant;
beforeAll(async () => {
  payer = await createTestMerchant("agent provider");
  shop = await createTestMerchant("shop with its own server");
});

async function register(network: "visa" | "mastercard", name = "Shopping agent", key = newAgentKey()) {
  const res = await registerAgentKey(network, payer.testKey, { name, key });
  expect(res.status).toBe(201);
  return { agent: res.body, key };
}

const SHOP_URL = "https://shop.example/products/42";

/** A request the shop's server received, as /mastercard/verify takes it. */
async function stockSigned(key: AgentPrivateJwk, signatureAgent: string, times: { created?: Date; expires?: Date } = {}) {
  const sa = `sig1="${signatureAgent}"`;
  const request = new Request(SHOP_URL, { headers: { "Signature-Agent": sa } });
  const created = times.created ?? new Date();
  const headers = await signatureHeaders(request, await signerFromJWK(key), {
    created,
    expires: times.expires ?? new Date(created.getTime() + 300_000),
  });
  return {
    method: "GET",
    url: SHOP_URL,
    headers: { "Signature-Agent": sa, "Signature-Input": headers["Signature-Input"], Signature: headers.Signature },
  };
}

const verify = (network: "visa" | "mastercard", body: unknown) => call("POST", `/${network}/verify`, { key: shop.testKey, body });

describe("agent keys", () => {
  it("registers a public key: agk_, keyid = RFC 7638 thumbprint, Mastercard's signatureAgent is our directory", async () => {
    const { agent, key } = await register("mastercard");
    expect(agent).toMatchObject({ object: "agent_key", network: "mastercard", status: "active", alg: "ed25519", livemode: false });
    expect(agent.id).toMatch(/^agk_/);
    expect(agent.keyid).toBe((await signerFromJWK(key)).keyid); // the stock library's thumbprint
    expect(agent.jwk).toEqual({ ...pub(key), kid: agent.keyid, use: "sig", alg: "Ed25519" });
    expect(agent.signatureAgent).toMatch(new RegExp(`/mastercard/agents/${agent.id}/directory$`));
    const got = await call("GET", `/mastercard/agents/${agent.id}`, { key: payer.testKey });
    expect(got.body).toEqual(agent);
    expect((await call("GET", `/mastercard/agents/${agent.id}`, { key: shop.testKey })).status).toBe(404);
    expect((await call("GET", `/visa/agents/${agent.id}`, { key: payer.testKey })).status).toBe(404);
    const list = await call("GET", "/mastercard/agents?limit=1", { key: payer.testKey });
    expect(list.body.object).toBe("list");
  });

  it("refuses a private key, another key type, the same key twice, and the RFC 9421 test key in live mode", async () => {
    const key = newAgentKey();
    const priv = await registerAgentKey("visa", payer.testKey, { name: "x", key, jwk: key });
    expect(priv.status).toBe(400);
    expect(priv.body.error.code).toBe("VALIDATION_ERROR");
    const rsa = await registerAgentKey("visa", payer.testKey, { name: "x", jwk: { kty: "RSA", n: "abc", e: "AQAB" } });
    expect(rsa.status).toBe(400);
    await register("visa", "once", key);
    const twice = await registerAgentKey("visa", payer.testKey, { name: "twice", key });
    expect(twice.status).toBe(409);
    const b14 = { kty: "OKP", crv: "Ed25519", x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs" };
    expect((await call("POST", "/visa/agents", { key: payer.liveKey, body: { name: "test key", jwk: b14 } })).status).toBe(400);
  });

  it("serves the Web Bot Auth directories and Visa's JWKS key store (public)", async () => {
    const { agent } = await register("mastercard");
    const one = await fetch(`${(await import("../helpers/http")).baseUrl()}/mastercard/agents/${agent.id}/directory`);
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toBe("application/http-message-signatures-directory+json");
    expect(((await one.json()) as any).keys).toEqual([agent.jwk]);
    const all = await call("GET", "/mastercard/.well-known/http-message-signatures-directory");
    expect(all.headers.get("content-type")).toBe("application/http-message-signatures-directory+json");
    expect(all.body.keys.some((k: any) => k.kid === agent.keyid)).toBe(true);
    const { agent: visa } = await register("visa");
    const jwks = await call("GET", "/visa/.well-known/jwks");
    expect(jwks.body.keys.some((k: any) => k.kid === visa.keyid)).toBe(true);
    const byId = await call("GET", `/visa/keys?keyID=${encodeURIComponent(visa.keyid)}`);
    expect(byId.body).toEqual(visa.jwk);
    expect((await call("GET", "/visa/keys?keyID=nope")).status).toBe(404);
    expect((await call("GET", "/mastercard/agents/agk_nope/directory")).status).toBe(404);
  });
});

describe("POST /mastercard/verify (Web Bot Auth) with the stock web-bot-auth signer", () => {
  it("accepts a request the stock signer signed its README's way; the answer names our agent", async () => {
    const { agent, key } = await register("mastercard");
    const res = await verify("mastercard", await stockSigned(key, agent.signatureAgent));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: true,
      network: "mastercard",
      tag: "web-bot-auth",
      agent: { agentKeyId: agent.id, keyid: agent.keyid },
    });
  });

  it("replayed_nonce: the same signed request twice in parallel passes once", async () => {
    const { agent, key } = await register("mastercard");
    const body = await stockSigned(key, agent.signatureAgent);
    const results = await Promise.all(Array.from({ length: 6 }, () => verify("mastercard", body)));
    expect(results.filter((r) => r.body.valid === true)).toHaveLength(1);
    expect(results.filter((r) => r.body.reasonCode === "replayed_nonce")).toHaveLength(5);
  });

  it("window_too_long, not_yet_valid, expired", async () => {
    const { agent, key } = await register("mastercard");
    const now = Date.now();
    const long = await verify(
      "mastercard",
      await stockSigned(key, agent.signatureAgent, { created: new Date(now), expires: new Date(now + 9 * 60_000) }),
    );
    expect(long.body).toEqual({ valid: false, reasonCode: "window_too_long" });
    const future = await verify(
      "mastercard",
      await stockSigned(key, agent.signatureAgent, { created: new Date(now + 60_000), expires: new Date(now + 120_000) }),
    );
    expect(future.body).toEqual({ valid: false, reasonCode: "not_yet_valid" });
    const old = await verify(
      "mastercard",
      await stockSigned(key, agent.signatureAgent, { created: new Date(now - 300_000), expires: new Date(now - 1_000) }),
    );
    expect(old.body).toEqual({ valid: false, reasonCode: "expired" });
  });

  it("revoked_key, unknown_key, bad_signature", async () => {
    const { agent, key } = await register("mastercard");
    const signedBefore = await stockSigned(key, agent.signatureAgent);
    expect((await call("POST", `/mastercard/agents/${agent.id}/revoke`, { key: payer.testKey })).body.status).toBe("revoked");
    expect((await verify("mastercard", signedBefore)).body).toEqual({ valid: false, reasonCode: "revoked_key" });
    const stranger = newAgentKey();
    const directory = agent.signatureAgent.replace(/agents\/.*$/, ".well-known/http-message-signatures-directory");
    expect((await verify("mastercard", await stockSigned(stranger, directory))).body).toEqual({ valid: false, reasonCode: "unknown_key" });
    const { agent: a2, key: k2 } = await register("mastercard");
    const good = await stockSigned(k2, a2.signatureAgent);
    expect((await verify("mastercard", { ...good, url: "https://shop.example.org/products/42" })).body).toEqual({
      valid: false,
      reasonCode: "bad_signature",
    });
  });

  it("pending agent: agent_not_verified until approved", async () => {
    const { agent, key } = await register("mastercard", "pending_kya");
    expect(agent.status).toBe("pending_verification");
    expect((await verify("mastercard", await stockSigned(key, agent.signatureAgent))).body).toEqual({
      valid: false,
      reasonCode: "agent_not_verified",
    });
    expect((await call("POST", `/mastercard/agents/${agent.id}/approve`, { key: payer.testKey })).body.status).toBe("active");
    expect((await verify("mastercard", await stockSigned(key, agent.signatureAgent))).body.valid).toBe(true);
  });

  it("unknown_agent: a Signature-Agent on another origin is refused and never fetched", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      const { key } = await register("mastercard");
      const res = await verify(
        "mastercard",
        await stockSigned(key, `http://127.0.0.1:${port}/.well-known/http-message-signatures-directory`),
      );
      expect(res.body).toEqual({ valid: false, reasonCode: "unknown_agent" });
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it("missing_signature, malformed_signature, unsupported_tag (a Visa tag on Mastercard)", async () => {
    expect((await verify("mastercard", { method: "GET", url: SHOP_URL, headers: {} })).body).toEqual({
      valid: false,
      reasonCode: "missing_signature",
    });
    expect(
      (await verify("mastercard", { method: "GET", url: SHOP_URL, headers: { "Signature-Input": "sig1=(((", Signature: "sig1=:AA==:" } }))
        .body,
    ).toEqual({
      valid: false,
      reasonCode: "malformed_signature",
    });
    const key = newAgentKey();
    const s = signAgentRequest({ method: "GET", url: SHOP_URL, privateJwk: key, tag: "agent-browser-auth" });
    expect((await verify("mastercard", { method: "GET", url: SHOP_URL, headers: s.headers })).body).toEqual({
      valid: false,
      reasonCode: "unsupported_tag",
    });
  });
});

describe("POST /visa/verify (TAP) with the stock http-message-sig signer", () => {
  it("accepts an agent-browser-auth request signed by http-message-sig; the nonce is spent", async () => {
    const { agent, key } = await register("visa");
    const cryptoKey = await crypto.subtle.importKey("jwk", { ...key, ext: true } as JsonWebKey, { name: "Ed25519" }, false, ["sign"]);
    const created = Math.floor(Date.now() / 1000);
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
    const fields = await createSignature(
      { kind: "request", method: "GET", targetUri: SHOP_URL, fields: [] },
      {
        label: "sig2",
        components: ["@authority", "@path"],
        parameters: { created, expires: created + 480, keyid: agent.keyid, alg: "ed25519", nonce, tag: "agent-browser-auth" },
        signer: {
          algorithm: "ed25519",
          sign: async (data) => new Uint8Array(await crypto.subtle.sign("Ed25519", cryptoKey, data as Uint8Array<ArrayBuffer>)),
        },
      },
    );
    const body = { method: "GET", url: SHOP_URL, headers: { "Signature-Input": fields.signatureInput, Signature: fields.signature } };
    const res = await verify("visa", body);
    expect(res.body).toMatchObject({ valid: true, network: "visa", tag: "agent-browser-auth", nonce, agent: { agentKeyId: agent.id } });
    expect((await verify("visa", body)).body).toEqual({ valid: false, reasonCode: "replayed_nonce" });
  });

  it("checks the body's agenticPaymentContainer: same nonce and key, its signature (an altered one is refused)", async () => {
    const { key } = await register("visa");
    const s = signAgentRequest({ method: "POST", url: SHOP_URL, privateJwk: key, tag: "agent-payer-auth" });
    const container = signAgentObject({ payload: { paymentMethod: "vtok_abc" } }, key, s.nonce);
    const ok = await verify("visa", {
      method: "POST",
      url: SHOP_URL,
      headers: s.headers,
      body: JSON.stringify({ agenticPaymentContainer: container }),
    });
    expect(ok.body).toMatchObject({ valid: true, paymentContainer: { present: true, valid: true, credentialId: "vtok_abc" } });
    const s2 = signAgentRequest({ method: "POST", url: SHOP_URL, privateJwk: key, tag: "agent-payer-auth" });
    const altered = {
      ...signAgentObject({ payload: { paymentMethod: "vtok_abc" } }, key, s2.nonce),
      payload: { paymentMethod: "vtok_other" },
    };
    const bad = await verify("visa", {
      method: "POST",
      url: SHOP_URL,
      headers: s2.headers,
      body: JSON.stringify({ agenticPaymentContainer: altered }),
    });
    expect(bad.body).toMatchObject({ valid: true, paymentContainer: { present: true, valid: false, reasonCode: "object_bad_signature" } });
  });

  it("a Mastercard key is unknown to Visa; Web Bot Auth's tag is not TAP's", async () => {
    const { key } = await register("mastercard");
    const s = signAgentRequest({ method: "GET", url: SHOP_URL, privateJwk: key, tag: "agent-payer-auth" });
    expect((await verify("visa", { method: "GET", url: SHOP_URL, headers: s.headers })).body).toEqual({
      valid: false,
      reasonCode: "unknown_key",
    });
    const w = signAgentRequest({ method: "GET", url: SHOP_URL, privateJwk: key, tag: "web-bot-auth", signatureAgent: "https://x.example" });
    expect((await verify("visa", { method: "GET", url: SHOP_URL, headers: w.headers })).body).toEqual({
      valid: false,
      reasonCode: "unsupported_tag",
    });
  });
});

describe("bad input on every new identity path: the error contract, never a 500", () => {
  const cases: [string, string, unknown, number][] = [
    ["POST", "/visa/agents", "not json", 400],
    ["POST", "/mastercard/agents", { name: "" }, 400],
    ["POST", "/mastercard/agents", { name: "x", jwk: { kty: "OKP", crv: "Ed25519", x: "short" } }, 400],
    ["POST", "/visa/verify", { method: "GET" }, 400],
    ["POST", "/mastercard/verify", { method: "GET", url: "ftp://x", headers: {} }, 400],
    ["POST", "/mastercard/verify", [], 400],
    ["GET", "/visa/agents?limit=0", undefined, 400],
    ["GET", "/visa/agents/agk_missing", undefined, 404],
    ["POST", "/visa/agents/agk_missing/revoke", undefined, 404],
    ["POST", "/mastercard/agents/agk_missing/approve", undefined, 404],
  ];
  for (const [method, path, body, status] of cases) {
    it(`${method} ${path} ${JSON.stringify(body) ?? ""} -> ${status}`, async () => {
      const res = await call(method, path, {
        key: payer.testKey,
        ...(typeof body === "string"
          ? { rawBody: body, headers: { "content-type": "application/json" } }
          : body === undefined
            ? {}
            : { body }),
      });
      expect(res.status).toBe(status);
      expect(Object.keys(res.body.error).sort()).toEqual(["code", "details", "message"]);
    });
  }
  it("no key: 401", async () => {
    expect((await call("POST", "/visa/agents", { body: {} })).status).toBe(401);
    expect((await call("POST", "/mastercard/verify", { body: {} })).status).toBe(401);
  });
});
