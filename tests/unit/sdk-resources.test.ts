// The SDK's resource methods are generated from the routes' operations, never kept by hand: the committed
// packages/sdk/src/generated/resources.ts must be exactly what `npm run sdk:resources` makes of them today, and
// every /v1 operation an API key calls must have a method (a route without one cannot land).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderResourceSource, operationsWithoutMethod, renderSdkResources, SDK_RESOURCES_FILE } from "../../scripts/lib/sdk-resources";
import { routeOperations } from "../../scripts/lib/route-operations";

describe("the SDK's generated resource methods", () => {
  it("match the routes' operations (`npm run sdk:resources` regenerates them)", async () => {
    expect(
      readFileSync(SDK_RESOURCES_FILE, "utf8") === (await renderSdkResources()),
      "packages/sdk/src/generated/resources.ts is stale",
    ).toBe(true);
  });

  it("cover every /v1 operation an API key calls", async () => {
    const operations = await routeOperations();
    expect(operations.filter((op) => op.path.startsWith("/v1/") && op.sdk).length).toBeGreaterThan(40);
    expect(operationsWithoutMethod(operations)).toEqual([]);
  });

  it("a /v1 operation without an sdk entry is reported, and its method appears once the entry is written", async () => {
    const operations = await routeOperations();
    const health = operations.find((op) => op.operationId === "getWebhookEndpointHealth");
    expect(health?.sdk).toBeDefined();
    const withoutSdk = operations.map((op) => (op === health ? { ...op, sdk: undefined } : op));
    expect(operationsWithoutMethod(withoutSdk)).toEqual(["GET /v1/webhook-endpoints/{id}/health (getWebhookEndpointHealth)"]);
    expect(renderResourceSource(withoutSdk)).not.toContain("health:");
    expect(renderResourceSource(operations)).toContain(
      'health: (endpointId: string, options?: RequestOptions) => send<T.WebhookEndpointHealth>("GET", `/v1/webhook-endpoints/${segment(endpointId)}/health`, undefined, options),',
    );
  });
});
