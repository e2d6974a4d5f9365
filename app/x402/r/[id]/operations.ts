// The operations of /x402/r/{id} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveX402Resource) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { X402_PAYMENT } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getX402HostedResource",
  summary: "A hosted paid resource over x402 (GET): 402 with the terms, or the origin's answer once paid",
  tag: "x402",
  auth: X402_PAYMENT,
  responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
  errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
});

export const POST = documented({
  operationId: "postX402HostedResource",
  summary: "A hosted paid resource over x402 (POST): 402 with the terms, or the origin's answer once paid",
  tag: "x402",
  auth: X402_PAYMENT,
  responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
  errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
});

export const PUT = documented({
  operationId: "putX402HostedResource",
  summary: "A hosted paid resource over x402 (PUT): 402 with the terms, or the origin's answer once paid",
  tag: "x402",
  auth: X402_PAYMENT,
  responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
  errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
});

export const PATCH = documented({
  operationId: "patchX402HostedResource",
  summary: "A hosted paid resource over x402 (PATCH): 402 with the terms, or the origin's answer once paid",
  tag: "x402",
  auth: X402_PAYMENT,
  responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
  errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
});

export const DELETE = documented({
  operationId: "deleteX402HostedResource",
  summary: "A hosted paid resource over x402 (DELETE): 402 with the terms, or the origin's answer once paid",
  tag: "x402",
  auth: X402_PAYMENT,
  responses: { 200: { description: "The origin's answer, with PAYMENT-RESPONSE" } },
  errors: { description: "x402's own answers: 402 with the PaymentRequired body and header, or a settlement's refusal" },
});
