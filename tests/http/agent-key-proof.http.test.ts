// Proof of possession at agent key registration (docs/cards.md "Agent keys"; issue 33 item 4): the provider gets a
// single-use challenge (POST /<network>/agents/challenge, stored hashed), then signs the registration request with
// the key it registers (RFC 9421, tag agent-key-registration, the challenge as the nonce). Without the signature:
// 400 in the error contract. Another party's public key (the signature not by it): 403, nothing stored. The
// challenge is spent by the database once, even by two parallel registrations, and only by its own provider,
// network and mode, before it expires. The stock http-message-sig signer's proof is accepted as our SDK's is.
import { createHash } from "node:crypto";
import { createSignature } from "http-message-sig";
import { beforeAll, describe, expect, it } from "vitest";
import { signAgentKeyRegistration, type AgentPrivateJwk } from "agent-payments-sdk";
import { getDb } from "../../lib/db";
import { newAgentKey } from "../helpers/agent-keys";
import { keyChallenge, publicJwkOf, registerAgentKey } from "../helpers/agent-registration";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let provider: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  provider = await createTestMerchant("agent provider (proof of possession)");
  other = await createTestMerchant("another agent provider");
});

const thumbprint = (key: AgentPrivateJwk) =>
  createHash("sha256")
    .update(JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x }))
    .digest("base64url");

/** The registration's proof made by the stock http-message-sig: `signer` signs, the parameters name `keyid`. */
async function stockProof(signer: AgentPrivateJwk, keyid: string, challenge: string, url = `${baseUrl()}/visa/agents`) {
  const key = await crypto.subtle.importKey("jwk", { ...signer, ext: true } as JsonWebKey, { name: "Ed25519" }, false, ["sign"]);
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    { kind: "request", method: "POST", targetUri: url, fields: [] },
    {
      label: "sig1",
      components: ["@method", "@authority", "@path"],
      parameters: { created, expires: created + 300, keyid, alg: "ed25519", nonce: challenge, tag: "agent-key-registration" },
      signer: {
        algorithm: "ed25519",
        sign: async (data) => new Uint8Array(await crypto.subtle.sign("Ed25519", key, data as BufferSource)),
      },
    },
  );
  return { Signature: fields.signature, "Signature-Input": fields.signatureInput };
}

const register = (apiKey: string, jwk: unknown, headers: Record<string, string> = {}, network = "visa") =>
  call("POST", `/${network}/agents`, { key: apiKey, headers, body: { name: "agent", jwk } });

async function keyStored(key: AgentPrivateJwk): Promise<boolean> {
  return (await getDb().agentKey.count({ where: { keyid: thumbprint(key) } })) > 0;
}

