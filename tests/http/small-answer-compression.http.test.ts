// Answers under COMPRESS_FROM_BYTES are sent uncompressed even to a client that accepts gzip (they carry
// Cache-Control: no-transform, lib/http/small-answer.ts); larger ones are still gzipped. Gzip of a few hundred bytes
// cost each side more CPU than the whole rest of a small answer's encoding.
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { COMPRESS_FROM_BYTES } from "../../lib/http/small-answer";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";

const GZIP = { "Accept-Encoding": "gzip, deflate" };

describe("compression by answer size", () => {
  it("/health and /ready are sent as they are", async () => {
    for (const path of ["/health", "/ready"]) {
      const res = await call("GET", path, { headers: GZIP });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-encoding"), path).toBeNull();
      expect(res.headers.get("cache-control"), path).toContain("no-transform");
    }
  });

  it("a small API answer is sent as it is; a list past the threshold is gzipped, with its own Cache-Control untouched", async () => {
    const m = await createTestMerchant();
    const created = await call("POST", "/v1/customers", { key: m.testKey, body: { name: "Small" }, headers: GZIP });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body).length).toBeLessThan(COMPRESS_FROM_BYTES);
    expect(created.headers.get("content-encoding")).toBeNull();
    expect(created.headers.get("cache-control")).toBe("no-transform");

    for (let i = 0; i < 8; i++) {
      expect(
        (await call("POST", "/v1/customers", { key: m.testKey, body: { name: `Customer ${i}`, email: `c${i}@example.com` } })).status,
      ).toBe(201);
    }
    const list = await call("GET", "/v1/customers?limit=100", { key: m.testKey, headers: GZIP });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body).length).toBeGreaterThanOrEqual(COMPRESS_FROM_BYTES);
    expect(list.headers.get("content-encoding")).toBe("gzip");
    expect(list.headers.get("cache-control") ?? "").not.toContain("no-transform");
  });

  it("a paid resource's content is no-store; a small one is sent as it is, a large one gzipped (the real @x402/fetch pays both)", async () => {
    const m = await createTestMerchant();
    const payer = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
    const pay = wrapFetchWithPayment(fetch, payer);
    for (const [content, gzipped] of [
      [{ answer: 42 }, false],
      [{ text: "x".repeat(COMPRESS_FROM_BYTES) }, true],
    ] as const) {
      const made = await call("POST", "/v1/paid_resources", {
        key: m.testKey,
        body: { name: "Sized", amount: 1, currency: "usd", content },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const res = await pay(`${baseUrl()}/x402/r/${made.body.id}`, { headers: GZIP });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(content);
      expect(res.headers.get("payment-response")).toBeTruthy();
      expect(res.headers.get("content-encoding")).toBe(gzipped ? "gzip" : null);
      // Paid content is never kept by a shared cache.
      expect(res.headers.get("cache-control")).toBe(gzipped ? "no-store" : "no-store, no-transform");
    }
  });
});
