import { api } from "@/lib/http/api";
import { verifyPayment } from "@/lib/paywall/verify-payment";
import * as operation from "./operations";

// Verifying changes nothing: no idempotency record and no transaction (one read after authentication).
export const POST = api(operation.POST, ({ tx, principal, body }) => verifyPayment(tx, principal, body));

export const dynamic = "force-dynamic";
