// The operations of /v1/acp/discount_codes (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CreateDiscountCodeBody, DiscountCodeList, DiscountCodeObject } from "@/lib/acp/discount-codes";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createAcpDiscountCode",
  summary: "Create an ACP discount code (a percentage or an amount off)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  body: CreateDiscountCodeBody,
  status: 201,
  bodyName: "CreateAcpDiscountCodeParams",
  responses: { 201: DiscountCodeObject },
  sdk: { resource: "acpDiscountCodes", method: "create" },
});

export const GET = operation({
  operationId: "listAcpDiscountCodes",
  summary: "List the ACP discount codes of the mode, newest first",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "read"],
  responses: { 200: DiscountCodeList },
  sdk: { resource: "acpDiscountCodes", method: "list", params: "" },
});
