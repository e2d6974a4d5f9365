// The operations of /x402/discovery/resources (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { X402DiscoveryQuery, X402DiscoveryResources } from "@/lib/x402/discovery";

export const GET = operation({
  operationId: "listX402DiscoveryResources",
  summary: "This deployment's listed paid resources, as an x402 facilitator's discovery API lists them (type filter, limit/offset paging)",
  tag: "x402",
  auth: "public",
  query: X402DiscoveryQuery,
  responses: { 200: X402DiscoveryResources },
});
