import { api, Reply } from "@/lib/http/api";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { redeemPayment } from "@/lib/paywall/redeem-payment";
import { RedeemPaymentBody } from "@/lib/paywall/schemas";

// One atomic statement decides, and it recognises a retry of its own Idempotency-Key itself.
export const POST = api(
  { auth: "secret", body: RedeemPaymentBody, idempotent: false, transaction: false, db: "sql" },
  async ({ tx, principal, body, req }) => {
    const result = await redeemPayment(tx, principal, body, idempotencyKeyOf(req));
    return new Reply(result.redeemed ? 201 : 200, result);
  },
);

export const dynamic = "force-dynamic";
