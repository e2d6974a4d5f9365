import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { topUpMeter } from "@/lib/meters/top-up-meter";
import * as operation from "./operations";

// The top-up is charged during the request (fund-meter.ts), so no wrapping transaction. The generic
// Idempotency-Key record replays answers; the funding PaymentIntent's own request key makes a retry after
// a crash (the rail charged, nothing was stored) find the same funding, never a second charge.
export const POST = api(operation.POST, ({ tx, principal, params, body, req }) =>
  topUpMeter(tx, principal, params.id, body, idempotencyKeyOf(req), { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
