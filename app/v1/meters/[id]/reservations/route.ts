import { api, Reply } from "@/lib/http/api";
import { reserve } from "@/lib/meters/reserve";
import { ReserveBody } from "@/lib/meters/schemas";

// 201 for a new hold; 200 with the original one when its idempotencyKey reserved before. A budget that
// cannot cover the call is 402 PAYMENT_DECLINED, details.reason "insufficient_budget" with details.topUp.
export const POST = api({ auth: "secret", body: ReserveBody, status: 201 }, async ({ tx, principal, params, body }) => {
  const { created, reservation } = await reserve(tx, principal, params.id, body);
  return created ? reservation : new Reply(200, reservation);
});
