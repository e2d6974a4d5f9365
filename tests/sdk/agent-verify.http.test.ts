// The SDK's verifyAgentRequest on a merchant's own server (docs/sdk.md "Verify agent requests"; issue 33 item 5):
// the same signed requests verified locally in an Express app (express 5, a real server: the Node IncomingMessage
// with its raw body from express.raw) and in a fetch handler (a WHATWG Request, as Next.js middleware gets it),
// against the directories of a separate agent-operator process (tests/helpers/agent-operator.mjs: signed
// directories with an Ed25519 and an RSA-PSS key), fetched once and cached by the SDK. The stock web-bot-auth
// signer (Ed25519) and http-message-sig (RSA-PSS-SHA512, with a covered content-digest) sign. Refused: an untrusted
// operator (never fetched), a directory whose own signature fails, a body altered after signing, an RSA key with
// alg="ed25519", a replayed nonce (with a nonce store). And through the service: POST /mastercard/verify with the
// merchant's key verifies an agent registered there.
import { operatorOrigin, startAgentOperator, type AgentOperator } from "../helpers/agent-operator-process";
import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingMessage, type Server } from "node:http";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import { createSignature } from "http-message-sig";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearAgentDirectoryCache,
  inMemoryConsumedStore,
  verifyAgentRequest,
  type AgentRequestVerification,
  type VerifyAgentRequestOptions,
} from "agent-payments-sdk";
import { registerAgentKey } from "../helpers/agent-registration";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const SHOP = "shop.example";
const origin = operatorOrigin;

let operator: AgentOperator;
let options: VerifyAgentRequestOptions;
let app: Server;
let appPort: number;

const hits = async (port: number) => ((await (await fetch(`${origin(port)}/hits`)).json()) as { hits: number }).hits;

/** The fetch handler: a WHATWG Request in, the verification as JSON out (what a Next.js middleware would branch on). */
async function fetchHandler(request: Request): Promise<Response> {
  return Response.json(await verifyAgentRequest(request, options));
}

beforeAll(async () => {
  operator = await startAgentOperator();
  clearAgentDirectoryCache();
  // Trusted: the good and the badly signed directories; the "short" operator is not.
  options = { trustedOrigins: [origin(operator.ports.good), origin(operator.ports.badsig)] };
  const expressApp = express();
  expressApp.use(express.raw({ type: () => true }));
  expressApp.use(async (req: ExpressRequest, res: ExpressResponse) => {
    const body = Buffer.isBuffer(req.body) ? req.body : undefined;
    res.json(await verifyAgentRequest(req, { ...options, body }));
  });
  await new Promise<void>((resolve) => {
    app = expressApp.listen(0, "127.0.0.1", resolve);
  });
  appPort = (app.address() as { port: number }).port;
});

afterAll(async () => {
  operator?.child.kill();
  await new Promise((resolve) => app?.close(resolve));
});

interface Signed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The stock web-bot-auth signer (Ed25519): a GET to the shop with Signature-Agent naming the operator. */
async function ed25519Signed(agent: string, pathname = "/products/42"): Promise<Signed> {
  const headers = { "Signature-Agent": `sig1="${agent}"` };
  const created = new Date();
  const h = await signatureHeaders(
    new Request(`https://${SHOP}${pathname}`, { headers }),
    await signerFromJWK(operator.keys.ed25519 as Parameters<typeof signerFromJWK>[0]),
    { created, expires: new Date(created.getTime() + 300_000) },
  );
  return { method: "GET", path: pathname, headers: { ...headers, Signature: h.Signature, "Signature-Input": h["Signature-Input"] } };
}

/** The stock http-message-sig with the operator's RSA key: a POST whose body is covered by content-digest. */
async function rsaSigned(agent: string, body: string, alg = "rsa-pss-sha512"): Promise<Signed> {
  const jwk = operator.keys.rsa;
  const headers = {
    "Signature-Agent": `sig1="${agent}"`,
    "Content-Digest": `sha-256=:${createHash("sha256").update(body).digest("base64")}:`,
    "Content-Type": "application/json",
  };
  const key = await crypto.subtle.importKey("jwk", { ...jwk, alg: "PS512" }, { name: "RSA-PSS", hash: "SHA-512" }, false, ["sign"]);
  const keyid = createHash("sha256")
    .update(JSON.stringify({ e: jwk.e, kty: "RSA", n: jwk.n }))
    .digest("base64url");
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    {
      kind: "request",
      method: "POST",
      targetUri: `https://${SHOP}/checkout`,
      fields: Object.entries(headers).map(([name, value]) => ({ name: name.toLowerCase(), value })),
    },
    {
      label: "sig1",
      components: ["@authority", "signature-agent", "@method", "@path", "content-digest"],
      parameters: { created, expires: created + 300, keyid, alg, nonce: crypto.randomUUID(), tag: "web-bot-auth" },
      signer: {
        algorithm: alg,
        sign: async (data) => new Uint8Array(await crypto.subtle.sign({ name: "RSA-PSS", saltLength: 64 }, key, data as BufferSource)),
      },
    },
  );
  return {
    method: "POST",
    path: "/checkout",
    body,
    headers: { ...headers, Signature: fields.signature, "Signature-Input": fields.signatureInput },
  };
}

