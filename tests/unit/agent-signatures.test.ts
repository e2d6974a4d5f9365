// The agent verifier's pure layer (lib/agent-identity, docs/cards.md "Verification"): the Web Bot Auth draft's
// test vectors verify; the stock web-bot-auth verifier accepts what our SDK signs; and the policy refusals that
// need no database (window, clock, tag, fields, authority) each give their own reason code.
import { verify as wbaVerify } from "web-bot-auth";
import { verifierFromJWK } from "web-bot-auth/crypto";
import { describe, expect, it } from "vitest";
import { jwkThumbprint, publicKeyOf, RFC9421_TEST_KEY_THUMBPRINT } from "../../lib/agent-identity/jwk";
import { parseSignatures, signatureBase, signatureValid, type SignedRequest } from "../../lib/agent-identity/message-signature";
import { checkSignaturePolicy } from "../../lib/agent-identity/verify-agent-request";
import { signAgentRequest } from "agent-payments-sdk";
import { newAgentKey } from "../helpers/agent-keys";

const B14 = { kty: "OKP", crv: "Ed25519", x: "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs" } as const;

function request(url: string, headers: Record<string, string>, method = "GET"): SignedRequest {
  const u = new URL(url);
  const h = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method,
    scheme: u.protocol.slice(0, -1),
    authority: u.host,
    path: u.pathname,
    query: u.search.slice(1),
    header: (n) => h.get(n.toLowerCase()) ?? null,
  };
}

describe("Web Bot Auth draft test vectors (RFC 9421 B.1.4 key)", () => {
  it("the key's RFC 7638 thumbprint is the vectors' keyid", () => {
    expect(jwkThumbprint(B14)).toBe(RFC9421_TEST_KEY_THUMBPRINT);
  });

  it("the dictionary-form Signature-Agent vector verifies", () => {
    const req = request("https://example.com/", {
      "Signature-Agent": 'agent2="https://signature-agent.test"',
      "Signature-Input":
        'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
      Signature: "sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:",
    });
    const [sig] = parseSignatures(req.header("signature-input")!, req.header("signature")!);
    const base = signatureBase(req, sig)!;
    expect(base.split("\n")[1]).toBe('"signature-agent";key="agent2": "https://signature-agent.test"');
    expect(signatureValid(base, sig.signature, publicKeyOf(B14))).toBe(true);
    // ... and our policy refuses it all the same: its window is far over 8 minutes.
    expect(checkSignaturePolicy(req, { network: "mastercard", operation: "verify", expectedAuthority: null, now: 1735689700 })).toEqual({
      ok: false,
      reason: "window_too_long",
    });
  });

  it("the legacy sf-string Signature-Agent vector verifies", () => {
    const req = request("https://example.com/", {
      "Signature-Agent": '"https://signature-agent.test"',
      "Signature-Input":
        'sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"',
      Signature: "sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:",
    });
    const [sig] = parseSignatures(req.header("signature-input")!, req.header("signature")!);
    expect(signatureValid(signatureBase(req, sig)!, sig.signature, publicKeyOf(B14))).toBe(true);
    // One byte of the authority changed: no longer valid.
    const other = request("https://example.org/", { "Signature-Agent": '"https://signature-agent.test"' });
    expect(signatureValid(signatureBase(other, sig)!, sig.signature, publicKeyOf(B14))).toBe(false);
  });

  it("a Visa-sample-shaped header (keyId, '; ' spacing, label sig2) parses and verifies over its raw params", async () => {
    const jwk = newAgentKey();
    const s = signAgentRequest({ method: "GET", url: "https://shop.example/product/1", privateJwk: jwk, tag: "agent-browser-auth" });
    const spaced = s.headers["Signature-Input"].replace(/;/g, "; ").replace("keyid=", "keyId=");
    // The sample signs its raw params text, so re-sign over the spaced text the way it does.
    const { sign, createPrivateKey } = await import("node:crypto");
    const raw = spaced.slice("sig2=".length);
    const base = `"@authority": shop.example\n"@path": /product/1\n"@signature-params": ${raw}`;
    const signature = sign(null, Buffer.from(base), createPrivateKey({ key: { ...jwk }, format: "jwk" })).toString("base64");
    const req = request("https://shop.example/product/1", { "Signature-Input": spaced, Signature: `sig2=:${signature}:` });
    const [sig] = parseSignatures(spaced, `sig2=:${signature}:`);
    expect(sig.params.get("keyid")).toBe(s.keyid);
    expect(signatureValid(signatureBase(req, sig)!, sig.signature, publicKeyOf(jwk))).toBe(true);
  });
});

