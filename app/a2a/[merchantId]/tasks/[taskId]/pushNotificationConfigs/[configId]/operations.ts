// The operations of the merchant agent's HTTP+JSON binding at this path (lib/openapi/operation.ts): what the OpenAPI
// document says of them. The route's composition (lib/a2a/serve-rest.ts) reads its input and routes by path.
import { A2A_REST_ERRORS as errors } from "@/lib/a2a/serve-rest";
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getA2aPushConfigRest",
  summary: "GetTaskPushNotificationConfig over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "read"],
  responses: { 200: { description: "TaskPushNotificationConfig", contentType: "application/a2a+json" } },
  errors,
});

export const DELETE = documented({
  operationId: "deleteA2aPushConfigRest",
  summary: "DeleteTaskPushNotificationConfig over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "write"],
  responses: { 204: { description: "Deleted" } },
  errors,
});
