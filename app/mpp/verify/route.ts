// POST /mpp/verify (the MERCHANT's key): settles a `service` or `evm` credential for a challenge the merchant's own
// mppx server issued, into a captured PaymentIntent (source "mpp"); the answer is what the SDK's serviceServerMethod
// (or an mppx/evm/server `settle` hook) turns into the Payment-Receipt (lib/mpp/verify-merchant-credential.ts).
import { api } from "@/lib/http/api";
import { methodNotAllowed } from "@/lib/mpp/problem";
import { verifyCredential } from "@/lib/mpp/verify-merchant-credential";
import * as operation from "./operations";

// Its own transactions (verifyCredential): a live evm settlement waits on the chain between them.
export const POST = api(operation.POST, ({ principal, body }) => verifyCredential(principal, body));

// Any other method: 405 with a problem body.
export const GET = () => methodNotAllowed(["POST"]);

export const dynamic = "force-dynamic";
