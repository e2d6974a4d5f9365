import { api } from "@/lib/http/api";
import { ListPaymentIntentsQuery } from "@/lib/payments/schemas";
import { listPaymentIntentsAfterExpiry } from "@/lib/checkouts/read-after-expiry";

export const GET = api({ auth: "secret", query: ListPaymentIntentsQuery }, ({ tx, principal, query }) =>
  listPaymentIntentsAfterExpiry(tx, principal, query),
);

export const dynamic = "force-dynamic";
