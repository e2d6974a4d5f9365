import { api } from "@/lib/http/api";
import { verdict, verifyQuery } from "@/lib/paywall/verify-payment";
import * as operation from "./operations";

// Verifying changes nothing: no idempotency record and no transaction; its one read runs inside the API-key
// statement (one round trip).
export const POST = api(operation.POST, { statement: ({ body }) => verifyQuery(body) }, ({ principal, body, row }) =>
  verdict(principal, body, row),
);

export const dynamic = "force-dynamic";
