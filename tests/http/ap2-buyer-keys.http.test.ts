// AP2 v0.2 buyer keys (docs/a2a.md "AP2 v0.2"): the payer lists its keys (GET /ap2/buyer_keys) and revokes one
// (POST /ap2/buyer_keys/:id/revoke); mandates the revoked key signed are refused (buyer_key_revoked, with AP2's
// signed Error receipts), nothing charged and the token untouched; revoking is the payer's own (another account's
// key is 404), harmless twice, and for good (registering the key again answers it revoked).
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { Ap2V02Buyer } from "../helpers/ap2-v02-buyer";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let seller: TestMerchant;
let buyer: TestMerchant;
let stranger: TestMerchant;
let ap2: Ap2V02Buyer;
let product: { id: string };

beforeAll(async () => {
  [seller, buyer, stranger] = await Promise.all([
    createTestMerchant("AP2 keys seller"),
    createTestMerchant("AP2 keys buyer"),
    createTestMerchant("AP2 keys stranger"),
  ]);
  ap2 = new Ap2V02Buyer(seller, buyer, "AP2 keys seller");
  await ap2.register();
  product = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Mug", unitAmount: 700, currency: "usd" } })).body;
});

const captured = () =>
  getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, source: "ap2", status: { in: ["captured", "settled"] } } });

describe("AP2 v0.2 buyer keys", () => {
  it("lists the payer's keys newest first; another account sees none of them", async () => {
    const second = new Ap2V02Buyer(seller, buyer, "AP2 keys seller");
    await second.register();
    const list = await call("GET", "/ap2/buyer_keys", { key: buyer.testKey });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toMatchObject({ object: "list", hasMore: false });
    expect(list.body.data.map((k: { id: string }) => k.id).slice(0, 2)).toEqual([second.keyId, ap2.keyId]);
    expect(list.body.data[0]).toMatchObject({ object: "ap2_buyer_key", kid: second.kid, revokedAt: null, livemode: false });
    const page = await call("GET", "/ap2/buyer_keys?limit=1", { key: buyer.testKey });
    expect(page.body).toMatchObject({ hasMore: true, data: [{ id: second.keyId }] });
    const theirs = await call("GET", "/ap2/buyer_keys", { key: stranger.testKey });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
  });

  it("a revoked key's mandates are refused with nothing charged; revoking is the payer's own, idempotent and for good", async () => {
    const co = await ap2.checkout([{ product_id: product.id, quantity: 1 }]);
    const token = await ap2.mintToken();
    const body = await ap2.humanPresent(co, token);

    expect((await call("POST", `/ap2/buyer_keys/${ap2.keyId}/revoke`, { key: stranger.testKey })).status).toBe(404);
    const revoked = await call("POST", `/ap2/buyer_keys/${ap2.keyId}/revoke`, { key: buyer.testKey });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ id: ap2.keyId, object: "ap2_buyer_key", kid: ap2.kid });
    expect(Date.parse(revoked.body.revokedAt)).toBeGreaterThan(Date.now() - 60_000);

    const before = await captured();
    const res = await ap2.pay(co, body);
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body.error.details).toMatchObject({ reason: "buyer_key_revoked", ap2_error: "invalid_credential" });
    expect(typeof res.body.error.details.payment_receipt).toBe("string");
    expect(await captured()).toBe(before);
    expect((await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token } })).status).toBe("active");
    expect((await getDb().ap2Checkout.findUniqueOrThrow({ where: { id: co.id } })).usedAt).toBeNull();

    const again = await call("POST", `/ap2/buyer_keys/${ap2.keyId}/revoke`, { key: buyer.testKey });
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const reRegistered = await call("POST", "/ap2/buyer_keys", { key: buyer.testKey, body: { jwk: ap2.user.publicKey } });
    expect(reRegistered.status).toBe(201);
    expect(reRegistered.body).toMatchObject({ id: ap2.keyId, revokedAt: revoked.body.revokedAt });
    expect((await ap2.pay(co, body)).status).toBe(402);
    expect(await captured()).toBe(before);
  });

  it("a revocation racing payments: each payment is either paid whole or refused with nothing charged, and none after it pays", async () => {
    const racer = new Ap2V02Buyer(seller, buyer, "AP2 keys seller");
    await racer.register();
    const prepared = await Promise.all(
      Array.from({ length: 7 }, async () => {
        const co = await racer.checkout([{ product_id: product.id, quantity: 1 }]);
        return { co, body: await racer.humanPresent(co, await racer.mintToken()) };
      }),
    );
    const last = prepared.pop()!;
    const before = await captured();
    const [revocation, ...payments] = await Promise.all([
      call("POST", `/ap2/buyer_keys/${racer.keyId}/revoke`, { key: buyer.testKey }),
      ...prepared.map(({ co, body }) => racer.pay(co, body)),
    ]);
    expect(revocation.status).toBe(200);
    let paid = 0;
    for (const [i, res] of payments.entries()) {
      const row = await getDb().ap2Checkout.findUniqueOrThrow({ where: { id: prepared[i].co.id } });
      if (res.status === 200) {
        paid += 1;
        expect(row.paymentIntentId).toBe(res.body.payment_intent_id);
      } else {
        expect(res.status, JSON.stringify(res.body)).toBe(402);
        expect(res.body.error.details.reason).toBe("buyer_key_revoked");
        expect(row.paymentIntentId).toBeNull();
      }
    }
    expect(await captured()).toBe(before + paid);
    const after = await racer.pay(last.co, last.body);
    expect(after.status).toBe(402);
    expect(after.body.error.details.reason).toBe("buyer_key_revoked");
  });
});