describe("interoperability with the stock web-bot-auth verifier", () => {
  it("web-bot-auth's verify() accepts what our SDK signs", async () => {
    const jwk = newAgentKey();
    const url = "https://shop.example/mastercard/checkouts/cs_1/pay";
    const s = signAgentRequest({ method: "POST", url, privateJwk: jwk, tag: "web-bot-auth", signatureAgent: "https://agents.example/a" });
    const req = new Request(url, { method: "POST", headers: s.headers });
    const { d: _d, ...pub } = jwk;
    await expect(wbaVerify(req, await verifierFromJWK(pub))).resolves.toBeUndefined();
    const tampered = new Request("https://shop.example/mastercard/checkouts/cs_2/pay", { method: "POST", headers: s.headers });
    await expect(wbaVerify(tampered, await verifierFromJWK(pub))).rejects.toThrow();
  });
});

describe("policy refusals (fixed clock, no database)", () => {
  const jwk = newAgentKey();
  const url = "http://127.0.0.1:3000/visa/checkouts/cs_1/pay";
  const now = 1_800_000_000;
  const check = (
    headers: Record<string, string>,
    operation: "pay" | "browse" = "pay",
    authority: string | null = "127.0.0.1:3000",
    network: "visa" | "mastercard" = "visa",
  ) => checkSignaturePolicy(request(url, headers, "POST"), { network, operation, expectedAuthority: authority, now });
  const signed = (o: Partial<Parameters<typeof signAgentRequest>[0]> = {}) =>
    signAgentRequest({ method: "POST", url, privateJwk: jwk, tag: "agent-payer-auth", created: now, expires: now + 300, ...o }).headers;

  it("a good one passes", () => expect(check(signed()).ok).toBe(true));
  it("missing_signature", () => expect(check({})).toEqual({ ok: false, reason: "missing_signature" }));
  it("malformed_signature", () =>
    expect(check({ "Signature-Input": "sig2=(((", Signature: "sig2=:x:" })).toEqual({ ok: false, reason: "malformed_signature" }));
  it("unsupported_tag", () => expect(check(signed({ tag: "web-bot-auth" }))).toEqual({ ok: false, reason: "unsupported_tag" }));
  it("tag_operation_mismatch: the browse tag on a payment", () =>
    expect(check(signed({ tag: "agent-browser-auth" }))).toEqual({ ok: false, reason: "tag_operation_mismatch" }));
  it("missing_field: @path not covered", () =>
    expect(check(signed({ components: ["@authority"] }))).toEqual({ ok: false, reason: "missing_field" }));
  it("window_too_long: 9 minutes", () => expect(check(signed({ expires: now + 540 }))).toEqual({ ok: false, reason: "window_too_long" }));
  it("a window of exactly 8 minutes passes", () => expect(check(signed({ expires: now + 480 })).ok).toBe(true));
  it("not_yet_valid: created 10 s ahead", () =>
    expect(check(signed({ created: now + 10, expires: now + 300 }))).toEqual({ ok: false, reason: "not_yet_valid" }));
  it("expired", () => expect(check(signed({ created: now - 400, expires: now - 1 }))).toEqual({ ok: false, reason: "expired" }));
  it("authority_mismatch", () => expect(check(signed(), "pay", "api.example.com")).toEqual({ ok: false, reason: "authority_mismatch" }));
  it("Mastercard: a Signature-Agent that is not covered is missing_field", () => {
    const h = signAgentRequest({
      method: "POST",
      url,
      privateJwk: jwk,
      tag: "web-bot-auth",
      created: now,
      signatureAgent: "https://a.example",
      components: ["@authority", "@method", "@path"],
    }).headers;
    // the SDK always covers it; strip it from the covered list by hand
    const input = h["Signature-Input"].replace(' "signature-agent"', "");
    expect(check({ ...h, "Signature-Input": input }, "pay", "127.0.0.1:3000", "mastercard")).toEqual({
      ok: false,
      reason: "missing_field",
    });
  });
});