describe("POST /<network>/agents/challenge", () => {
  it("issues a single-use challenge, stored only as its hash, with how to sign the registration", async () => {
    const res = await call("POST", "/mastercard/agents/challenge", { key: provider.testKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "agent_key_challenge",
      network: "mastercard",
      livemode: false,
      signing: {
        method: "POST",
        url: `${baseUrl()}/mastercard/agents`,
        tag: "agent-key-registration",
        components: ["@method", "@authority", "@path"],
        nonce: res.body.challenge,
      },
    });
    expect(res.body.id).toMatch(/^akc_/);
    expect(res.body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    const rows = await getDb().$queryRaw<{ challenge_hash: string }[]>`
      SELECT challenge_hash FROM agent_key_challenges WHERE id = ${res.body.id}`;
    expect(rows).toEqual([{ challenge_hash: createHash("sha256").update(res.body.challenge).digest("base64url") }]);
    expect((await call("POST", "/mastercard/agents/challenge")).status).toBe(401);
  });
});

describe("registering a key needs its proof of possession", () => {
  it("without the signature: 400 VALIDATION_ERROR in the error contract, nothing stored", async () => {
    const key = newAgentKey();
    const res = await register(provider.testKey, publicJwkOf(key));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.reason).toBe("proof_of_possession_required");
    expect(res.body.error.details.fields).toEqual([{ path: "Signature", message: expect.any(String) }]);
    // signed, but not with the registration's tag: also 400
    const { headers } = signAgentKeyRegistration({ url: `${baseUrl()}/visa/agents`, privateJwk: key, challenge: "x" });
    const otherTag = { ...headers, "Signature-Input": headers["Signature-Input"].replace("agent-key-registration", "web-bot-auth") };
    const tagged = await register(provider.testKey, publicJwkOf(key), otherTag);
    expect(tagged.status).toBe(400);
    expect(tagged.body.error.details.reason).toBe("proof_of_possession_required");
    expect(await keyStored(key)).toBe(false);
  });

  it("another party's public key is refused (403), whichever keyid the signature names; the owner registers it after", async () => {
    const victim = newAgentKey();
    const attacker = newAgentKey();
    // the attacker signs with its own key and names it
    const own = await registerAgentKey("visa", provider.testKey, { key: attacker, jwk: publicJwkOf(victim) });
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "proof_key_mismatch" } });
    // ... or names the victim's keyid: the signature does not verify with the victim's key
    const forged = await register(
      provider.testKey,
      publicJwkOf(victim),
      await stockProof(attacker, thumbprint(victim), await keyChallenge("visa", provider.testKey)),
    );
    expect(forged.status).toBe(403);
    expect(forged.body.error.details.reason).toBe("bad_signature");
    expect(await keyStored(victim)).toBe(false);
    // the key's holder registers it, here with the stock http-message-sig signer
    const owner = await register(
      other.testKey,
      publicJwkOf(victim),
      await stockProof(victim, thumbprint(victim), await keyChallenge("visa", other.testKey)),
    );
    expect(owner.status).toBe(201);
    expect(owner.body).toMatchObject({ object: "agent_key", keyid: thumbprint(victim), status: "active" });
  });

  it("a challenge is spent once, even by two parallel registrations", async () => {
    const challenge = await keyChallenge("visa", provider.testKey);
    const url = `${baseUrl()}/visa/agents`;
    const [a, b] = [newAgentKey(), newAgentKey()];
    const results = await Promise.all(
      [a, b].map((key) =>
        register(provider.testKey, publicJwkOf(key), signAgentKeyRegistration({ url, privateJwk: key, challenge }).headers),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(results.find((r) => r.status === 403)!.body.error.details.reason).toBe("challenge_invalid");
    const c = newAgentKey();
    const again = await register(provider.testKey, publicJwkOf(c), signAgentKeyRegistration({ url, privateJwk: c, challenge }).headers);
    expect(again.body.error.details.reason).toBe("challenge_invalid");
  });

  it("only the provider's own, unexpired challenge of this network and mode, signed for this service", async () => {
    const key = newAgentKey();
    const url = `${baseUrl()}/visa/agents`;
    const attempt = async (challenge: string, options: { apiKey?: string; network?: string; signedUrl?: string } = {}) => {
      const { headers } = signAgentKeyRegistration({ url: options.signedUrl ?? url, privateJwk: key, challenge });
      const res = await register(options.apiKey ?? provider.testKey, publicJwkOf(key), headers, options.network);
      return res.body.error?.details?.reason ?? res.status;
    };
    expect(await attempt(await keyChallenge("visa", other.testKey))).toBe("challenge_invalid");
    expect(await attempt(await keyChallenge("mastercard", provider.testKey))).toBe("challenge_invalid");
    expect(await attempt(await keyChallenge("visa", provider.testKey), { apiKey: provider.liveKey })).toBe("challenge_invalid");
    expect(await attempt("never-issued")).toBe("challenge_invalid");
    // signed for another service: its @authority is not the one this request arrived at, so it does not verify
    expect(await attempt(await keyChallenge("visa", provider.testKey), { signedUrl: "https://elsewhere.example/visa/agents" })).toBe(
      "bad_signature",
    );
    const expired = await call("POST", "/visa/agents/challenge", { key: provider.testKey });
    await getDb().$executeRaw`UPDATE agent_key_challenges SET expires_at = now() - interval '1 second' WHERE id = ${expired.body.id}`;
    expect(await attempt(expired.body.challenge)).toBe("challenge_invalid");
    expect(await keyStored(key)).toBe(false);
    expect(await attempt(await keyChallenge("visa", provider.testKey))).toBe(201);
  });
});
