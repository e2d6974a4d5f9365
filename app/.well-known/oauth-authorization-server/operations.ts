// The operations of /.well-known/oauth-authorization-server (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getOAuthAuthorizationServerMetadata",
  summary: "RFC 8414 authorization server metadata",
  tag: "OAuth",
  auth: "public",
  responses: { 200: { description: "The metadata" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
