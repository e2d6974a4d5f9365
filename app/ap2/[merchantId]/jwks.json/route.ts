// The merchant's AP2 signing keys as a JWK Set (docs/a2a.md): public, limited per client IP.
import { api } from "@/lib/http/api";
import { jwksOf } from "@/lib/ap2/serve-jwks";

export const GET = api({ auth: "public" }, ({ tx, params }) => jwksOf(tx, params.merchantId));

export const dynamic = "force-dynamic";
