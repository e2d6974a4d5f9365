// POST /mpp/verify (the MERCHANT's key): settles a `service` credential for a challenge the merchant's own mppx
// server issued, into a captured PaymentIntent (source "mpp"); the answer is what the SDK's serviceServerMethod
// turns into the Payment-Receipt (lib/mpp/verify-merchant-credential.ts).
import { api } from "@/lib/http/api";
import { methodNotAllowed } from "@/lib/mpp/problem";
import { verifyMerchantCredential } from "@/lib/mpp/verify-merchant-credential";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => verifyMerchantCredential(tx, principal, body));

// Any other method: 405 with a problem body.
export const GET = () => methodNotAllowed(["POST"]);

export const dynamic = "force-dynamic";
