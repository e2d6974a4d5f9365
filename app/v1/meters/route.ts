import { api, Reply } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { createMeter } from "@/lib/meters/create-meter";
import { listMeters } from "@/lib/meters/list-meters";
import * as operation from "./operations";

// A prepaid meter's budget is charged during the request (fund-meter.ts), after the meter is committed,
// so no wrapping transaction. The generic Idempotency-Key record replays answers (and refuses the key on
// another request); the meter's own request key makes a retry after a crash find the same meter and
// funding, never a second charge. 201 for a new meter; 200 with the same meter when a retry ran it again.
export const POST = api(operation.POST, async ({ tx, principal, body, req }) => {
  const { created, meter } = await createMeter(tx, principal, body, idempotencyKeyOf(req), {
    afterRailCharge: () => faultAt(req, "after-rail-charge"),
  });
  return created ? meter : new Reply(200, meter);
});

export const GET = api(operation.GET, ({ tx, principal, query }) => listMeters(tx, principal, query));

export const dynamic = "force-dynamic";
