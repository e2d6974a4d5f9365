// POST /mastercard/verify (merchant key): was this request, received by the merchant's own server, signed by a
// registered mastercard agent? (docs/cards.md "Verify for your own server").
import { verifyForMerchant } from "@/lib/agent-identity/verify-for-merchant";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => verifyForMerchant(tx, principal, "mastercard", body));

export const dynamic = "force-dynamic";
