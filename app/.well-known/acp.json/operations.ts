// The operations of /.well-known/acp.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getAcpDiscovery",
  summary: "ACP discovery: the versions answered, the API's base URL, transports and capabilities (ACP's DiscoveryResponse)",
  tag: "ACP",
  auth: "public",
  responses: { 200: { description: "ACP's DiscoveryResponse (docs/acp.md, Discovery)" } },
});
