import { api } from "@/lib/http/api";
import { faultAt } from "@/lib/http/fault-injection";
import { idempotencyKeyOf } from "@/lib/http/idempotency-step";
import { payPaywall } from "@/lib/paywall/pay-paywall";
import * as operation from "./operations";

// The payer's own key. Retries are made safe by the PaymentIntent's own request key (see payPaywall),
// which also survives a crash after the rail charged; so no generic record and no wrapping transaction.
export const POST = api(operation.POST, ({ tx, principal, body, req }) =>
  payPaywall(tx, principal, body, idempotencyKeyOf(req), { afterRailCharge: () => faultAt(req, "after-rail-charge") }),
);

export const dynamic = "force-dynamic";
