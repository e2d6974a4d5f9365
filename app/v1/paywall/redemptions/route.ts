import { api, Reply } from "@/lib/http/api";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { redeemPayment, redemptionQuery } from "@/lib/paywall/redeem-payment";
import * as operation from "./operations";

// One atomic statement decides (with terms: verifies, then redeems only a valid proof) and recognises a retry of
// its own Idempotency-Key; it runs inside the API-key statement, so the request is one round trip.
export const POST = api(
  operation.POST,
  { statement: ({ body, req }) => redemptionQuery(body, idempotencyKeyOf(req)) },
  async ({ tx, principal, body, row }) => {
    const result = await redeemPayment(tx, principal, body, row);
    return new Reply(result.redeemed ? 201 : 200, result);
  },
);

export const dynamic = "force-dynamic";
