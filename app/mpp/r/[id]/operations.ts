// The operations of /mpp/r/{id} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveMppResource) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { MPP_PAYMENT } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getMppHostedResource",
  summary:
    "A hosted paid resource over the Payment HTTP authentication scheme (GET): 402 with a challenge, or the origin's answer once paid",
  tag: "MPP",
  auth: MPP_PAYMENT,
  responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
  errors: {
    description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
    contentType: "application/problem+json",
  },
});

export const POST = documented({
  operationId: "postMppHostedResource",
  summary:
    "A hosted paid resource over the Payment HTTP authentication scheme (POST): 402 with a challenge, or the origin's answer once paid",
  tag: "MPP",
  auth: MPP_PAYMENT,
  responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
  errors: {
    description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
    contentType: "application/problem+json",
  },
});

export const PUT = documented({
  operationId: "putMppHostedResource",
  summary:
    "A hosted paid resource over the Payment HTTP authentication scheme (PUT): 402 with a challenge, or the origin's answer once paid",
  tag: "MPP",
  auth: MPP_PAYMENT,
  responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
  errors: {
    description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
    contentType: "application/problem+json",
  },
});

export const PATCH = documented({
  operationId: "patchMppHostedResource",
  summary:
    "A hosted paid resource over the Payment HTTP authentication scheme (PATCH): 402 with a challenge, or the origin's answer once paid",
  tag: "MPP",
  auth: MPP_PAYMENT,
  responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
  errors: {
    description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
    contentType: "application/problem+json",
  },
});

export const DELETE = documented({
  operationId: "deleteMppHostedResource",
  summary:
    "A hosted paid resource over the Payment HTTP authentication scheme (DELETE): 402 with a challenge, or the origin's answer once paid",
  tag: "MPP",
  auth: MPP_PAYMENT,
  responses: { 200: { description: "The origin's answer, with Payment-Receipt" } },
  errors: {
    description: "An RFC 9457 problem body; 402 with a fresh challenge in WWW-Authenticate",
    contentType: "application/problem+json",
  },
});
