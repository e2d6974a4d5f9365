// POST mints a token with the payer's own key; GET lists the payer's tokens (docs/shared-payment-tokens.md).
import { api } from "@/lib/http/api";
import { listTokens } from "@/lib/shared-payment-tokens/list-tokens";
import { mintToken } from "@/lib/shared-payment-tokens/mint-token";
import { ListTokensQuery, MintTokenBody } from "@/lib/shared-payment-tokens/schemas";

export const POST = api(
  { auth: "secret", permission: ["shared_payment_tokens", "write"], body: MintTokenBody, status: 201 },
  ({ tx, principal, body }) => mintToken(tx, principal, body),
);

export const GET = api(
  { auth: "secret", permission: ["shared_payment_tokens", "read"], query: ListTokensQuery },
  ({ tx, principal, query }) => listTokens(tx, principal, query),
);

export const dynamic = "force-dynamic";
