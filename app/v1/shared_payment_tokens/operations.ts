// The operations of /v1/shared_payment_tokens (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ListTokensQuery, MintTokenBody, SharedPaymentTokenList, SharedPaymentTokenObject } from "@/lib/shared-payment-tokens/schemas";

export const POST = operation({
  operationId: "mintSharedPaymentToken",
  summary: "Mint a shared payment token (the payer's key)",
  tag: "Shared payment tokens",
  auth: "secret",
  permission: ["shared_payment_tokens", "write"],
  body: MintTokenBody,
  status: 201,
  bodyName: "MintSharedPaymentTokenParams",
  responses: { 201: SharedPaymentTokenObject },
  sdk: { resource: "sharedPaymentTokens", method: "create", doc: "The PAYER mints a scoped, single-use token with its own key." },
});

export const GET = operation({
  operationId: "listSharedPaymentTokens",
  summary: "List the payer's tokens",
  tag: "Shared payment tokens",
  auth: "secret",
  permission: ["shared_payment_tokens", "read"],
  query: ListTokensQuery,
  responses: { 200: SharedPaymentTokenList },
  sdk: { resource: "sharedPaymentTokens", method: "list", params: "params?: T.ListSharedPaymentTokensParams" },
});
