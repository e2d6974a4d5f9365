// Verified agents of foreign operators (docs/cards.md "Foreign agent operators"): a separate "agent operator"
// process (tests/helpers/agent-operator.mjs) publishes signed key directories on loopback origins listed in the
// server's AGENT_DIRECTORIES_TRUSTED. The stock web-bot-auth signer (Ed25519) and http-message-sig (RSA-PSS-SHA512)
// sign with `Signature-Agent: sig1="<its origin>"`; /mastercard/verify and a Mastercard payment accept them with
// agent.operator = that origin, the directory fetched once for many requests and again after its max-age or for an
// unknown keyid (at most once per AGENT_DIRECTORY_REFETCH_SECONDS). Refused, nothing charged: an untrusted operator,
// a directory whose own signature fails, one answering slowly or with 10 MiB, a private address on a server that
// does not allow them, a body altered after signing under a covered content-digest (and, with
// AGENT_PAYMENTS_REQUIRE_CONTENT_DIGEST, a payment whose signature does not cover it), an RSA key with an ed25519 alg.
import { operatorOrigin, startAgentOperator, type AgentOperator, type Jwk } from "../helpers/agent-operator-process";
import { createHash, generateKeyPairSync } from "node:crypto";
import { createSignature } from "http-message-sig";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { openCheckout } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

const SHOP_URL = "https://shop.example/products/42";
const origin = operatorOrigin;

let operator: AgentOperator;
let server: ServerProcess;
let closed: ServerProcess;
let payer: TestMerchant;
let shop: TestMerchant;

async function hits(port: number): Promise<number> {
  return ((await (await fetch(`${origin(port)}/hits`)).json()) as { hits: number }).hits;
}

beforeAll(async () => {
  operator = await startAgentOperator();
  payer = await createTestMerchant("foreign agent payer");
  shop = await createTestMerchant("foreign agent shop");
  [server, closed] = await Promise.all([
    startTestServer({
      AGENT_DIRECTORIES_TRUSTED: Object.values(operator.ports).map(origin).join(","),
      AGENT_DIRECTORY_REFETCH_SECONDS: "1",
      AGENT_PAYMENTS_REQUIRE_CONTENT_DIGEST: "1",
    }),
    // A public installation's address policy: private addresses (and http: origins) are not reached.
    startTestServer({ AGENT_DIRECTORIES_TRUSTED: "*", AGENT_DIRECTORY_ALLOW_PRIVATE_URLS: "0" }),
  ]);
});

afterAll(async () => {
  operator?.child.kill();
  await Promise.all([server?.stop(), closed?.stop()]);
});

interface SignOptions {
  url?: string;
  method?: string;
  agent: string;
  components?: string[];
  body?: string;
}

/** Headers of the request as signed: Signature-Agent, and Content-Digest (sha-256) when a body is given. */
function baseHeaders(options: SignOptions): Record<string, string> {
  const headers: Record<string, string> = { "Signature-Agent": `sig1="${options.agent}"` };
  if (options.body !== undefined) headers["Content-Digest"] = `sha-256=:${createHash("sha256").update(options.body).digest("base64")}:`;
  return headers;
}

const componentsOf = (options: SignOptions) =>
  options.components ??
  (options.body !== undefined
    ? ["@authority", "signature-agent", "@method", "@path", "content-digest"]
    : ["@authority", "signature-agent"]);

/** The stock web-bot-auth signer (its README's way) with an Ed25519 private JWK. */
async function ed25519Signed(jwk: Jwk, options: SignOptions) {
  const headers = baseHeaders(options);
  const request = new Request(options.url ?? SHOP_URL, { method: options.method ?? "GET", headers });
  const created = new Date();
  const h = await signatureHeaders(request, await signerFromJWK(jwk), {
    created,
    expires: new Date(created.getTime() + 300_000),
    components: componentsOf(options),
  });
  return { ...headers, Signature: h.Signature, "Signature-Input": h["Signature-Input"] };
}

