// The SDK's response and request types are generated from the OpenAPI document, never kept by hand: the
// committed packages/sdk/src/generated/openapi.ts must be exactly what `npm run sdk:types` makes of
// docs/openapi.json today.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSdkTypes, SDK_TYPES_FILE } from "../../scripts/lib/sdk-types";

describe("the SDK's generated types", () => {
  it("match docs/openapi.json (`npm run openapi` regenerates both)", async () => {
    expect(readFileSync(SDK_TYPES_FILE, "utf8") === (await renderSdkTypes()), "packages/sdk/src/generated/openapi.ts is stale").toBe(true);
  });
});
