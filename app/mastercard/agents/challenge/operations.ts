// The operations of /mastercard/agents/challenge (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createMastercardAgentKeyChallenge",
  summary: "Issue a single-use challenge that the next Mastercard agent key registration signs with its key",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  status: 201,
  responses: { 201: { description: "The challenge (shown once; valid 5 minutes) and how to sign the registration with it" } },
});
