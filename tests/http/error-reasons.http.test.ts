// docs/api-reference.md "Errors": the refusals the protocol adapters' error formatters tell apart carry a machine
// reason in the error contract (`details.reason`), so no formatter reads a message's text.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

describe("details.reason of the error contract", () => {
  let m: TestMerchant;
  beforeAll(async () => {
    m = await createTestMerchant();
  });

  it("an Idempotency-Key reused with another body: VALIDATION_ERROR idempotency_key_reused", async () => {
    const key = randomUUID();
    const post = (name: string) => call("POST", "/v1/customers", { key: m.testKey, body: { name }, headers: { "Idempotency-Key": key } });
    expect((await post("one")).status).toBe(201);
    const reused = await post("two");
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "idempotency_key_reused" } });
  });

  it("a body past the limit: VALIDATION_ERROR body_too_large", async () => {
    const res = await call("POST", "/v1/customers", {
      key: m.testKey,
      rawBody: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json", "Idempotency-Key": randomUUID() },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "body_too_large" } });
  });
});
