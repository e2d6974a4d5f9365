// POST (payer key + TAP signature by the instruction's agent key, tag credential-request): a single-use credential
// (vtok_) for one merchant and amount, refused outside the instruction's mandates (docs/cards.md).
import { api } from "@/lib/http/api";
import { requestCredential } from "@/lib/visa/instructions";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, req, rawBody, principal, params, body }) =>
  requestCredential(tx, req, rawBody, principal, params.id, body),
);

export const dynamic = "force-dynamic";
