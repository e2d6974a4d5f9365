// Helpers for the pay-page specs: a merchant made by the operator CLI (as outside scripts do), checkouts
// opened through the public API, and the card form filled like a person would.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const SCREENSHOTS = path.join(ROOT, "e2e", "screenshots");

export interface Merchant {
  merchantId: string;
  testSecretKey: string;
  liveSecretKey: string;
}

export function createMerchant(name: string): Merchant {
  const out = execFileSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/merchant-create.ts", "--name", name, "--json"], {
    cwd: ROOT,
    env: process.env,
    encoding: "utf8",
  });
  const line = out
    .trim()
    .split("\n")
    .reverse()
    .find((candidate) => candidate.startsWith("{"));
  if (!line) throw new Error(`merchant:create printed no JSON:\n${out}`);
  return JSON.parse(line) as Merchant;
}

export async function openCheckout(request: APIRequestContext, key: string, body: Record<string, unknown> = {}) {
  const res = await request.post("/v1/checkouts", {
    headers: { Authorization: `Bearer ${key}` },
    data: {
      currency: "usd",
      items: [
        { name: "Single-origin espresso beans, 1 kg", quantity: 2, unitAmount: 2450 },
        { name: "Shipping", quantity: 1, unitAmount: 500 },
      ],
      description: "Order #1042",
      ...body,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

/** Opens a checkout ($54.00 by default) and pays it by card on the hosted page, as a payer would. */
export async function payNewCheckoutOnPayPage(page: Page, request: APIRequestContext, key: string) {
  const checkout = await openCheckout(request, key);
  await page.goto(checkout.url);
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $54.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  return checkout;
}

export async function getJson(request: APIRequestContext, key: string, apiPath: string) {
  const res = await request.get(apiPath, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status()).toBe(200);
  return res.json();
}

export async function fillCard(page: Page, cardNumber: string, options: { country?: string; expiry?: string } = {}) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry date (MM / YY)").fill(options.expiry ?? "12/34");
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByLabel("Name on card").fill("Jane Payer");
  await page.getByLabel("Billing country").selectOption(options.country ?? "US");
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core: no serious or critical violations. */
export async function expectAccessible(page: Page) {
  // Next streams a page's metadata: after a refresh its <title> may land a moment after the content.
  await expect(page).toHaveTitle(/\S/);
  // A control fading between colours (transition-colors, after a submit re-enables it) is measured halfway by axe's
  // contrast check: wait for every finite animation and transition to end (spinners repeat for ever: not those).
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
  );
  // Legacy mode: axe.run in the page itself, as one call. The default runs each frame's part, then opens a blank page
  // (a new renderer) to merge them, twice the CPU per check; what it adds, cross-origin frames, no page here has.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    bad.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}
