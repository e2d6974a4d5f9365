// POST (payer key + Web Bot Auth signature by the token's agent key): a single-use Dynamic Token Verification
// Code for one purchase (docs/cards.md "Codes").
import { api } from "@/lib/http/api";
import { requestCode } from "@/lib/mastercard/request-code";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, req, rawBody, principal, params }) => requestCode(tx, req, rawBody, principal, params.id));

export const dynamic = "force-dynamic";
