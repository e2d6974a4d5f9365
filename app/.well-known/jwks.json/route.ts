// The service's receipt keys as a JWK Set (docs/receipts.md): public, limited per client IP.
import { api } from "@/lib/http/api";
import { receiptJwks } from "@/lib/receipts/published-keys";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx }) => receiptJwks(tx));

export const dynamic = "force-dynamic";
