import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../lib/crypto/password";
import { createId, randomBase62 } from "../../lib/ids";
import { generateSecret, hashSecret, looksLikeSecret, visiblePrefix } from "../../lib/merchants/api-key-secret";

describe("ids", () => {
  it("are the prefix and 24 random base62 characters, never repeating", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => createId("customer")));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
    expect(randomBase62(100)).toMatch(/^[0-9A-Za-z]{100}$/);
  });
});

describe("API key secrets", () => {
  it("carry their mode in the prefix and are stored as a SHA-256 hash", () => {
    const test = generateSecret(false);
    const live = generateSecret(true);
    expect(test).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(live).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(hashSecret(test)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(test)).not.toContain(test.slice(8));
    expect(visiblePrefix(test)).toBe(test.slice(0, 12));
    expect(looksLikeSecret(test)).toBe(true);
    expect(looksLikeSecret("sk_test_short")).toBe(false);
    expect(looksLikeSecret(`pk_test_${test.slice(8)}`)).toBe(false);
  });
});

describe("passwords", () => {
  it("are hashed with a salted scrypt and verified in constant time", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/); // N=2^17 (current guidance)
    expect(hash).not.toContain("correct horse");
    expect(await hashPassword("correct horse")).not.toBe(hash);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("wrong", hash)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});
