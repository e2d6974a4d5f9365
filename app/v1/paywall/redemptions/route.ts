import { api, Reply } from "@/lib/http/api";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { redeemPayment } from "@/lib/paywall/redeem-payment";
import { redeemVerifiedPayment } from "@/lib/paywall/redeem-verified-payment";
import { hasTerms } from "@/lib/paywall/schemas";
import * as operation from "./operations";

// One atomic statement decides (with terms: verifies, then redeems only a valid proof), and it
// recognises a retry of its own Idempotency-Key itself.
export const POST = api(operation.POST, async ({ tx, principal, body, req }) => {
  const key = idempotencyKeyOf(req);
  const result = hasTerms(body) ? await redeemVerifiedPayment(tx, principal, body, key) : await redeemPayment(tx, principal, body, key);
  return new Reply(result.redeemed ? 201 : 200, result);
});

export const dynamic = "force-dynamic";
