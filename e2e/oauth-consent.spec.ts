// Issue 16: the OAuth consent screen in Chromium. Signed out, an authorization request goes through /login
// and back to the consent page (the app's self-chosen name marked unverified, test mode and the asked scopes
// preselected), which sends the browser to the client's redirect URI with a code (or
// error=access_denied when denied); the connected app then shows under Connected apps and revoking it
// makes its token useless. axe-clean, and a screenshot at 360 px.
import { createHash, randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { newSignedInMerchant } from "./support/dashboard";
import { expectAccessible, screenshot } from "./support/pay";

const REDIRECT = "http://127.0.0.1:9/callback";

async function register(page: Page, name: string): Promise<string> {
  const res = await page.request.post("/oauth/register", {
    data: {
      client_name: name,
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).client_id;
}

function authorizeRequest(base: string, clientId: string) {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const state = randomBytes(8).toString("hex");
  const url = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state, scope: "read write", resource: `${base}/mcp` })}`;
  return { url, verifier, state };
}

/** The client's redirect URI is not a real server here: the browser's arrival there is answered in the test. */
async function catchRedirect(page: Page) {
  await page.route("http://127.0.0.1:9/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/plain", body: "back at the client" }),
  );
}

test("signed out -> login -> consent -> redirect with code; the code buys a token", async ({ page, baseURL }) => {
  const user = await newSignedInMerchant(page, "Consent Coffee");
  await page.context().clearCookies();
  await catchRedirect(page);
  const clientId = await register(page, "Acme Agent");
  const request = authorizeRequest(baseURL!, clientId);

  await page.goto(request.url);
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Foauth%2Fconsent%3F/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/oauth/consent");

  // The registrant's name is shown as unverified; the heading names the address the browser will be sent back to.
  await expect(page.getByRole("heading", { level: 1, name: "Allow an app at 127.0.0.1:9 to use your account?" })).toBeVisible();
  await expect(page.getByText(/It calls itself Acme Agent \(unverified name\)/)).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /Create checkouts/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /Test mode/ })).toBeChecked();
  await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await screenshot(page, "oauth-consent-mobile-360");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);

  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => url.origin === "http://127.0.0.1:9");
  const back = new URL(page.url());
  expect(back.pathname).toBe("/callback");
  expect(back.searchParams.get("state")).toBe(request.state);
  const code = back.searchParams.get("code");
  expect(code).toMatch(/^aps_code_/);

  const token = await page.request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code: code!,
      code_verifier: request.verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: `${baseURL}/mcp`,
    },
  });
  expect(token.status()).toBe(200);
  expect((await token.json()).scope).toBe("read write");
});

test("deny returns error=access_denied to the client", async ({ page, baseURL }) => {
  await newSignedInMerchant(page, "Denying Donuts");
  await catchRedirect(page);
  const clientId = await register(page, "Unwanted Agent");
  const request = authorizeRequest(baseURL!, clientId);
  await page.goto(request.url);
  await page.waitForURL((url) => url.pathname === "/oauth/consent");
  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL((url) => url.origin === "http://127.0.0.1:9");
  const back = new URL(page.url());
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe(request.state);
  expect(back.searchParams.get("code")).toBeNull();
});

test("Connected apps lists the app and revokes it: its token gets 401", async ({ page, baseURL }) => {
  await newSignedInMerchant(page, "Revoking Ramen");
  await catchRedirect(page);
  const clientId = await register(page, "Revocable Agent");
  const request = authorizeRequest(baseURL!, clientId);
  await page.goto(request.url);
  await page.waitForURL((url) => url.pathname === "/oauth/consent");
  await page.getByRole("checkbox", { name: /Create checkouts/ }).uncheck();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => url.origin === "http://127.0.0.1:9");
  const code = new URL(page.url()).searchParams.get("code")!;
  const token = await (
    await page.request.post("/oauth/token", {
      form: { grant_type: "authorization_code", code, code_verifier: request.verifier, redirect_uri: REDIRECT, client_id: clientId },
    })
  ).json();
  expect(token.scope).toBe("read");
  const mcp = (accessToken: string) =>
    page.request.post("/mcp", {
      headers: {
        Authorization: `Bearer ${accessToken}`,
        Accept: "application/json, text/event-stream",
        "Content-Type": "application/json",
      },
      data: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
    });
  expect((await mcp(token.access_token)).status()).toBe(200);

  await page.goto("/dashboard/connected-apps");
  await expect(page.getByRole("heading", { level: 1, name: "Connected apps" })).toBeVisible();
  const row = page.getByRole("row", { name: /Revocable Agent/ });
  await expect(row).toContainText("Read");
  await expect(row).not.toContainText("Never");
  await expectAccessible(page);
  await row.getByRole("button", { name: "Revoke Revocable Agent" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke access" }).click();
  await expect(page.getByText("Revocable Agent can no longer use your account.")).toBeVisible();
  await expect(page.getByRole("row", { name: /Revocable Agent/ })).toHaveCount(0);
  expect((await mcp(token.access_token)).status()).toBe(401);
});
