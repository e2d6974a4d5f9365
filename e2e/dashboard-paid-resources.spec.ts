// Paid resources in the dashboard, in Chromium: create one with the form, a stock x402 client pays it at
// /x402/r/:id and its sale shows (count and amount), archive it with the confirmation (then no longer served);
// a forwarded one (method, kept answers, listed, its secret shown once); a usage-priced (upto) one, its maximum
// checked in the browser, whose list row and page show its scheme and maximum and whose 402 asks scheme "upto";
// axe finds nothing serious.
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createApiKeyInDashboard, newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

test("create a paid resource, see its x402 sale, archive it", async ({ page, request }) => {
  await newSignedInMerchant(page, "Paid Pages");
  const key = await createApiKeyInDashboard(page);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Paid resources" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Paid resources" })).toBeVisible();
  await expect(page.getByText("No paid resources yet")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Create paid resource" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Daily forecast");
  await dialog.getByLabel("Price").fill("0.05");
  await dialog.getByLabel("Content (JSON)").fill('{ "forecast": "sunny" }');
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Create paid resource" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("row").filter({ hasText: "Daily forecast" });
  await expect(row).toContainText("$0.05");
  await expect(row).toContainText("0 ·");

  const list = await (await request.get("/v1/paid_resources", { headers: { Authorization: `Bearer ${key}` } })).json();
  const resource = list.data[0];
  expect(resource).toMatchObject({ name: "Daily forecast", amount: 5, currency: "USD", content: { forecast: "sunny" } });
  // A stock x402 client's payment (@x402/core x402Client with @x402/evm ExactEvmScheme), sent as PAYMENT-SIGNATURE.
  const unpaid = await request.get(`/x402/r/${resource.id}`);
  expect(unpaid.status()).toBe(402);
  const required = JSON.parse(Buffer.from(unpaid.headers()["payment-required"], "base64").toString("utf8"));
  const payload = await new x402Client()
    .register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())))
    .createPaymentPayload(required);
  const paid = await request.get(`/x402/r/${resource.id}`, {
    headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64") },
  });
  expect(paid.status()).toBe(200);
  expect(await paid.json()).toEqual({ forecast: "sunny" });

  await page.reload();
  await expect(row).toContainText("1 ·");
  await expect(row).toContainText("$0.05");
  await screenshot(page, "dashboard-paid-resources");
  await expectAccessible(page);

  await row.getByRole("button", { name: "Archive Daily forecast" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive resource" }).click();
  await expect(row.getByRole("button", { name: "Restore Daily forecast" })).toBeVisible();
  expect((await request.get(`/x402/r/${resource.id}`)).status()).toBe(404);
});

test("a forwarded paid resource: its method, whether its answers are kept, and its forwarding secret shown once", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Forwarding Pages");
  const key = await createApiKeyInDashboard(page);
  await page.goto("/dashboard/paid-resources");
  await page.getByRole("button", { name: "Create paid resource" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Jobs API");
  await dialog.getByLabel("Price").fill("0.03");
  await dialog.getByLabel("Forward the request to my URL").check();
  await dialog.getByLabel("Forward URL").fill("https://api.example.com/jobs");
  await dialog.getByLabel("Method").selectOption("POST");
  const keep = dialog.getByLabel(/Keep each paid answer/);
  await expect(keep).toBeChecked();
  await keep.uncheck();
  const listed = dialog.getByLabel(/List it in this deployment's discovery catalogs/);
  await expect(listed).not.toBeChecked();
  await listed.check();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Create paid resource" }).click();
  await expect(dialog).toContainText("Save your forwarding secret");
  const secret = (await dialog.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("row").filter({ hasText: "Jobs API" })).toContainText("$0.03");
  const list = await (await request.get("/v1/paid_resources", { headers: { Authorization: `Bearer ${key}` } })).json();
  expect(list.data[0]).toMatchObject({
    name: "Jobs API",
    url: "https://api.example.com/jobs",
    method: "POST",
    replayable: false,
    listed: true,
    forwardingSecretSet: true,
  });
  expect(list.data[0].forwardingSecret).toBeUndefined();
});

test("a usage-priced (upto) paid resource: unit price and maximum checked, shown in the list and on its page, its 402 asks upto", async ({
  page,
  request,
}) => {
  await newSignedInMerchant(page, "Metered Pages");
  const key = await createApiKeyInDashboard(page);
  await page.goto("/dashboard/paid-resources");
  await page.getByRole("button", { name: "Create paid resource" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Metered search");
  await expect(dialog.getByLabel("Maximum per payment")).toHaveCount(0);
  await dialog.getByLabel(/By usage, up to a maximum/).check();
  // upto is charged by the usage the merchant's server reports: it forwards, and JSON content is not offered.
  await expect(dialog.getByLabel("Forward the request to my URL")).toBeChecked();
  await expect(dialog.getByLabel(/Return this JSON content/)).toBeDisabled();
  await dialog.getByLabel("Price per unit").fill("0.02");
  await dialog.getByLabel("Maximum per payment").fill("0.01");
  await dialog.getByLabel("Forward URL").fill("https://api.example.com/search");
  await dialog.getByRole("button", { name: "Create paid resource" }).click();
  await expect(dialog.getByText("Enter a maximum of at least one unit's price (0.02).")).toBeVisible();
  await expect(dialog.getByLabel("Maximum per payment")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await dialog.getByLabel("Maximum per payment").fill("1.00");
  await dialog.getByRole("button", { name: "Create paid resource" }).click();
  await expect(dialog).toContainText("Save your forwarding secret");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("row").filter({ hasText: "Metered search" });
  await expect(row).toContainText("upto");
  await expect(row).toContainText("$0.02 per unit, up to $1.00");
  const list = await (await request.get("/v1/paid_resources", { headers: { Authorization: `Bearer ${key}` } })).json();
  const resource = list.data[0];
  expect(resource).toMatchObject({ name: "Metered search", scheme: "upto", maxAmount: 100, unitAmount: 2, amount: 100, currency: "USD" });

  // The 402 asks the maximum (100 cents = 1,000,000 atomic USDC units) under x402's upto scheme.
  const unpaid = await request.get(`/x402/r/${resource.id}`);
  expect(unpaid.status()).toBe(402);
  const required = JSON.parse(Buffer.from(unpaid.headers()["payment-required"], "base64").toString("utf8"));
  expect(required.accepts.length).toBeGreaterThan(0);
  for (const accepted of required.accepts) expect(accepted).toMatchObject({ scheme: "upto", amount: "1000000" });

  await row.getByRole("link", { name: "Metered search" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Metered search" })).toBeVisible();
  await expect(page.getByText("upto (usage-priced)")).toBeVisible();
  await expect(page.getByText("$0.02 per unit, up to $1.00")).toBeVisible();
  await expect(page.getByText("Not sold over MPP (usage-priced)")).toBeVisible();
  await expect(page.getByTestId("paid-resource-sales")).toHaveText("0 · $0.00");
  await screenshot(page, "dashboard-paid-resource-upto");
  await expectAccessible(page);
});
