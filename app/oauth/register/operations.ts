// The operations of /oauth/register (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (publicRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "oauthRegisterClient",
  summary: "RFC 7591 dynamic client registration",
  tag: "OAuth",
  auth: "public",
  responses: { 201: { description: "The client's metadata and client_id" } },
  errors: { description: "The OAuth error body of RFC 6749: { error, error_description }" },
});
