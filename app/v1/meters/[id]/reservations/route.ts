import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { api, Reply } from "@/lib/http/api";
import { reserve } from "@/lib/meters/reserve";
import * as operation from "./operations";

// One atomic statement. The reservation's own key (body idempotencyKey, else the Idempotency-Key header)
// makes a retry get the same hold. `created` (and 201 vs 200) says whether THIS request made it (its own
// retries included); a key whose reservation finished is 409 reservation_already_used. A budget that
// cannot cover the call is 402 PAYMENT_DECLINED, details.reason "insufficient_budget" with details.topUp.
export const POST = api(operation.POST, async ({ tx, principal, params, body, req }) => {
  const { created, reservation } = await reserve(tx, principal, params.id, body, idempotencyKeyOf(req));
  return created ? reservation : new Reply(200, reservation);
});

export const dynamic = "force-dynamic";
