// A route's write and its stored idempotent response share one statement when the caller is already known
// (writeAndStoreResponse, lib/idempotency/claims.ts: the Redis buckets' path): they commit together, and a lost claim
// fails the statement so that the write does not happen either.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { customerCreation } from "../../lib/customers/create-customer";
import { getCustomer } from "../../lib/customers/get-customer";
import { sql } from "../../lib/db";
import { InvariantViolation, NotFoundError } from "../../lib/errors";
import { claim, writeAndStoreResponse } from "../../lib/idempotency/claims";
import { createTestMerchant } from "../helpers/merchants";

describe("a route's write with its stored response", () => {
  it("commits both: the customer exists and the key replays its response", async () => {
    const m = await createTestMerchant();
    const caller = { apiKeyId: null, merchantId: m.merchantId, livemode: false };
    const claimScope = { apiKeyId: `key_${randomUUID()}`, livemode: false, key: randomUUID() };
    const claimed = await claim(sql(), claimScope, "fingerprint");
    if (claimed.kind !== "claimed") throw new Error("expected a fresh claim");

    const creation = customerCreation({ name: "stored" });
    const answer = creation.answer(false) as { id: string };
    await writeAndStoreResponse(sql(), creation.query, caller, claimed.claimId, 201, JSON.stringify(answer));

    expect(await getCustomer(sql(), caller, answer.id)).toEqual(answer);
    expect(await claim(sql(), claimScope, "fingerprint")).toEqual({ kind: "replay", status: 201, bodyText: JSON.stringify(answer) });
  });

  it("writes nothing when the claim was lost (taken over or released) before the write", async () => {
    const m = await createTestMerchant();
    const caller = { apiKeyId: null, merchantId: m.merchantId, livemode: false };
    const creation = customerCreation({ name: "orphan" });
    const { id } = creation.answer(false) as { id: string };
    await expect(writeAndStoreResponse(sql(), creation.query, caller, "idem_notheldanymore", 201, "{}")).rejects.toBeInstanceOf(
      InvariantViolation,
    );
    await expect(getCustomer(sql(), caller, id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
