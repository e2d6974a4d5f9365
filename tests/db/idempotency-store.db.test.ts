// A planned write and its stored idempotent response share one statement (lib/idempotency/claims.ts):
// they commit together, and a lost claim fails the statement so that the write does not happen either.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCustomer } from "../../lib/customers/create-customer";
import { getCustomer } from "../../lib/customers/get-customer";
import { sql } from "../../lib/db";
import { InvariantViolation, NotFoundError } from "../../lib/errors";
import { claim, writeAndStoreResponse } from "../../lib/idempotency/claims";
import { createTestMerchant } from "../helpers/merchants";

describe("a planned write with its stored response", () => {
  it("commits both: the customer exists and the key replays its response", async () => {
    const m = await createTestMerchant();
    const scope = { merchantId: m.merchantId, livemode: false };
    const claimScope = { apiKeyId: `key_${randomUUID()}`, livemode: false, key: randomUUID() };
    const claimed = await claim(sql(), claimScope, "fingerprint");
    if (claimed.kind !== "claimed") throw new Error("expected a fresh claim");

    const write = createCustomer(scope, { name: "stored" });
    await writeAndStoreResponse(sql(), write, claimed.claimId, 201, JSON.stringify(write.result));

    expect(await getCustomer(sql(), scope, write.result.id)).toEqual(write.result);
    expect(await claim(sql(), claimScope, "fingerprint")).toEqual({ kind: "replay", status: 201, bodyText: JSON.stringify(write.result) });
  });

  it("writes nothing when the claim was lost (taken over or released) before the write", async () => {
    const m = await createTestMerchant();
    const scope = { merchantId: m.merchantId, livemode: false };
    const write = createCustomer(scope, { name: "orphan" });
    await expect(writeAndStoreResponse(sql(), write, "idem_notheldanymore", 201, "{}")).rejects.toBeInstanceOf(InvariantViolation);
    await expect(getCustomer(sql(), scope, write.result.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
