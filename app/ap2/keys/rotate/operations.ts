// The operations of /ap2/keys/rotate (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { z } from "zod";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "rotateAp2SigningKey",
  summary: "A new CartMandate signing key; the old one stays in the JWKS for a day",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  body: z.object({}).strict().optional(),
  idempotent: false,
  responses: { 200: { description: "The new key" } },
});
