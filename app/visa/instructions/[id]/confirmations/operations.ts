// The operations of /visa/instructions/{id}/confirmations (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ConfirmationBody } from "@/lib/visa/schemas";

export const POST = operation({
  operationId: "confirmVisaCredential",
  summary: "Record the outcome of a purchase made with one of the instruction's credentials",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: ConfirmationBody,
  responses: { 200: { description: "The confirmation" } },
});
