// POST issues a test agentic token (atk_) for one of the payer's Mastercard agent keys and one merchant; GET lists
// the payer's tokens (docs/cards.md "Agentic tokens").
import { api } from "@/lib/http/api";
import { issueAgenticToken, listAgenticTokens } from "@/lib/mastercard/agentic-tokens";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => issueAgenticToken(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listAgenticTokens(tx, principal, query));

export const dynamic = "force-dynamic";