/** The stock http-message-sig with an RSA-PSS-SHA512 key; `alg` as claimed in the parameters. */
async function rsaSigned(jwk: Jwk, options: SignOptions, alg = "rsa-pss-sha512") {
  const headers = baseHeaders(options);
  const key = await crypto.subtle.importKey("jwk", { ...jwk, alg: "PS512" }, { name: "RSA-PSS", hash: "SHA-512" }, false, ["sign"]);
  const thumbprint = createHash("sha256")
    .update(JSON.stringify({ e: jwk.e, kty: "RSA", n: jwk.n }))
    .digest("base64url");
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    {
      kind: "request",
      method: options.method ?? "GET",
      targetUri: options.url ?? SHOP_URL,
      fields: Object.entries(headers).map(([name, value]) => ({ name: name.toLowerCase(), value })),
    },
    {
      label: "sig1",
      components: componentsOf(options),
      parameters: { created, expires: created + 300, keyid: thumbprint, alg, nonce: crypto.randomUUID(), tag: "web-bot-auth" },
      signer: {
        algorithm: alg,
        sign: async (data) => new Uint8Array(await crypto.subtle.sign({ name: "RSA-PSS", saltLength: 64 }, key, data as BufferSource)),
      },
    },
  );
  return { ...headers, Signature: fields.signature, "Signature-Input": fields.signatureInput };
}

function verify(headers: Record<string, string>, base = server.url) {
  return call("POST", "/mastercard/verify", { key: shop.testKey, base, body: { method: "GET", url: SHOP_URL, headers } });
}

const newEd25519 = () => generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as Jwk;

describe("a trusted operator's agents", () => {
  it("Ed25519 (web-bot-auth) and RSA-PSS (http-message-sig) verify with agent.operator; the directory is fetched once", async () => {
    const good = origin(operator.ports.good);
    for (let i = 0; i < 4; i++) {
      const ed = await verify(await ed25519Signed(operator.keys.ed25519, { agent: good }));
      expect(ed.body).toMatchObject({ valid: true, agent: { operator: good, algorithm: "ed25519", agentKeyId: null } });
      const rsa = await verify(await rsaSigned(operator.keys.rsa, { agent: good }));
      expect(rsa.body).toMatchObject({ valid: true, agent: { operator: good, algorithm: "rsa-pss-sha512", agentKeyId: null } });
    }
    expect(await hits(operator.ports.good)).toBe(1);
  });

  it("a Mastercard payment: token bound to the operator, signed code, signed body; agent.operator recorded", async () => {
    const good = origin(operator.ports.good);
    const token = await call("POST", "/mastercard/agentic_tokens", {
      key: payer.testKey,
      base: server.url,
      body: {
        paymentMethod: "pm_card_mastercard",
        agentOperator: good,
        merchantId: shop.merchantId,
        limits: { maxAmount: 5000, currency: "usd" },
      },
    });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ agentKeyId: null, agentOperator: good });
    const codePath = `/mastercard/agentic_tokens/${token.body.id}/dtvc`;
    const code = await call("POST", codePath, {
      key: payer.testKey,
      base: server.url,
      headers: await ed25519Signed(operator.keys.ed25519, {
        agent: good,
        url: `${server.url}${codePath}`,
        method: "POST",
        components: ["@authority", "signature-agent", "@method", "@path"],
      }),
    });
    expect(code.status).toBe(200);
    const checkout = await openCheckout(shop.testKey, { amount: 1234 }, server.url);
    const payPath = `/mastercard/checkouts/${checkout.id}/pay`;
    const body = JSON.stringify({ agenticToken: token.body.id, dtvc: code.body.dtvc });
    const pay = (headers: Record<string, string>, rawBody = body) =>
      call("POST", payPath, { key: payer.testKey, base: server.url, rawBody, headers: { ...headers, "Content-Type": "application/json" } });
    const signedPay = (b?: string, components?: string[]) =>
      rsaSigned(operator.keys.rsa, { agent: good, url: `${server.url}${payPath}`, method: "POST", body: b, components });

    // Refused, nothing charged: the body altered after signing; a payment signature without content-digest.
    const altered = await pay(await signedPay(body), body.replace(code.body.dtvc, "000"));
    expect(altered.status).toBe(403);
    expect(altered.body.error.details.reason).toBe("content_digest_mismatch");
    const uncovered = await pay(await signedPay(undefined, ["@authority", "signature-agent", "@method", "@path"]));
    expect(uncovered.body.error.details.reason).toBe("missing_field");
    expect((await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } })).status).toBe("requires_payment");

    const paid = await pay(await signedPay(body));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ object: "order", status: "paid", amount: 1234, source: "mastercard" });
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
    expect(pi.agent).toMatchObject({
      network: "mastercard",
      operator: good,
      signatureAgent: good,
      agentKeyId: null,
      credentialId: token.body.id,
      verified: true,
    });
  });

  it("an unknown keyid fetches the directory again (a rotated key), at most once per refetch interval", async () => {
    const good = origin(operator.ports.good);
    await verify(await ed25519Signed(operator.keys.ed25519, { agent: good })); // cached
    const before = await hits(operator.ports.good);
    await new Promise((r) => setTimeout(r, 1_100));
    const rotated = (await (await fetch(`${good}/rotate`, { method: "POST" })).json()) as Jwk;
    expect((await verify(await ed25519Signed(rotated, { agent: good }))).body).toMatchObject({ valid: true, agent: { operator: good } });
    expect(await hits(operator.ports.good)).toBe(before + 1);
    for (let i = 0; i < 3; i++)
      expect((await verify(await ed25519Signed(newEd25519(), { agent: good }))).body).toEqual({ valid: false, reasonCode: "unknown_key" });
    expect(await hits(operator.ports.good)).toBe(before + 1);
  });

  it("a directory is fetched again once its max-age has passed", async () => {
    const short = origin(operator.ports.short);
    expect((await verify(await ed25519Signed(operator.keys.ed25519, { agent: short }))).body.valid).toBe(true);
    expect((await verify(await ed25519Signed(operator.keys.ed25519, { agent: short }))).body.valid).toBe(true);
    expect(await hits(operator.ports.short)).toBe(1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await verify(await ed25519Signed(operator.keys.ed25519, { agent: short }))).body.valid).toBe(true);
    expect(await hits(operator.ports.short)).toBe(2);
  });
});

