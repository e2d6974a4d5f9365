// The operations of /oauth/revoke (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "oauthRevokeToken",
  summary: "RFC 7009 token revocation (200 whether or not the token was known)",
  tag: "OAuth",
  auth: "public",
  responses: { 200: { description: "An empty object" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
