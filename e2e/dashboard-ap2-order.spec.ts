// An AP2 order in the dashboard, in Chromium (docs/a2a.md): a buyer's agent (the real @a2a-js/sdk client) buys from
// the merchant agent with AP2 (a CartMandate signed by the merchant, a PaymentMandate carrying a shared payment
// token); the order's dashboard page shows the order (source AP2, the catalog items) with both mandates kept for
// audit: the CartMandate's jti, cart hash and JSON, the PaymentMandate's id, token and JSON. Axe clean.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { Role, type Part, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from "@a2a-js/sdk/client";
import { expect, test } from "@playwright/test";
import { decodeJwt } from "jose";
import { signIn } from "./support/dashboard";
import { createMerchant, expectAccessible, screenshot } from "./support/pay";

const AP2_EXT = "https://github.com/google-agentic-commerce/ap2/tree/v0.1";
const ROOT = path.resolve(import.meta.dirname, "..");

function merchantWithLogin(name: string, email: string, password: string): { merchantId: string; testSecretKey: string } {
  const out = execFileSync(
    path.join(ROOT, "node_modules", ".bin", "tsx"),
    ["scripts/merchant-create.ts", "--name", name, "--email", email, "--password", password, "--json"],
    {
      cwd: ROOT,
      env: process.env,
      encoding: "utf8",
    },
  );
  return JSON.parse(
    out
      .trim()
      .split("\n")
      .reverse()
      .find((line) => line.startsWith("{"))!,
  );
}

const part = (content: Part["content"]): Part => ({ content, metadata: undefined, filename: "", mediaType: "" });

function dataParts(task: Task): Record<string, any>[] {
  return task.artifacts.flatMap((a) =>
    a.parts.flatMap((p) => (p.content?.$case === "data" ? [p.content.value as Record<string, any>] : [])),
  );
}

test("the order's dashboard page shows an AP2 order with its CartMandate and PaymentMandate", async ({ page, request, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  const tag = randomBytes(5).toString("hex");
  const login = { email: `ap2-${tag}@example.com`, password: `correct-horse-${tag}` };
  const seller = merchantWithLogin("Lamp Emporium", login.email, login.password);
  const buyer = createMerchant("Shopping agent");
  const product = await (
    await request.post("/v1/products", {
      headers: { Authorization: `Bearer ${seller.testSecretKey}` },
      data: { name: "Desk lamp", unitAmount: 1250, currency: "usd" },
    })
  ).json();

  // The buyer's agent, with the real SDK client and its own API key.
  const fetchImpl = createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ Authorization: `Bearer ${buyer.testSecretKey}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
  ).createFromUrl(`${baseURL}/a2a/${seller.merchantId}/`);
  const options = { serviceParameters: ServiceParameters.create(withA2AExtensions(AP2_EXT)) };
  const message = (parts: Part[], task?: Task) => ({
    tenant: "",
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: randomUUID(),
      contextId: task?.contextId ?? "",
      taskId: task?.id ?? "",
      role: Role.ROLE_USER,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  });
  const t1 = (await client.sendMessage(
    message([part({ $case: "data", value: { action: "buy", items: [{ productId: product.id, quantity: 2 }] } })]),
    options,
  )) as Task;
  const cart = dataParts(t1).find((d) => d["ap2.mandates.CartMandate"])!["ap2.mandates.CartMandate"];
  const jti = decodeJwt(cart.merchant_authorization).jti as string;
  const token = (
    await (
      await request.post("/v1/shared_payment_tokens", {
        headers: { Authorization: `Bearer ${buyer.testSecretKey}` },
        data: { paymentMethod: "pm_card_visa", maxAmount: 5000, currency: "usd", merchantId: seller.merchantId },
      })
    ).json()
  ).id;
  const paymentMandateId = randomUUID();
  const paymentMandate = {
    payment_mandate_contents: {
      payment_mandate_id: paymentMandateId,
      payment_details_id: cart.contents.id,
      payment_details_total: cart.contents.payment_request.details.total,
      payment_response: {
        request_id: cart.contents.id,
        method_name: cart.contents.payment_request.method_data[0].supported_methods,
        details: { token },
      },
      merchant_agent: `${baseURL}/a2a/${seller.merchantId}`,
      timestamp: new Date().toISOString(),
    },
    user_authorization: null,
  };
  const t2 = (await client.sendMessage(
    message(
      [
        part({ $case: "data", value: { "ap2.mandates.PaymentMandate": paymentMandate } }),
        part({ $case: "data", value: { "ap2.mandates.CartMandate": cart } }),
      ],
      t1,
    ),
    options,
  )) as Task;
  const receipt = dataParts(t2).find((d) => d["ap2.PaymentReceipt"])!["ap2.PaymentReceipt"];
  expect(receipt.status).toBe("Success");
  const orderId = receipt.network_confirmation_id as string;

  await signIn(page, login.email, login.password);
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("$25.00");
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status")).toHaveText("Paid");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("AP2");
  await expect(page.getByRole("table", { name: "Items" })).toContainText("Desk lamp");

  const mandates = page.getByTestId("ap2-mandates");
  await expect(page.getByRole("heading", { level: 2, name: "AP2 mandates" })).toBeVisible();
  await expect(mandates.getByTestId("mandate-jti")).toHaveText(jti);
  await expect(mandates.getByTestId("mandate-cart-hash")).toHaveText(decodeJwt(cart.merchant_authorization).cart_hash as string);
  await expect(mandates.getByTestId("payment-mandate-id")).toHaveText(paymentMandateId);
  await expect(mandates.getByTestId("payment-mandate-token")).toHaveText(token);
  await mandates.getByText("CartMandate JSON").click();
  await expect(mandates.getByTestId("cart-mandate-json")).toContainText(cart.contents.id);
  await expect(mandates.getByTestId("cart-mandate-json")).toContainText(cart.merchant_authorization.slice(0, 40));
  await mandates.getByText("PaymentMandate JSON").click();
  await expect(mandates.getByTestId("payment-mandate-json")).toContainText(token);
  await expectAccessible(page);
  await screenshot(page, "dashboard-ap2-order");

  // The order is in the orders list too.
  await page.goto("/dashboard/orders");
  await expect(page.getByTestId("row").filter({ hasText: orderId })).toHaveCount(1);
});
