// GET /v1/payment_intents/:id/receipt (docs/receipts.md): the captured PaymentIntent's receipt, signed once and stored.
import { api } from "@/lib/http/api";
import { getReceipt } from "@/lib/receipts/get-receipt";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getReceipt(tx, principal, params.id));

export const dynamic = "force-dynamic";
