// POST /ap2/keys/rotate (merchant key; docs/a2a.md): a new CartMandate signing key; the old one stays in the JWKS
// for a day so mandates it signed still verify.
import { rotateSigningKey } from "@/lib/ap2/keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal }) => rotateSigningKey(tx, principal.merchantId));

export const dynamic = "force-dynamic";
