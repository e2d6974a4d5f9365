// The operations of /mastercard/agentic_tokens (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { IssueTokenBody, ListTokensQuery } from "@/lib/mastercard/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listMastercardAgenticTokens",
  summary: "List the payer's agentic tokens",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "read"],
  query: ListTokensQuery,
  responses: { 200: { description: "A list of agentic tokens" } },
});

export const POST = operation({
  operationId: "issueMastercardAgenticToken",
  summary: "Issue a test agentic token (atk_) for one of the payer's agent keys and one merchant",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  body: IssueTokenBody,
  status: 201,
  responses: { 201: { description: "The agentic token" } },
});
