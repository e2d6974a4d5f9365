// The operations of /x402/r/{id} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveX402Resource) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
// Every method is sold alike (the resource's `method` decides which one the origin takes): one description each.
import { X402_PAYMENT } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

const hostedResource = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE") =>
  documented({
    operationId: `${method.toLowerCase()}X402HostedResource`,
    summary: `A hosted paid resource over x402 (${method}): 402 with the terms, or the origin's answer once paid`,
    tag: "x402",
    auth: X402_PAYMENT,
    responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
    errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
  });

export const GET = hostedResource("GET");
export const POST = hostedResource("POST");
export const PUT = hostedResource("PUT");
export const PATCH = hostedResource("PATCH");
export const DELETE = hostedResource("DELETE");
