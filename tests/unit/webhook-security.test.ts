import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importWithEnv } from "../helpers/modules-with-env";

let isForbiddenAddress: (address: string) => boolean;
let sealSecret: (plaintext: string) => string;
let openSecret: (sealed: string) => string;
let restoreEnv = () => {};

beforeAll(async () => {
  const loaded = await importWithEnv({ SECRETS_ENCRYPTION_KEY: "ab".repeat(32) }, async () => ({
    ...(await import("../../lib/security/address-policy")),
    ...(await import("../../lib/crypto/secret-box")),
  }));
  ({ isForbiddenAddress, sealSecret, openSecret } = loaded.modules);
  restoreEnv = loaded.restore;
});

afterAll(() => restoreEnv());

describe("webhook address policy", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:10.1.2.3",
    "not-an-ip",
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

describe("WEBHOOK_ALLOW_PRIVATE_URLS", () => {
  it("defaults to on only when BASE_URL is a loopback address (a local installation)", async () => {
    const { allowPrivateWebhookUrls } = await import("../../lib/env");
    for (const base of [
      "http://localhost:3000",
      "http://127.0.0.1:4000",
      "http://[::1]:3000",
      "http://app.localhost",
      "http://127.1.2.3",
    ]) {
      expect(allowPrivateWebhookUrls(undefined, base), base).toBe(true);
      expect(allowPrivateWebhookUrls("", base), base).toBe(true);
    }
    for (const base of [
      "https://pay.example.com",
      "http://10.0.0.5:3000",
      "http://0.0.0.0:3000",
      "http://192.168.1.20",
      "https://localhost.example.com",
    ]) {
      expect(allowPrivateWebhookUrls(undefined, base), base).toBe(false);
    }
  });

  it("a production server with no BASE_URL fails closed (a deployment that forgot it); `next dev` without one stays local", async () => {
    const { allowPrivateWebhookUrls } = await import("../../lib/env");
    expect(allowPrivateWebhookUrls(undefined, undefined, "production")).toBe(false);
    expect(allowPrivateWebhookUrls(undefined, undefined)).toBe(false);
    expect(allowPrivateWebhookUrls(undefined, undefined, "development")).toBe(true);
    expect(allowPrivateWebhookUrls("1", undefined, "production")).toBe(true);
  });

  it("an explicit setting wins either way", async () => {
    const { allowPrivateWebhookUrls } = await import("../../lib/env");
    expect(allowPrivateWebhookUrls("1", "https://pay.example.com")).toBe(true);
    expect(allowPrivateWebhookUrls("true", "https://pay.example.com")).toBe(true);
    expect(allowPrivateWebhookUrls("0", "http://localhost:3000")).toBe(false);
    expect(allowPrivateWebhookUrls("false", "http://127.0.0.1:3000")).toBe(false);
  });
});

describe("delivery error classes", () => {
  const nodeError = (code: string, message = code) => Object.assign(new Error(message), { code });

  it("classify what a send fails with, whatever the address in the message", async () => {
    const { classifySendError } = await import("../../lib/webhooks/delivery-errors");
    expect(classifySendError(nodeError("ECONNREFUSED", "connect ECONNREFUSED 10.0.0.5:6379"))).toBe("connection_refused");
    expect(classifySendError(nodeError("ENOTFOUND", "getaddrinfo ENOTFOUND internal.corp"))).toBe("dns_error");
    expect(classifySendError(nodeError("EAI_AGAIN"))).toBe("dns_error");
    expect(classifySendError(nodeError("ETIMEDOUT"))).toBe("timeout");
    expect(classifySendError(nodeError("DEPTH_ZERO_SELF_SIGNED_CERT"))).toBe("tls_error");
    expect(classifySendError(nodeError("ERR_TLS_CERT_ALTNAME_INVALID"))).toBe("tls_error");
    expect(classifySendError(nodeError("EPROTO"))).toBe("tls_error");
    expect(classifySendError(nodeError("ECONNRESET", "socket hang up"))).toBe("connection_reset");
    expect(
      classifySendError(new Error("DNS lookup 10.0.0.5(family:4, host:internal) is not allowed. Because, It is private IP address.")),
    ).toBe("blocked_address");
    expect(classifySendError(nodeError("EHOSTUNREACH", "connect EHOSTUNREACH 10.9.9.9:22"))).toBe("connection_error");
    // undici's (the sender's client) and the sender's own address policy
    expect(classifySendError(nodeError("UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error (attempted address: 10.0.0.5:443)"))).toBe(
      "timeout",
    );
    expect(classifySendError(nodeError("UND_ERR_HEADERS_TIMEOUT"))).toBe("timeout");
    expect(classifySendError(nodeError("UND_ERR_BODY_TIMEOUT"))).toBe("timeout");
    expect(classifySendError(nodeError("UND_ERR_SOCKET", "other side closed"))).toBe("connection_reset");
    expect(classifySendError(nodeError("ERR_BLOCKED_ADDRESS", "refused"))).toBe("blocked_address");
  });

  it("attempts logged before classes were stored are shown as their class", async () => {
    const { publicDeliveryError } = await import("../../lib/webhooks/delivery-errors");
    expect(publicDeliveryError("connect ECONNREFUSED 10.0.0.5:6379")).toBe("connection_refused");
    expect(publicDeliveryError("endpoint answered 503")).toBe("http_error");
    expect(publicDeliveryError("no answer within 10000 ms")).toBe("timeout");
    expect(publicDeliveryError("connect EHOSTUNREACH 10.9.9.9:22")).toBe("connection_error");
    expect(publicDeliveryError("timeout")).toBe("timeout");
    expect(publicDeliveryError(null)).toBeNull();
  });
});
