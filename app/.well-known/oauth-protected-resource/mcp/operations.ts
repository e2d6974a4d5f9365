// The operations of /.well-known/oauth-protected-resource/mcp (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getMcpProtectedResourceMetadata",
  summary: "RFC 9728 protected resource metadata of /mcp (the address /mcp's WWW-Authenticate names)",
  tag: "OAuth",
  auth: "public",
  responses: { 200: { description: "The metadata" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
