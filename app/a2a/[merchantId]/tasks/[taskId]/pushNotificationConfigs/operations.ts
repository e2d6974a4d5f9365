// The operations of the merchant agent's HTTP+JSON binding at this path (lib/openapi/operation.ts): what the OpenAPI
// document says of them. The route's composition (lib/a2a/serve-rest.ts) reads its input and routes by path.
import { A2A_REST_ERRORS as errors } from "@/lib/a2a/serve-rest";
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "createA2aPushConfigRest",
  summary: "CreateTaskPushNotificationConfig over A2A HTTP+JSON (the webhook URL through the SSRF guard)",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "write"],
  responses: { 201: { description: "TaskPushNotificationConfig (with its id)", contentType: "application/a2a+json" } },
  errors,
});

export const GET = documented({
  operationId: "listA2aPushConfigsRest",
  summary: "ListTaskPushNotificationConfigs over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "read"],
  responses: { 200: { description: "ListTaskPushNotificationConfigsResponse", contentType: "application/a2a+json" } },
  errors,
});
