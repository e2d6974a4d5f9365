// ServiceError.is works by shape, so it holds for an error made by a second copy of the SDK module.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ServiceError, parseRetryAfter } from "agent-payments-sdk";
import { errorFromResponse } from "../../packages/sdk/src/errors";

const copyDir = mkdtempSync(path.join(tmpdir(), "sdk-copy-"));
afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

describe("ServiceError", () => {
  it("is() is true for an error from another copy of the module, where instanceof fails", async () => {
    // A second copy at another path, as when two packages each bundle the SDK core.
    const copyPath = path.join(copyDir, "errors.ts");
    copyFileSync(path.resolve(import.meta.dirname, "../../packages/sdk/src/errors.ts"), copyPath);
    const copy = (await import(/* @vite-ignore */ copyPath)) as typeof import("../../packages/sdk/src/errors");
    // And a third, the same file loaded under another module id.
    const sameFileOtherId = "../../packages/sdk/src/errors.ts?copy=3";
    const third = (await import(/* @vite-ignore */ sameFileOtherId)) as typeof import("../../packages/sdk/src/errors");

    expect(copy.ServiceError).not.toBe(ServiceError);
    expect(third.ServiceError).not.toBe(ServiceError);
    for (const Other of [copy.ServiceError, third.ServiceError]) {
      const foreign = new Other({ code: "NOT_FOUND", status: 404, message: "No such customer" });
      expect(foreign instanceof ServiceError).toBe(false);
      expect(ServiceError.is(foreign)).toBe(true);
      expect(Other.is(new ServiceError({ code: "timeout", status: 0, message: "slow" }))).toBe(true);
    }
  });

  it("is() is false for look-alikes without code or status, and for non-objects", () => {
    const plain = new Error("boom");
    const withCodeOnly = Object.assign(new Error("x"), { name: "ServiceError", code: "NOT_FOUND" });
    const withStatusOnly = Object.assign(new Error("x"), { name: "ServiceError", status: 404 });
    const nodeError = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const otherLibrary = Object.assign(new Error("x"), { name: "AxiosError", code: "ERR_BAD_REQUEST", status: 400 });
    const badStatus = Object.assign(new Error("x"), { name: "ServiceError", code: "X", status: "404" });
    for (const value of [
      plain,
      withCodeOnly,
      withStatusOnly,
      nodeError,
      otherLibrary,
      badStatus,
      null,
      undefined,
      "ServiceError",
      42,
      {},
    ]) {
      expect(ServiceError.is(value)).toBe(false);
    }
  });

  it("carries code, status, message and details, and serialises without the stack", () => {
    const err = new ServiceError({ code: "PAYMENT_DECLINED", status: 402, message: "declined", details: { reason: "insufficient_funds" } });
    expect(err).toBeInstanceOf(Error);
    expect([err.code, err.status, err.message, err.details.reason]).toEqual(["PAYMENT_DECLINED", 402, "declined", "insufficient_funds"]);
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "ServiceError",
      code: "PAYMENT_DECLINED",
      status: 402,
      message: "declined",
      details: { reason: "insufficient_funds" },
    });
    expect(new ServiceError({ code: "timeout", status: 0, message: "t" }).isTransportError).toBe(true);
  });

  it("maps a contract error body and headers; falls back to a code by status for foreign bodies", () => {
    const headers = new Headers({ "Retry-After": "3", "Request-Id": "req_1", "Idempotent-Replayed": "true" });
    const err = errorFromResponse(429, { error: { code: "RATE_LIMITED", message: "slow down", details: {} } }, headers);
    expect([err.code, err.status, err.retryAfterSeconds, err.requestId, err.idempotentReplayed]).toEqual([
      "RATE_LIMITED",
      429,
      3,
      "req_1",
      true,
    ]);
    const foreign = errorFromResponse(502, "<html>Bad gateway</html>");
    expect([foreign.code, foreign.status, foreign.details]).toEqual(["UPSTREAM_ERROR", 502, {}]);
  });

  it("parseRetryAfter reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("2")).toBe(2);
    expect(parseRetryAfter(new Date(10_000 + 5_000).toUTCString(), 10_000)).toBe(5);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
