// The operations of /mpp/r/{id} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveMppResource) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
// Every method is sold alike (the resource's `method` decides which one the origin takes): one description each.
import { MPP_PAYMENT } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

const hostedResource = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE") =>
  documented({
    operationId: `${method.toLowerCase()}MppHostedResource`,
    summary: `A hosted paid resource over the Payment HTTP authentication scheme (${method}): 402 with a challenge, or the origin's answer once paid`,
    tag: "MPP",
    auth: MPP_PAYMENT,
    responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
    errors: {
      description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
      contentType: "application/problem+json",
    },
  });

export const GET = hostedResource("GET");
export const POST = hostedResource("POST");
export const PUT = hostedResource("PUT");
export const PATCH = hostedResource("PATCH");
export const DELETE = hostedResource("DELETE");
