import { api, Reply } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { fundMeterAsPayer } from "@/lib/meters/fund-meter-as-payer";
import * as operation from "./operations";

// The PAYER's own key funds another merchant's prepaid meter (docs/meters.md). As POST /v1/paywall/pay: the
// funding's own request key makes a retry (or a concurrent copy) find the same funding, so no generic
// Idempotency-Key record and no wrapping transaction. 201 for a new funding; 200 when a retry found it.
export const POST = api(operation.POST, async ({ tx, principal, params, body, req }) => {
  const { created, funding } = await fundMeterAsPayer(tx, principal, params.id, body, idempotencyKeyOf(req), {
    afterRailCharge: () => faultAt(req, "after-rail-charge"),
  });
  return created ? funding : new Reply(200, funding);
});

export const dynamic = "force-dynamic";
