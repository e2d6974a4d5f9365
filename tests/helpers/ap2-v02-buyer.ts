// An AP2 v0.2 buyer against the real server (docs/a2a.md "AP2 v0.2"): its trusted surface's key (registered with
// POST /ap2/buyer_keys) signs SD-JWT mandates with @sd-jwt/core, its agent's key binds them to a checkout (aud, nonce,
// iat, sd_hash), and it pays with a shared payment token it mints. Shared by the AP2 v0.2 tests (REST and A2A).
import { SDJwtInstance } from "@sd-jwt/core";
import { digest, ES256, generateSalt } from "@sd-jwt/crypto-nodejs";
import { expect } from "vitest";
import { call } from "./http";
import type { TestMerchant } from "./merchants";

type Jwk = Record<string, unknown>;
export type Keys = { publicKey: Jwk; privateKey: Jwk };
export const hasher = (data: string | ArrayBuffer, alg = "sha-256") => digest(data, alg);
export const hashOf = (text: string) => Buffer.from(hasher(text)).toString("base64url");
export const now = () => Math.floor(Date.now() / 1000);

export function newKeys(): Promise<Keys> {
  return ES256.generateKeyPair() as unknown as Promise<Keys>;
}

/** What the checkouts endpoint (and the A2A agent's `ap2.checkout` data part) answers. */
export interface Ap2CheckoutOffer {
  id: string;
  checkout_jwt: string;
  checkout_hash: string;
  nonce: string;
  aud: string;
  checkout: { totals: { amount: number }[] };
}

export class Ap2V02Buyer {
  user!: Keys;
  agent!: Keys;
  kid!: string;
  keyId!: string;

  constructor(
    readonly seller: TestMerchant,
    readonly buyer: TestMerchant,
    readonly sellerName: string,
  ) {}

  /** Registers the trusted surface's key as the buyer's (answers the 201 body). */
  async register() {
    [this.user, this.agent] = await Promise.all([newKeys(), newKeys()]);
    const registered = await call("POST", "/ap2/buyer_keys", {
      key: this.buyer.testKey,
      body: { name: "trusted surface", jwk: this.user.publicKey },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    this.kid = registered.body.kid;
    this.keyId = registered.body.id;
    return registered.body;
  }

  /** The buyer's trusted surface: an SD-JWT whose delegate_payload discloses one mandate (itself selectively disclosable). */
  async signMandate(
    content: Record<string, unknown>,
    frame: Record<string, unknown> = {},
    claims: Record<string, unknown> = {},
    keys = this.user,
  ) {
    const issuer = new SDJwtInstance({
      signer: await ES256.getSigner(keys.privateKey),
      signAlg: "ES256",
      hasher,
      saltGenerator: generateSalt,
      omitTyp: true,
    });
    return issuer.issue(
      { iat: now(), exp: now() + 600, ...claims, delegate_payload: [content] } as never,
      { delegate_payload: { _sd: [0], 0: frame } } as never,
      { header: { typ: "example+sd-jwt", kid: this.kid } },
    );
  }

  /** The agent: the terminal KB-SD-JWT over the presented mandate, for this audience and nonce. */
  async bind(
    presented: string,
    closed: Record<string, unknown>,
    to: { aud: string; nonce: string },
    keys = this.agent,
    kb: Record<string, unknown> = {},
  ) {
    const holder = new SDJwtInstance({
      signer: await ES256.getSigner(keys.privateKey),
      signAlg: "ES256",
      hasher,
      saltGenerator: generateSalt,
      omitTyp: true,
    });
    const hop = await holder.issue(
      { iat: now(), aud: to.aud, nonce: to.nonce, sd_hash: hashOf(presented), ...kb, delegate_payload: [closed] } as never,
      { delegate_payload: { _sd: [0] } } as never,
      { header: { typ: "kb+sd-jwt" } },
    );
    return `${presented}~${hop}`;
  }

  async checkout(items: { product_id: string; quantity: number }[]): Promise<Ap2CheckoutOffer> {
    const res = await call("POST", `/ap2/${this.seller.merchantId}/checkouts`, { key: this.buyer.testKey, body: { line_items: items } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  async mintToken(maxAmount = 10_000): Promise<string> {
    const res = await call("POST", "/v1/shared_payment_tokens", {
      key: this.buyer.testKey,
      body: { paymentMethod: "pm_card_visa", maxAmount, currency: "usd", merchantId: this.seller.merchantId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  payee() {
    return { id: this.seller.merchantId, name: this.sellerName };
  }

  closedCheckout(co: Ap2CheckoutOffer) {
    return { vct: "mandate.checkout.1", checkout_jwt: co.checkout_jwt, checkout_hash: co.checkout_hash };
  }

  closedPayment(co: Ap2CheckoutOffer, token: string) {
    return {
      vct: "mandate.payment.1",
      transaction_id: co.checkout_hash,
      payee: this.payee(),
      payment_amount: { amount: co.checkout.totals[0].amount, currency: "USD" },
      payment_instrument: { id: token, type: "shared_payment_token", description: "SPT" },
    };
  }

  /** Human present: the buyer signs the closed mandates themselves (with the agent's key as cnf), the agent binds them. */
  async humanPresent(co: Ap2CheckoutOffer, token: string) {
    const cnf = { jwk: this.agent.publicKey };
    const cm = await this.signMandate({ ...this.closedCheckout(co), cnf }, { _sd: ["checkout_jwt"] });
    const pm = await this.signMandate({ ...this.closedPayment(co, token), cnf });
    return {
      checkout_mandate: await this.bind(cm, this.closedCheckout(co), co),
      payment_mandate: await this.bind(pm, this.closedPayment(co, token), co),
    };
  }

  pay(co: { id: string }, body: unknown) {
    return call("POST", `/ap2/${this.seller.merchantId}/checkouts/${co.id}/pay`, { key: this.buyer.testKey, body });
  }
}
