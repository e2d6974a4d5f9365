// The operations of /v1/integrations (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { IntegrationList } from "@/lib/integrations/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listIntegrations",
  summary: "The protocols and surfaces this deployment speaks",
  tag: "Meta",
  auth: "public",
  responses: { 200: IntegrationList },
});
