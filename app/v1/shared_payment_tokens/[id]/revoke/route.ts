import { api } from "@/lib/http/api";
import { revokeToken } from "@/lib/shared-payment-tokens/revoke-token";
import { RevokeTokenBody } from "@/lib/shared-payment-tokens/schemas";

export const POST = api(
  { auth: "secret", permission: ["shared_payment_tokens", "write"], body: RevokeTokenBody },
  ({ tx, principal, params }) => revokeToken(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
