import { api } from "@/lib/http/api";
import { VerifyPaymentBody } from "@/lib/paywall/schemas";
import { verifyPayment } from "@/lib/paywall/verify-payment";

// Verifying changes nothing: no idempotency record and no transaction (one read after authentication).
export const POST = api(
  { auth: "secret", permission: ["paywall", "write"], body: VerifyPaymentBody, idempotent: false, transaction: false, db: "sql" },
  ({ tx, principal, body }) => verifyPayment(tx, principal, body),
);

export const dynamic = "force-dynamic";