/** The signed request sent to the Express app for real, with Host: shop.example (the authority it was signed for). */
function viaExpress(signed: Signed): Promise<AgentRequestVerification> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: appPort, method: signed.method, path: signed.path, headers: { ...signed.headers, Host: SHOP } },
      (res: IncomingMessage) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(JSON.parse(text)));
      },
    );
    req.on("error", reject);
    req.end(signed.body);
  });
}

/** The same signed request handed to the fetch handler. */
async function viaFetch(signed: Signed): Promise<AgentRequestVerification> {
  const request = new Request(`https://${SHOP}${signed.path}`, { method: signed.method, headers: signed.headers, body: signed.body });
  return (await (await fetchHandler(request)).json()) as AgentRequestVerification;
}

const both = async (signed: Signed) => [await viaExpress(signed), await viaFetch(signed)];

describe("verifyAgentRequest, locally, in an Express app and in a fetch handler", () => {
  it("verifies the stock web-bot-auth signer's Ed25519 request; the directory is fetched once for many", async () => {
    const good = origin(operator.ports.good);
    const before = await hits(operator.ports.good);
    for (let i = 0; i < 3; i++) {
      for (const result of await both(await ed25519Signed(good))) {
        expect(result).toMatchObject({
          valid: true,
          tag: "web-bot-auth",
          agent: { operator: good, algorithm: "ed25519", signatureAgent: good },
        });
      }
    }
    expect((await hits(operator.ports.good)) - before).toBeLessThanOrEqual(1);
  });

  it("verifies http-message-sig's RSA-PSS-SHA512 request with its body covered by content-digest", async () => {
    const signed = await rsaSigned(origin(operator.ports.good), JSON.stringify({ amount: 1999 }));
    for (const result of await both(signed)) {
      expect(result).toMatchObject({ valid: true, agent: { operator: origin(operator.ports.good), algorithm: "rsa-pss-sha512" } });
    }
    // the body altered after signing
    for (const result of await both({ ...signed, body: JSON.stringify({ amount: 1 }) })) {
      expect(result).toEqual({ valid: false, reason: "content_digest_mismatch" });
    }
  });

  it("refuses an untrusted operator (never fetched), a failing directory signature, an RSA key claimed as ed25519", async () => {
    const short = await hits(operator.ports.short);
    for (const result of await both(await ed25519Signed(origin(operator.ports.short))))
      expect(result).toEqual({ valid: false, reason: "unknown_agent" });
    expect(await hits(operator.ports.short)).toBe(short);
    for (const result of await both(await ed25519Signed(origin(operator.ports.badsig)))) {
      expect(result).toEqual({ valid: false, reason: "directory_unavailable" });
    }
    const lying = await rsaSigned(origin(operator.ports.good), "{}", "ed25519");
    for (const result of await both(lying)) expect(result).toEqual({ valid: false, reason: "algorithm_mismatch" });
    const unsigned = await ed25519Signed(origin(operator.ports.good));
    delete unsigned.headers.Signature;
    for (const result of await both(unsigned)) expect(result).toEqual({ valid: false, reason: "missing_signature" });
  });

  it("with a nonce store, the same signed request passes once", async () => {
    const signed = await ed25519Signed(origin(operator.ports.good));
    const request = () => new Request(`https://${SHOP}${signed.path}`, { headers: signed.headers });
    const once = { ...options, nonceStore: inMemoryConsumedStore() };
    expect((await verifyAgentRequest(request(), once)).valid).toBe(true);
    expect(await verifyAgentRequest(request(), once)).toEqual({ valid: false, reason: "replayed_nonce" });
  });
});

describe("verifyAgentRequest through the service (POST /mastercard/verify)", () => {
  let shop: TestMerchant;
  beforeAll(async () => {
    shop = await createTestMerchant("shop verifying through the service");
  });

  it("verifies an agent registered on the service, and spends its nonce", async () => {
    const payer = await createTestMerchant("agent provider for the SDK");
    const registered = await registerAgentKey("mastercard", payer.testKey, { name: "SDK-verified agent" });
    expect(registered.status).toBe(201);
    const headers = { "Signature-Agent": `sig1="${registered.body.signatureAgent}"` };
    const created = new Date();
    const h = await signatureHeaders(new Request(`https://${SHOP}/products/1`, { headers }), await signerFromJWK(registered.key), {
      created,
      expires: new Date(created.getTime() + 300_000),
    });
    const request = () =>
      new Request(`https://${SHOP}/products/1`, {
        headers: { ...headers, Signature: h.Signature, "Signature-Input": h["Signature-Input"] },
      });
    const service = { service: { baseUrl: baseUrl(), apiKey: shop.testKey, network: "mastercard" as const } };
    expect(await verifyAgentRequest(request(), service)).toMatchObject({
      valid: true,
      tag: "web-bot-auth",
      agent: { agentKeyId: registered.body.id, name: "SDK-verified agent", operator: null, algorithm: "ed25519" },
    });
    expect(await verifyAgentRequest(request(), service)).toEqual({ valid: false, reason: "replayed_nonce" });
  });
});
