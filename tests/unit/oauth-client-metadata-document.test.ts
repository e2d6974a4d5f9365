// Client ID metadata documents' pure rules (lib/oauth/client-metadata-document.ts, redirect-uri-rules.ts): the
// document's validation, the cache lifetime, and redirect URIs by application_type. The fetch, the cache and the
// official client's flow are tests/http/oauth-cimd-step-up.http.test.ts's.
import { describe, expect, it } from "vitest";
import { cacheSeconds, validateDocument } from "../../lib/oauth/client-metadata-document";
import { redirectUriProblem } from "../../lib/oauth/redirect-uri-rules";

const URL_ID = "https://agent.example/oauth/client.json";
const doc = (fields: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ client_id: URL_ID, client_name: "Agent", redirect_uris: ["https://agent.example/cb"], ...fields }));

describe("validateDocument", () => {
  it("accepts a minimal public client document", () => {
    expect(validateDocument(URL_ID, doc())).toMatchObject({ client_id: URL_ID, client_name: "Agent" });
  });

  it.each([
    ["another client_id", doc({ client_id: "https://agent.example/other.json" }), "not exactly its own URL"],
    ["a trailing slash", doc({ client_id: `${URL_ID}/` }), "not exactly its own URL"],
    ["no client_name", doc({ client_name: undefined }), "client_name"],
    ["a client_secret", doc({ client_secret: "s" }), "client_secret"],
    ["private_key_jwt", doc({ token_endpoint_auth_method: "private_key_jwt" }), "token_endpoint_auth_method"],
    ["the implicit grant", doc({ grant_types: ["implicit"] }), "grant_types"],
    ["a token response type", doc({ response_types: ["token"] }), "response_types"],
    ["an unknown scope", doc({ scope: "admin" }), "scope"],
    ["a web app's private-use scheme", doc({ application_type: "web", redirect_uris: ["com.example.app:/cb"] }), "web application"],
    ["a fragment", doc({ redirect_uris: ["https://agent.example/cb#x"] }), "fragment"],
    ["not JSON", Buffer.from("<html>"), "not valid JSON"],
    ["an array", Buffer.from("[]"), "not a JSON object"],
  ])("refuses %s", (_label, body, reason) => {
    expect(() => validateDocument(URL_ID, body)).toThrow(reason);
  });
});

describe("cacheSeconds", () => {
  it("honours max-age between a minute and a day", () => {
    expect(cacheSeconds("public, max-age=600")).toBe(600);
    expect(cacheSeconds("max-age=5")).toBe(60);
    expect(cacheSeconds("max-age=99999999")).toBe(86_400);
    expect(cacheSeconds(undefined)).toBe(3600);
    expect(cacheSeconds("no-store")).toBe(60);
    expect(cacheSeconds("max-age=abc")).toBe(3600);
  });
});

describe("redirectUriProblem by application_type", () => {
  it("native: loopback http, private-use schemes and https", () => {
    for (const uri of ["http://127.0.0.1:5000/cb", "http://[::1]/cb", "com.example.app:/cb", "https://agent.example/cb"])
      expect(redirectUriProblem(uri, "native"), uri).toBeNull();
    expect(redirectUriProblem("http://agent.example/cb", "native")).toMatch(/https/);
    expect(redirectUriProblem("myapp:/cb", "native")).toMatch(/private-use scheme/);
  });

  it("web: https only (no private-use scheme, no plain http on a public host)", () => {
    expect(redirectUriProblem("https://agent.example/cb", "web")).toBeNull();
    expect(redirectUriProblem("com.example.app:/cb", "web")).toMatch(/web application/);
    expect(redirectUriProblem("http://agent.example/cb", "web")).toMatch(/web application/);
  });

  it("not stated: the former rules", () => {
    for (const uri of ["http://localhost:1/cb", "com.example.app:/cb", "https://agent.example/cb"])
      expect(redirectUriProblem(uri), uri).toBeNull();
    expect(redirectUriProblem("https://user:pw@agent.example/cb")).toMatch(/user information/);
  });
});
