import { beforeAll, describe, expect, it } from "vitest";

let isForbiddenAddress: (address: string) => boolean;
let sealSecret: (plaintext: string) => string;
let openSecret: (sealed: string) => string;

beforeAll(async () => {
  process.env.SECRETS_ENCRYPTION_KEY = "ab".repeat(32);
  ({ isForbiddenAddress } = await import("../../lib/webhooks/address-policy"));
  ({ sealSecret, openSecret } = await import("../../lib/crypto/secret-box"));
});

describe("webhook address policy", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3", "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows the public address %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe("sealed secrets", () => {
  it("round-trip, never contain the plaintext, and detect tampering", () => {
    const sealed = sealSecret("whsec_abc");
    expect(sealed).not.toContain("whsec_abc");
    expect(sealSecret("whsec_abc")).not.toBe(sealed); // fresh IV every time
    expect(openSecret(sealed)).toBe("whsec_abc");
    const parts = sealed.split(":");
    parts[3] = Buffer.from("tampered").toString("base64");
    expect(() => openSecret(parts.join(":"))).toThrow();
  });
});
