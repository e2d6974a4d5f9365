import { api } from "@/lib/http/api";
import { ListPaymentIntentsQuery } from "@/lib/payments/schemas";
import { listPaymentIntentsAfterExpiry } from "@/lib/checkouts/read-after-expiry";

export const GET = api(
  { auth: "secret", permission: ["payment_intents", "read"], query: ListPaymentIntentsQuery },
  ({ tx, principal, query }) => listPaymentIntentsAfterExpiry(tx, principal, query),
);

export const dynamic = "force-dynamic";
