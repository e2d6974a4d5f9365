// AP2 v0.2 through the A2A merchant agent (docs/a2a.md "AP2 v0.2 over A2A") with the REAL @a2a-js/sdk client and a
// buyer building SD-JWT mandates with @sd-jwt/core: asking for the v0.2 extension, the agent answers the merchant-
// signed checkout (`ap2.checkout`); the buyer's Checkout and Payment Mandate chains (`ap2.mandates.*SdJwt` data
// parts) pay it through payCheckout into the one ledger (source ap2), the task completing with AP2's signed receipts
// and the service's receipt naming the mandate. A refused payment fails the task with signed Error receipts and
// nothing charged. v0.1 stays for an agent that asks for it alone.
import { TaskState, type Task } from "@a2a-js/sdk";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { a2aClient, ap2V02PayMessage, AP2_EXT, data, dataOf, send, text, userMessage } from "../helpers/a2a";
import { Ap2V02Buyer, hashOf, type Ap2CheckoutOffer } from "../helpers/ap2-v02-buyer";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const AP2_V02_EXT = "https://github.com/google-agentic-commerce/ap2/v1";

let seller: TestMerchant;
let buyer: TestMerchant;
let ap2: Ap2V02Buyer;
let kettle: { id: string };

beforeAll(async () => {
  [seller, buyer] = await Promise.all([createTestMerchant("AP2 A2A seller"), createTestMerchant("AP2 A2A buyer")]);
  ap2 = new Ap2V02Buyer(seller, buyer, "AP2 A2A seller");
  await ap2.register();
  kettle = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Kettle", unitAmount: 2900, currency: "usd" } })).body;
});

const allData = (task: Task) => [...task.artifacts.flatMap((a) => dataOf(a.parts)), ...dataOf(task.status?.message?.parts)];
const found = (task: Task, key: string) => allData(task).find((d) => d[key] !== undefined)?.[key];
const captured = () =>
  getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, source: "ap2", status: { in: ["captured", "settled"] } } });

async function offer(client: Awaited<ReturnType<typeof a2aClient>>): Promise<{ task: Task; checkout: Ap2CheckoutOffer }> {
  const task = await send(client, userMessage([data({ action: "buy", items: [{ productId: kettle.id, quantity: 2 }] })]), [AP2_V02_EXT]);
  expect(task.status?.state, JSON.stringify(task.status)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const checkout = found(task, "ap2.checkout") as Ap2CheckoutOffer;
  expect(checkout).toMatchObject({ id: expect.stringMatching(/^ap2co_/), aud: `${baseUrl()}/ap2/${seller.merchantId}` });
  return { task, checkout };
}

describe("AP2 v0.2 over A2A with the real @a2a-js/sdk client", () => {
  it("checkout signed by the merchant -> SD-JWT mandates -> completed with signed receipts naming the mandate; one payment per task", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, checkout } = await offer(client);
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const { payload: signed } = await jwtVerify(checkout.checkout_jwt, jwks);
    expect(signed).toMatchObject({ id: checkout.id, currency: "USD", totals: [{ type: "total", amount: 5800 }] });
    expect(hashOf(checkout.checkout_jwt)).toBe(checkout.checkout_hash);

    const token = await ap2.mintToken();
    const mandates = await ap2.humanPresent(checkout, token);
    const before = await captured();
    const paid = await send(client, ap2V02PayMessage(task, mandates), [AP2_V02_EXT]);
    expect(paid.status?.state, JSON.stringify(paid.status)).toBe(TaskState.TASK_STATE_COMPLETED);

    const paymentReceipt = (await jwtVerify(found(paid, "ap2.PaymentReceipt") as string, jwks)).payload;
    expect(paymentReceipt).toMatchObject({
      status: "Success",
      iss: checkout.aud,
      reference: hashOf(mandates.payment_mandate.split("~~")[1]),
      payment_id: expect.stringMatching(/^pi_/),
    });
    const checkoutReceipt = (await jwtVerify(found(paid, "ap2.CheckoutReceipt") as string, jwks)).payload;
    expect(checkoutReceipt).toMatchObject({ status: "Success", reference: hashOf(mandates.checkout_mandate.split("~~")[1]) });
    const service = await jwtVerify(
      found(paid, "serviceReceipt") as string,
      createRemoteJWKSet(new URL(`${baseUrl()}/.well-known/jwks.json`)),
    );
    expect(service.payload).toMatchObject({
      sub: paymentReceipt.payment_id,
      source: "ap2",
      amount: 5800,
      mandate: { protocol: "ap2", version: "0.2", checkoutId: checkout.id, paymentMandateReference: paymentReceipt.reference },
    });
    expect(found(paid, "orderId")).toBe(checkoutReceipt.order_id);
    expect(await captured()).toBe(before + 1);
    const row = await getDb().a2aTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(row.paymentIntentId).toBe(paymentReceipt.payment_id);
    expect((await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token } })).status).toBe("redeemed");

    // The same mandates again on the finished task: the SDK refuses a terminal task; nothing more is charged.
    await expect(send(client, ap2V02PayMessage(task, mandates), [AP2_V02_EXT])).rejects.toThrow();
    expect(await captured()).toBe(before + 1);
  });

  it("a refused payment fails the task with AP2's signed Error receipts, nothing charged", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const { task, checkout } = await offer(client);
    const token = await ap2.mintToken();
    const good = await ap2.humanPresent(checkout, token);
    // The payment mandate bound to another audience: not for this merchant.
    const pm = await ap2.signMandate({ ...ap2.closedPayment(checkout, token), cnf: { jwk: ap2.agent.publicKey } });
    const wrong = {
      ...good,
      payment_mandate: await ap2.bind(pm, ap2.closedPayment(checkout, token), { aud: "https://elsewhere.example", nonce: checkout.nonce }),
    };
    const before = await captured();
    const failed = await send(client, ap2V02PayMessage(task, wrong), [AP2_V02_EXT]);
    expect(failed.status?.state, JSON.stringify(failed.status)).toBe(TaskState.TASK_STATE_FAILED);
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const paymentError = (await jwtVerify(found(failed, "ap2.PaymentReceipt") as string, jwks)).payload;
    expect(paymentError).toMatchObject({
      status: "Error",
      error: "invalid_credential",
      payment_id: "",
      reference: hashOf(wrong.payment_mandate.split("~~")[1]),
    });
    expect((await jwtVerify(found(failed, "ap2.CheckoutReceipt") as string, jwks)).payload).toMatchObject({ status: "Error" });
    expect(await captured()).toBe(before);
    expect((await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token } })).status).toBe("active");
    expect((await getDb().a2aTask.findUniqueOrThrow({ where: { id: task.id } })).paymentIntentId).toBeNull();
  });

  it("an agent asking for v0.1 alone still gets a CartMandate; one asking for both gets the v0.2 checkout", async () => {
    const client = await a2aClient(seller.merchantId, buyer.testKey);
    const v01 = await send(client, userMessage([text(`buy ${kettle.id}`)]), [AP2_EXT]);
    expect(v01.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(found(v01, "ap2.mandates.CartMandate")).toBeTruthy();
    expect(found(v01, "ap2.checkout")).toBeUndefined();
    const both = await send(client, userMessage([text(`buy ${kettle.id}`)]), [AP2_EXT, AP2_V02_EXT]);
    expect(found(both, "ap2.checkout")).toMatchObject({ checkout_jwt: expect.any(String) });
    expect(found(both, "ap2.mandates.CartMandate")).toBeUndefined();
  });
});
