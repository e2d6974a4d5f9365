// The operations of /visa/instructions (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreateInstructionBody, ListInstructionsQuery } from "@/lib/visa/schemas";

export const GET = operation({
  operationId: "listVisaInstructions",
  summary: "List the payer's purchase instructions",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "read"],
  query: ListInstructionsQuery,
  responses: { 200: { description: "A list of instructions" } },
});

export const POST = operation({
  operationId: "createVisaInstruction",
  summary: "Record a consumer's purchase instruction (vi_) with mandates",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: CreateInstructionBody,
  status: 201,
  responses: { 201: { description: "The instruction" } },
});
