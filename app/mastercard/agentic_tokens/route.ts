// POST issues a test agentic token (atk_) for one of the payer's Mastercard agent keys and one merchant; GET lists
// the payer's tokens (docs/cards.md "Agentic tokens").
import { api } from "@/lib/http/api";
import { issueAgenticToken, listAgenticTokens } from "@/lib/mastercard/agentic-tokens";
import { IssueTokenBody, ListTokensQuery } from "@/lib/mastercard/schemas";

export const POST = api(
  { auth: "secret", permission: ["mastercard", "write"], body: IssueTokenBody, status: 201 },
  ({ tx, principal, body }) => issueAgenticToken(tx, principal, body),
);

export const GET = api({ auth: "secret", permission: ["mastercard", "read"], query: ListTokensQuery }, ({ tx, principal, query }) =>
  listAgenticTokens(tx, principal, query),
);

export const dynamic = "force-dynamic";
