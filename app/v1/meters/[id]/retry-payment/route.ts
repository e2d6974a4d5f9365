import { api } from "@/lib/http/api";
import { retryMeterPayment } from "@/lib/meters/retry-payment";
import * as operation from "./operations";

// Bills what declined aggregate charges left outstanding in one new aggregate PaymentIntent (charged by the
// tick); a past-due meter is open again once it is captured. Nothing outstanding -> 409.
export const POST = api(operation.POST, ({ tx, principal, params, body }) => retryMeterPayment(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
