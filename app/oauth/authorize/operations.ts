// The operations of /oauth/authorize (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "oauthAuthorize",
  summary: "OAuth 2.1 authorization endpoint: checks the request and sends the browser to the consent page",
  tag: "OAuth",
  auth: "public",
  responses: { 303: { description: "To the consent page" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});

export const POST = documented({
  operationId: "oauthDecideConsent",
  summary: "The consent page's decision: redirects to the client with a code or an error",
  tag: "OAuth",
  auth: "public",
  responses: { 303: { description: "To the client's redirect URI" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
