import { api } from "@/lib/http/api";
import { getPaymentIntentAfterExpiry } from "@/lib/checkouts/read-after-expiry";

export const GET = api({ auth: "secret", permission: ["payment_intents", "read"] }, ({ tx, principal, params }) =>
  getPaymentIntentAfterExpiry(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
