// AP2 over the A2A merchant agent (docs/a2a.md) with the REAL @a2a-js/sdk client: the agent returns a
// CartMandate signed by the merchant, which the client verifies against the merchant's JWKS (jose) and whose
// cart_hash it recomputes; a PaymentMandate whose payment_response carries a shared payment token (spt_) settles
// once into the one ledger (source ap2) with an AP2 PaymentReceipt, the mandates kept with the order; an altered
// cart, an expired mandate, a reused jti and a reused token are refused with nothing charged; key rotation keeps
// the old key published.
import { createHash, randomUUID } from "node:crypto";
import { Message, TaskState, type Task } from "@a2a-js/sdk";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, agentBase, AP2_EXT, data, dataOf, send, text, userMessage } from "../helpers/a2a";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import { startReceiver } from "../helpers/webhook-receiver";

let seller: TestMerchant;
let buyer: TestMerchant;
let shortLived: ServerProcess;
let twin: ServerProcess;
let lamp: { id: string };
let bulb: { id: string };

beforeAll(async () => {
  [seller, buyer] = await Promise.all([createTestMerchant("AP2 seller"), createTestMerchant("AP2 buyer")]);
  // A second process whose CartMandates live 2 seconds (the expiry test).
  // A second process at the same public address as the first (as behind a load balancer): mandates name that
  // address as issuer and audience.
  [shortLived, twin] = await Promise.all([
    startTestServer({ AP2_CART_MANDATE_TTL_SECONDS: "2" }),
    startTestServer({ BASE_URL: baseUrl() }),
  ]);
  lamp = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Desk lamp", unitAmount: 1250, currency: "usd" } })).body;
  bulb = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Bulb", unitAmount: 300, currency: "usd" } })).body;
});
afterAll(() => Promise.all([shortLived?.stop(), twin?.stop()]));

