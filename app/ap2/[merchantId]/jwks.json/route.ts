// The merchant's AP2 signing keys as a JWK Set (docs/a2a.md): public, limited per client IP.
import { api } from "@/lib/http/api";
import { jwksOf } from "@/lib/ap2/serve-jwks";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, params }) => jwksOf(tx, params.merchantId));

export const dynamic = "force-dynamic";
