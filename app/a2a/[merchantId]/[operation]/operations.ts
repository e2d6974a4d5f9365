// The operations of the merchant agent's HTTP+JSON binding at this path (lib/openapi/operation.ts): what the OpenAPI
// document says of them. The route's composition (lib/a2a/serve-rest.ts) reads its input and routes by path.
import { A2A_REST_ERRORS as errors } from "@/lib/a2a/serve-rest";
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "sendA2aMessageRest",
  summary: "message:send (a Task or Message) or message:stream (Server-Sent Events of StreamResponse) over A2A HTTP+JSON",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "write"],
  responses: { 200: { description: "SendMessageResponse, or text/event-stream for message:stream", contentType: "application/a2a+json" } },
  errors,
});

export const GET = documented({
  operationId: "getA2aExtendedAgentCardRest",
  summary: "extendedAgentCard over A2A HTTP+JSON (this agent has none: FAILED_PRECONDITION)",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "read"],
  responses: { 200: { description: "An AgentCard", contentType: "application/a2a+json" } },
  errors,
});
