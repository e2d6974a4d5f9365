// The operations of /x402/supported (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getX402Supported",
  summary: "The payment kinds this facilitator settles, and the merchant's payTo",
  tag: "x402",
  auth: "secret",
  permission: ["x402", "read"],
  responses: { 200: { description: "The supported kinds (x402's /supported answer)" } },
});
