// GET /v1/openapi.json: public (no key), the committed document (docs/openapi.json), not the catch-all 404.
import { describe, expect, it } from "vitest";
import { baseUrl, call } from "../helpers/http";
import { loadDocument } from "../helpers/openapi-responses";

describe("GET /v1/openapi.json", () => {
  it("answers the committed OpenAPI document without a key", async () => {
    const res = await call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual(loadDocument());
    expect(res.body.paths["/v1/customers"].post.responses["201"]).toBeDefined();
  });

  it("takes no other method (the error contract's 404)", async () => {
    const res = await call("POST", "/v1/openapi.json", { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
  });

  it("checks answers against the document: an undocumented field fails", async () => {
    // The helper every HTTP test calls /v1 with validates each answer; this one is broken on purpose.
    const { checkV1Response } = await import("../helpers/openapi-responses");
    const customer = {
      id: "cus_x",
      object: "customer",
      name: null,
      email: null,
      metadata: {},
      livemode: false,
      createdAt: "2026-11-26T10:00:00.000Z",
    };
    const url = "http://127.0.0.1/v1/customers/cus_x";
    expect(() => checkV1Response("GET", url, 200, "application/json", customer)).not.toThrow();
    expect(() => checkV1Response("GET", url, 200, "application/json", { ...customer, extra: 1 })).toThrow(/additional properties/);
    const { email: _email, ...missing } = customer;
    expect(() => checkV1Response("GET", url, 200, "application/json", missing)).toThrow(/must have required property 'email'/);
    expect(() => checkV1Response("GET", url, 202, "application/json", customer)).toThrow(/does not document/);
    expect(() => checkV1Response("GET", url, 404, "application/json", { error: { code: "NOPE", message: "", details: {} } })).toThrow(
      /ErrorBody/,
    );
  });
});

describe("the API reference page (/docs/api)", () => {
  it("is served with its Swagger UI assets from the app itself, pointed at /v1/openapi.json", async () => {
    const page = await fetch(`${baseUrl()}/docs/api`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/api\/assets\/[^"]+)"/g)].map(([, href]) => href);
    expect(assets.sort()).toEqual([
      "/docs/api/assets/start.js",
      "/docs/api/assets/swagger-ui-bundle.js",
      "/docs/api/assets/swagger-ui.css",
      "/docs/api/assets/theme.css",
    ]);
    expect(html).not.toMatch(/https?:\/\//); // no CDN
    for (const asset of assets) {
      const res = await fetch(`${baseUrl()}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.text()).length, asset).toBeGreaterThan(100);
    }
    expect(await (await fetch(`${baseUrl()}/docs/api/assets/start.js`)).text()).toContain('url: "/v1/openapi.json"');
    expect((await fetch(`${baseUrl()}/docs/api/assets/package.json`)).status).toBe(404);
  });
});
