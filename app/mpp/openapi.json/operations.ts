// The operations of /mpp/openapi.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMppDiscoveryDocument",
  summary: "MPP's discovery document: an OpenAPI 3.1 document of the listed paid resources, with x-payment-info (mppx/discovery)",
  tag: "MPP",
  auth: "public",
  responses: { 200: { description: "An OpenAPI 3.1 document with x-service-info and, per operation, x-payment-info" } },
});
