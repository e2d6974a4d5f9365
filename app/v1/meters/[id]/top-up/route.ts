import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { TopUpBody } from "@/lib/meters/schemas";
import { topUpMeter } from "@/lib/meters/top-up-meter";

// The top-up is charged during the request (fund-meter.ts); retries are made safe by the funding
// PaymentIntent's own request key, which also survives a crash after the rail charged.
export const POST = api({ auth: "secret", body: TopUpBody, idempotent: false, transaction: false }, ({ tx, principal, params, body, req }) =>
  topUpMeter(tx, principal, params.id, body, idempotencyKeyOf(req), { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
