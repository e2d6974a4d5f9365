import { api } from "@/lib/http/api";
import { listPaymentIntents } from "@/lib/payments/list-payment-intents";
import { ListPaymentIntentsQuery } from "@/lib/payments/schemas";

export const GET = api({ auth: "secret", query: ListPaymentIntentsQuery }, ({ tx, principal, query }) =>
  listPaymentIntents(tx, principal, query),
);

export const dynamic = "force-dynamic";
