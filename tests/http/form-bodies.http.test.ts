// The public form endpoints read their bodies through the streaming limit (issue 14, item 6): the pay
// forms (POST /pay/:checkoutId/submit, /pay/paywall/submit) and next-auth's POSTs (/api/auth/*) stop at
// 16 KiB and answer, instead of buffering a chunked upload of any size (unauthenticated memory
// exhaustion). Each upload here stays open: only a server that stops reading can answer it.
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { isErrorShape, rawRequest, unfinishedChunkedUpload } from "../helpers/raw-request";

const OVER_LIMIT = 256 * 1024;

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Form bodies");
});

const formHeaders = () => ({ Origin: baseUrl(), "Content-Type": "application/x-www-form-urlencoded" });

describe("pay forms", () => {
  it("POST /pay/:checkoutId/submit answers a never-ending chunked body once past 16 KiB (JSON and plain form)", async () => {
    const json = await unfinishedChunkedUpload(
      baseUrl(),
      "/pay/cs_doesnotexist/submit",
      { ...formHeaders(), Accept: "application/json" },
      OVER_LIMIT,
      { fill: "a" },
    );
    expect(json.status).toBe(400);
    expect(JSON.parse(json.text).error).toBe("invalid_card");
    const form = await unfinishedChunkedUpload(baseUrl(), "/pay/cs_doesnotexist/submit", formHeaders(), OVER_LIMIT, { fill: "a" });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe("/pay/cs_doesnotexist?error=invalid_card");
  });

  it("POST /pay/paywall/submit does the same", async () => {
    const terms = new URLSearchParams({ merchant: m.merchantId, amount: "100", currency: "usd", sku: "report" });
    const res = await unfinishedChunkedUpload(
      baseUrl(),
      `/pay/paywall/submit?${terms}`,
      { ...formHeaders(), Accept: "application/json" },
      OVER_LIMIT,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toBe("invalid_card");
  });

  it("a declared Content-Length over the limit is refused without reading, and a small form still reaches the token check", async () => {
    const big = await rawRequest(baseUrl(), "POST", "/pay/cs_doesnotexist/submit", {
      headers: { ...formHeaders(), Accept: "application/json" },
      body: "a".repeat(17 * 1024),
    });
    expect(big.status).toBe(400);
    const small = await rawRequest(baseUrl(), "POST", "/pay/cs_doesnotexist/submit", {
      headers: { ...formHeaders(), Accept: "application/json" },
      body: "cardNumber=4242424242424242&formToken=1.AAAA",
    });
    expect(small.status).toBe(403);
    expect(JSON.parse(small.text).error).toBe("form_expired");
  });
});

describe("next-auth", () => {
  it.each(["/api/auth/callback/signin", "/api/auth/callback/signup", "/api/auth/signout"])(
    "POST %s answers a never-ending chunked body once past 16 KiB, in the error shape",
    async (path) => {
      const res = await unfinishedChunkedUpload(baseUrl(), path, formHeaders(), OVER_LIMIT);
      expect(res.status).toBe(400);
      expect(isErrorShape(res.text)).toBe(true);
      expect(JSON.parse(res.text).error.message).toMatch(/exceeds 16384 bytes/);
    },
  );

  it("a normal sign-in post still reaches next-auth (its CSRF check answers)", async () => {
    const res = await rawRequest(baseUrl(), "POST", "/api/auth/callback/signin", {
      headers: formHeaders(),
      body: "email=a%40b.example&password=x&csrfToken=nope&json=true",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).url).toMatch(/csrf=true/);
    const csrf = await rawRequest(baseUrl(), "GET", "/api/auth/csrf");
    expect(JSON.parse(csrf.text).csrfToken).toMatch(/\w+/);
  });
});
