import { api } from "@/lib/http/api";
import { getPaymentIntent } from "@/lib/payments/get-payment-intent";

export const GET = api({ auth: "secret" }, ({ tx, principal, params }) => getPaymentIntent(tx, principal, params.id));

export const dynamic = "force-dynamic";
