import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../lib/canonical-json";
import { requestFingerprint } from "../../lib/idempotency/fingerprint";

describe("request fingerprint", () => {
  it("ignores key order and whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(requestFingerprint("POST", "/v1/x", { a: 1, b: 2 })).toBe(requestFingerprint("post", "/v1/x", { b: 2, a: 1 }));
  });

  it("changes with any value, the path or the method", () => {
    const base = requestFingerprint("POST", "/v1/x", { a: 1 });
    expect(requestFingerprint("POST", "/v1/x", { a: 2 })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/y", { a: 1 })).not.toBe(base);
    expect(requestFingerprint("PUT", "/v1/x", { a: 1 })).not.toBe(base);
    expect(requestFingerprint("POST", "/v1/x", { a: "1" })).not.toBe(base);
  });
});
