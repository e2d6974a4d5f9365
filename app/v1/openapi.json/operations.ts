// The operation of /v1/openapi.json (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { z } from "zod";
import { operation } from "@/lib/openapi/operation";

/** The document itself. */
const OpenApiDocumentObject = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "OpenApiDocument" });

export const GET = operation({
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document",
  tag: "Meta",
  auth: "public",
  responses: { 200: OpenApiDocumentObject },
});
