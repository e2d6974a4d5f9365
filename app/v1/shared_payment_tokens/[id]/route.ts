import { api } from "@/lib/http/api";
import { getToken } from "@/lib/shared-payment-tokens/list-tokens";

export const GET = api({ auth: "secret", permission: ["shared_payment_tokens", "read"] }, ({ tx, principal, params }) =>
  getToken(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
