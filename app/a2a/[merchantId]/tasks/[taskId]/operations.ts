// The operations of the merchant agent's HTTP+JSON binding at this path (lib/openapi/operation.ts): what the OpenAPI
// document says of them. The route's composition (lib/a2a/serve-rest.ts) reads its input and routes by path.
import { A2A_REST_ERRORS as errors } from "@/lib/a2a/serve-rest";
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getA2aTaskRest",
  summary: "GetTask ({id}) or SubscribeToTask ({id}:subscribe, Server-Sent Events) over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "read"],
  responses: { 200: { description: "A Task, or text/event-stream of StreamResponse for :subscribe", contentType: "application/a2a+json" } },
  errors,
});

export const POST = documented({
  operationId: "cancelOrSubscribeA2aTaskRest",
  summary: "CancelTask ({id}:cancel) or SubscribeToTask ({id}:subscribe, Server-Sent Events) over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "write"],
  responses: { 200: { description: "The canceled Task, or text/event-stream of StreamResponse", contentType: "application/a2a+json" } },
  errors,
});
