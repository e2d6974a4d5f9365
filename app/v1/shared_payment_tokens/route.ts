// POST mints a token with the payer's own key; GET lists the payer's tokens (docs/shared-payment-tokens.md).
import { api } from "@/lib/http/api";
import { listTokens } from "@/lib/shared-payment-tokens/list-tokens";
import { mintToken } from "@/lib/shared-payment-tokens/mint-token";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => mintToken(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listTokens(tx, principal, query));

export const dynamic = "force-dynamic";
