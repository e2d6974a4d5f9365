import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/pay";

test("the API reference renders every operation of /v1/openapi.json from assets served by the app", async ({ page }) => {
  const offSite: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://127.0.0.1")) offSite.push(request.url());
  });
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: /Agent Payments Service API/ })).toBeVisible();
  const document = await (await page.request.get("/v1/openapi.json")).json();
  const operations = Object.values(document.paths as Record<string, object>).reduce<number>(
    (n, methods) => n + Object.keys(methods).length,
    0,
  );
  // Swagger UI renders a long document's operations as they scroll into view: scroll down step by step and
  // collect every operation that rendered, until all of the document's have.
  const rendered = new Set<string>();
  await expect
    .poll(
      async () => {
        for (const id of await page.locator(".opblock").evaluateAll((blocks) => blocks.map((block) => block.id))) rendered.add(id);
        await page.mouse.wheel(0, 600);
        return rendered.size;
      },
      { timeout: 60_000, intervals: [150] },
    )
    .toBe(operations);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.locator(".opblock-summary-path", { hasText: /^\/v1\/customers$/ }).first()).toBeVisible();

  // An operation opens with its parameters and its documented responses.
  await page.locator("#operations-Customers-createCustomer .opblock-summary").click();
  await expect(page.locator("#operations-Customers-createCustomer")).toContainText("201");
  expect(offSite).toEqual([]);
  await expectAccessible(page);
});