describe("refused", () => {
  it("an untrusted operator: unknown_agent, never fetched", async () => {
    const before = await hits(operator.ports.good);
    const untrusted = `http://localhost:${operator.ports.good}`; // another origin than the trusted 127.0.0.1 one
    expect((await verify(await ed25519Signed(operator.keys.ed25519, { agent: untrusted }))).body).toEqual({
      valid: false,
      reasonCode: "unknown_agent",
    });
    expect(await hits(operator.ports.good)).toBe(before);
  });

  it("a directory whose own signature fails, a slow one (3 s cap), a 10 MiB one; failures are negative-cached", async () => {
    for (const mode of ["badsig", "slow", "huge"] as const) {
      const startedAt = Date.now();
      const res = await verify(await ed25519Signed(operator.keys.ed25519, { agent: origin(operator.ports[mode]) }));
      expect(res.body).toEqual({ valid: false, reasonCode: "directory_unavailable" });
      expect(Date.now() - startedAt).toBeLessThan(3_900);
      // Negative-cached (for AGENT_DIRECTORY_REFETCH_SECONDS, 1 s here): asked again at once, nothing is fetched.
      const again = await verify(await ed25519Signed(operator.keys.ed25519, { agent: origin(operator.ports[mode]) }));
      expect(again.body).toEqual({ valid: false, reasonCode: "directory_unavailable" });
      expect(await hits(operator.ports[mode])).toBe(1);
    }
  });

  it("a Signature-Agent at a private address where private URLs are not allowed (https refused by address, http untrusted)", async () => {
    const before = await hits(operator.ports.good);
    const https = await verify(
      await ed25519Signed(operator.keys.ed25519, { agent: `https://127.0.0.1:${operator.ports.good}` }),
      closed.url,
    );
    expect(https.body).toEqual({ valid: false, reasonCode: "directory_unavailable" });
    const http = await verify(await ed25519Signed(operator.keys.ed25519, { agent: origin(operator.ports.good) }), closed.url);
    expect(http.body).toEqual({ valid: false, reasonCode: "unknown_agent" });
    expect(await hits(operator.ports.good)).toBe(before);
  });

  it("an RSA key used with an ed25519 alg claim: algorithm_mismatch", async () => {
    const res = await verify(await rsaSigned(operator.keys.rsa, { agent: origin(operator.ports.good) }, "ed25519"));
    expect(res.body).toEqual({ valid: false, reasonCode: "algorithm_mismatch" });
  });
});