/** The client's own canonical JSON (keys sorted at every level) and cart_hash: base64url(SHA-256). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
    .join(",")}}`;
}
const cartHash = (contents: unknown) => createHash("sha256").update(canonical(contents)).digest("base64url");

async function mintToken(maxAmount = 10_000) {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key: buyer.testKey,
    body: { paymentMethod: "pm_card_visa", maxAmount, currency: "usd", merchantId: seller.merchantId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

function cartMandateOf(task: Task) {
  const found = task.artifacts.flatMap((a) => dataOf(a.parts)).find((d) => d["ap2.mandates.CartMandate"]);
  expect(found, JSON.stringify(task.artifacts)).toBeDefined();
  return found!["ap2.mandates.CartMandate"];
}

function paymentMandate(cart: any, token: string, agent: string) {
  return {
    payment_mandate_contents: {
      payment_mandate_id: randomUUID(),
      payment_details_id: cart.contents.id,
      payment_details_total: cart.contents.payment_request.details.total,
      payment_response: {
        request_id: cart.contents.id,
        method_name: cart.contents.payment_request.method_data[0].supported_methods,
        details: { token },
      },
      merchant_agent: agent,
      timestamp: new Date().toISOString(),
    },
    user_authorization: null,
  };
}

function receiptOf(task: Task) {
  return task.artifacts.flatMap((a) => dataOf(a.parts)).find((d) => d["ap2.PaymentReceipt"])?.["ap2.PaymentReceipt"];
}

async function ap2Payments() {
  return getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, source: "ap2" } });
}

async function tokenStatus(id: string) {
  return (await call("GET", `/v1/shared_payment_tokens/${id}`, { key: buyer.testKey })).body.status;
}

describe("AP2 with the real @a2a-js/sdk client", () => {
  it("CartMandate verified against the JWKS -> PaymentMandate with an spt_ -> completed with a receipt; the ledger, the mandates with the order; replay refused", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const agent = agentBase(seller.merchantId);
    const t1 = await send(
      client,
      userMessage([
        data({
          action: "buy",
          items: [
            { productId: lamp.id, quantity: 1 },
            { productId: bulb.id, quantity: 2 },
          ],
        }),
      ]),
      [AP2_EXT],
    );
    expect(t1.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const cart = cartMandateOf(t1);
    expect(cart.contents).toMatchObject({
      merchant_name: "AP2 seller",
      payment_request: { details: { total: { amount: { currency: "USD", value: 18.5 } } } },
    });
    expect(cart.contents.payment_request.details.display_items).toHaveLength(2);

    // The client verifies the merchant's signature against the published JWKS, and the cart hash itself.
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(cart.merchant_authorization, jwks, {
      issuer: agent,
      audience: agent,
      subject: seller.merchantId,
      algorithms: ["ES256"],
    });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload.cart_hash).toBe(cartHash(cart.contents));
    expect(payload.jti).toEqual(expect.any(String));
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(new Date(cart.contents.cart_expiry).getTime()).toBe(payload.exp! * 1000);

    const token = await mintToken();
    const pm = paymentMandate(cart, token, agent);
    const t2 = await send(
      client,
      userMessage([text("paying"), data({ "ap2.mandates.PaymentMandate": pm }), data({ "ap2.mandates.CartMandate": cart })], {
        taskId: t1.id,
        contextId: t1.contextId,
      }),
      [AP2_EXT],
    );
    expect(t2.status?.state, JSON.stringify(t2.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const receipt = receiptOf(t2);
    expect(receipt).toMatchObject({
      status: "Success",
      iss: agent,
      payment_id: expect.stringMatching(/^pi_/),
      psp_confirmation_id: expect.stringMatching(/^pi_/),
      network_confirmation_id: expect.stringMatching(/^ord_/),
      reference: expect.any(String),
    });
    // The service's signed receipt of the payment rides along (docs/receipts.md).
    expect(decodeJwt(receipt.serviceReceipt)).toMatchObject({
      sub: receipt.payment_id,
      source: "ap2",
      orderId: receipt.network_confirmation_id,
      // ... naming the mandates it was paid under (the PaymentMandate's id, the CartMandate's jti and hash).
      mandate: {
        protocol: "ap2",
        version: "0.1",
        paymentMandateId: pm.payment_mandate_contents.payment_mandate_id,
        cartMandateId: payload.jti,
        cartHash: payload.cart_hash,
      },
    });

    const pi = await call("GET", `/v1/payment_intents/${receipt.payment_id}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), amount: 1850, source: "ap2", currency: "USD" });
    const order = await call("GET", `/v1/orders/${pi.body.orderId}`, { key: seller.testKey });
    expect(order.body).toMatchObject({ status: "paid", source: "ap2", amount: 1850 });
    expect(order.body.items.map((i: any) => [i.productId, i.quantity])).toEqual([
      [lamp.id, 1],
      [bulb.id, 2],
    ]);
    expect(await tokenStatus(token)).toBe("redeemed");
    const mandate = await getDb().ap2Mandate.findUnique({ where: { jti: payload.jti as string } });
    expect(mandate).toMatchObject({
      orderId: pi.body.orderId,
      paymentIntentId: pi.body.id,
      tokenId: token,
      cartHash: payload.cart_hash,
      paymentMandateId: pm.payment_mandate_contents.payment_mandate_id,
    });
    expect(mandate?.usedAt).not.toBeNull();
    expect((mandate?.paymentMandate as any).payment_mandate_contents.payment_response.details.token).toBe(token);
    const events = await call("GET", "/v1/events?type=order.paid&limit=100", { key: seller.testKey });
    expect(events.body.data.some((e: any) => e.data.object.id === pi.body.orderId)).toBe(true);

    // Replayed: the same PaymentMandate and CartMandate in another task -> refused (reused jti), nothing charged.
    const count = await ap2Payments();
    const t3 = await send(client, userMessage([text(`buy ${lamp.id}`)]), [AP2_EXT]);
    const replay = await send(
      client,
      userMessage([data({ "ap2.mandates.PaymentMandate": pm }), data({ "ap2.mandates.CartMandate": cart })], {
        taskId: t3.id,
        contextId: t3.contextId,
      }),
      [AP2_EXT],
    );
    expect(replay.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(receiptOf(replay)).toMatchObject({ status: "Error", error: "mandate_already_used" });

    // The same token for a fresh cart: refused (the token paid once), nothing charged.
    const t4 = await send(client, userMessage([text(`buy ${bulb.id}`)]), [AP2_EXT]);
    const cart4 = cartMandateOf(t4);
    const reused = await send(
      client,
      userMessage([data({ "ap2.mandates.PaymentMandate": paymentMandate(cart4, token, agent) })], {
        taskId: t4.id,
        contextId: t4.contextId,
      }),
      [AP2_EXT],
    );
    expect(reused.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(receiptOf(reused)?.error).toMatch(/token/);
    expect(await ap2Payments()).toBe(count);

    // Refunds like any payment.
    const refund = await call("POST", "/v1/refunds", { key: seller.testKey, body: { paymentIntentId: pi.body.id, amount: 300 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  });

  it("an AP2 purchase emits the usual webhooks (order.paid, payment_intent.captured with source ap2), signed and logged", async () => {
    const receiver = await startReceiver();
    try {
      const shop = await createTestMerchant("AP2 webhooks shop");
      expect((await call("POST", "/v1/webhook-endpoints", { key: shop.testKey, body: { url: receiver.url } })).status).toBe(201);
      const product = (
        await call("POST", "/v1/products", { key: shop.testKey, body: { name: "Poster", unitAmount: 700, currency: "usd" } })
      ).body;
      const client = await a2aClient(shop.merchantId, buyer.testKey);
      const t = await send(client, userMessage([text(`buy ${product.id}`)]), [AP2_EXT]);
      const cart = cartMandateOf(t);
      const token = (
        await call("POST", "/v1/shared_payment_tokens", {
          key: buyer.testKey,
          body: { paymentMethod: "pm_card_visa", maxAmount: 700, currency: "usd", merchantId: shop.merchantId },
        })
      ).body.id;
      const done = await send(
        client,
        userMessage([data({ "ap2.mandates.PaymentMandate": paymentMandate(cart, token, agentBase(shop.merchantId)) })], {
          taskId: t.id,
          contextId: t.contextId,
        }),
        [AP2_EXT],
      );
      const receipt = receiptOf(done);
      expect(receipt?.status).toBe("Success");
      const deadline = Date.now() + 20_000;
      const has = (type: string, id: string) => receiver.received.some((d) => d.event.type === type && d.event.data.object.id === id);
      while (!(has("order.paid", receipt.network_confirmation_id) && has("payment_intent.captured", receipt.payment_id))) {
        expect(Date.now(), JSON.stringify(receiver.received.map((d) => d.event.type))).toBeLessThan(deadline);
        await tick();
        await new Promise((r) => setTimeout(r, 150));
      }
      const captured = receiver.received.find((d) => d.event.type === "payment_intent.captured")!;
      expect(captured.event.data.object).toMatchObject({ source: "ap2", amount: 700 });
      expect(String(captured.headers["x-service-signature"] ?? "")).toMatch(/t=\d+,v1=/);
    } finally {
      await receiver.close();
    }
  });

  it("an altered cart (price, quantity or a forged signature) is refused with nothing charged, and the token stays usable", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const agent = agentBase(seller.merchantId);
    const token = await mintToken();
    const count = await ap2Payments();
    const tamperings: [string, (cart: any) => void, string][] = [
      ["cheaper total", (c) => (c.contents.payment_request.details.total.amount.value = 0.01), "cart_hash_mismatch"],
      ["more items", (c) => (c.contents.payment_request.details.display_items[0].label = "9 x Desk lamp"), "cart_hash_mismatch"],
      [
        "forged signature",
        (c) =>
          (c.merchant_authorization =
            c.merchant_authorization.slice(0, -4) + (c.merchant_authorization.endsWith("AAAA") ? "BBBB" : "AAAA")),
        "invalid_merchant_authorization",
      ],
      ["not a JWT", (c) => (c.merchant_authorization = "nope"), "invalid_merchant_authorization"],
    ];
    for (const [name, tamper, reason] of tamperings) {
      const t = await send(client, userMessage([text(`buy ${lamp.id}`)]), [AP2_EXT]);
      const cart = structuredClone(cartMandateOf(t));
      tamper(cart);
      const pm = paymentMandate(cart, token, agent);
      const r = await send(
        client,
        userMessage([data({ "ap2.mandates.PaymentMandate": pm }), data({ "ap2.mandates.CartMandate": cart })], {
          taskId: t.id,
          contextId: t.contextId,
        }),
        [AP2_EXT],
      );
      expect(r.status?.state, name).toBe(TaskState.TASK_STATE_FAILED);
      expect(receiptOf(r), name).toMatchObject({ status: "Error", error: reason, payment_id: "" });
    }
    // A PaymentMandate whose total is not the cart's, or with no spt_ token.
    const t = await send(client, userMessage([text(`buy ${lamp.id}`)]), [AP2_EXT]);
    const cart = cartMandateOf(t);
    const lowball = paymentMandate(cart, token, agent);
    lowball.payment_mandate_contents.payment_details_total = { label: "Total", amount: { currency: "USD", value: 1 } };
    const r1 = await send(
      client,
      userMessage([data({ "ap2.mandates.PaymentMandate": lowball })], { taskId: t.id, contextId: t.contextId }),
      [AP2_EXT],
    );
    expect(receiptOf(r1)?.error).toBe("payment_total_mismatch");
    for (const bad of [{ nope: true }, paymentMandate(cart, "tok_visa", agent)]) {
      const tt = await send(client, userMessage([text(`buy ${lamp.id}`)]), [AP2_EXT]);
      const r = await send(
        client,
        userMessage([data({ "ap2.mandates.PaymentMandate": bad })], { taskId: tt.id, contextId: tt.contextId }),
        [AP2_EXT],
      );
      expect(r.status?.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(receiptOf(r)?.status).toBe("Error");
    }
    expect(await ap2Payments()).toBe(count);
    expect(await tokenStatus(token)).toBe("active");
  });

  it("an expired mandate is refused with nothing charged (a process whose mandates live 2 s)", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey, shortLived.url);
    const agent = agentBase(seller.merchantId, shortLived.url);
    const t = await send(client, userMessage([text(`buy ${bulb.id}`)]), [AP2_EXT]);
    const cart = cartMandateOf(t);
    const token = await mintToken();
    await new Promise((r) => setTimeout(r, 2_500));
    const r = await send(
      client,
      userMessage(
        [data({ "ap2.mandates.PaymentMandate": paymentMandate(cart, token, agent) }), data({ "ap2.mandates.CartMandate": cart })],
        { taskId: t.id, contextId: t.contextId },
      ),
      [AP2_EXT],
    );
    expect(r.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(receiptOf(r)?.error).toBe("mandate_expired");
    expect(await tokenStatus(token)).toBe("active");
  });

  it("the same PaymentMandate sent concurrently to two server processes pays once; the task ends completed", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const agent = agentBase(seller.merchantId);
    const t = await send(client, userMessage([text(`buy ${lamp.id} 2`)]), [AP2_EXT]);
    const cart = cartMandateOf(t);
    const pm = paymentMandate(cart, await mintToken(), agent);
    const before = await ap2Payments();
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const message = Message.toJSON(
          userMessage([data({ "ap2.mandates.PaymentMandate": pm }), data({ "ap2.mandates.CartMandate": cart })], {
            taskId: t.id,
            contextId: t.contextId,
          }),
        );
        const res = await fetch(agentBase(seller.merchantId, i % 2 ? twin.url : baseUrl()), {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "A2A-Version": "1.0",
            "A2A-Extensions": AP2_EXT,
            Authorization: `Bearer ${buyer.testKey}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "SendMessage", params: { message } }),
        });
        expect(res.status).toBe(200);
        return res.json();
      }),
    );
    const completed = answers.filter((a: any) => a.result?.task?.status?.state === "TASK_STATE_COMPLETED");
    expect(completed, JSON.stringify(answers.map((a: any) => a.result?.task?.status?.state ?? a.error?.message))).toHaveLength(1);
    expect(await ap2Payments()).toBe(before + 1);
    const row = await getDb().a2aTask.findUnique({ where: { id: t.id } });
    expect(row?.state).toBe("TASK_STATE_COMPLETED");
    expect(row?.paymentIntentId).toMatch(/^pi_/);
  });

  it("keys rotate: the new key signs, the old one stays in the JWKS and still verifies its mandates", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const agent = agentBase(seller.merchantId);
    const before = await send(client, userMessage([text(`buy ${bulb.id}`)]), [AP2_EXT]);
    const oldCart = cartMandateOf(before);
    const oldKid = decodeProtectedHeader(oldCart.merchant_authorization).kid;
    const rotated = await call("POST", "/ap2/keys/rotate", { key: seller.testKey, body: {} });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.kid).not.toBe(oldKid);
    const jwks = await (await fetch(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`)).json();
    expect(jwks.keys.map((k: any) => k.kid)).toEqual(expect.arrayContaining([oldKid, rotated.body.kid]));
    expect(jwks.keys.every((k: any) => k.kty === "EC" && k.crv === "P-256" && k.alg === "ES256" && k.d === undefined)).toBe(true);
    const after = await send(client, userMessage([text(`buy ${bulb.id}`)]), [AP2_EXT]);
    expect(decodeProtectedHeader(cartMandateOf(after).merchant_authorization).kid).toBe(rotated.body.kid);
    // The mandate signed before the rotation still pays.
    const r = await send(
      client,
      userMessage([data({ "ap2.mandates.PaymentMandate": paymentMandate(oldCart, await mintToken(), agent) })], {
        taskId: before.id,
        contextId: before.contextId,
      }),
      [AP2_EXT],
    );
    expect(r.status?.state, JSON.stringify(receiptOf(r))).toBe(TaskState.TASK_STATE_COMPLETED);
    // The private key is stored sealed, never in clear.
    const stored = await getDb().ap2SigningKey.findMany({ where: { merchantId: seller.merchantId } });
    expect(stored.every((k) => k.privateJwkCiphertext.startsWith("v1:") && !k.privateJwkCiphertext.includes('"d"'))).toBe(true);
  });

  it("bad input on the AP2 paths: JWKS of an unknown merchant 404, rotation without a key 401", async () => {
    const res = await fetch(`${baseUrl()}/ap2/mer_doesnotexist0000000000000/jwks.json`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("NOT_FOUND");
    expect((await call("POST", "/ap2/keys/rotate", { body: {} })).status).toBe(401);
    expect((await call("POST", "/ap2/keys/rotate", { key: seller.testKey, body: { nope: 1 } })).status).toBe(400);
    expect(
      (await call("POST", "/ap2/keys/rotate", { key: seller.testKey, rawBody: "{x", headers: { "Content-Type": "application/json" } }))
        .status,
    ).toBe(400);
  });
});
