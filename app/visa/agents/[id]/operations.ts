// The operations of /visa/agents/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getVisaAgentKey",
  summary: "Retrieve one of the caller's Visa agent keys",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "read"],
  responses: { 200: { description: "The agent key" } },
});
