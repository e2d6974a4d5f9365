// The operations of /oauth/token (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "oauthToken",
  summary: "OAuth 2.1 token endpoint: authorization_code and refresh_token grants",
  tag: "OAuth",
  auth: "public",
  responses: { 200: { description: "The token response" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
