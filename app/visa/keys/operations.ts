// The operations of /visa/keys (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { z } from "zod";
import { operation } from "@/lib/openapi/operation";

const Query = z.object({ keyID: z.string().min(1).max(255) }).strict();

export const GET = operation({
  operationId: "getVisaKey",
  summary: "One key of Visa's key store, by the TAP key lookup's keyID",
  tag: "Visa",
  auth: "public",
  query: Query,
  responses: { 200: { description: "A JWK" } },
});
