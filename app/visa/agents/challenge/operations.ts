// The operations of /visa/agents/challenge (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createVisaAgentKeyChallenge",
  summary: "Issue a single-use challenge that the next Visa agent key registration signs with its key",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  status: 201,
  responses: { 201: { description: "The challenge (shown once; valid 5 minutes) and how to sign the registration with it" } },
});
