// The operations of /v1/checkouts/{id}/capture (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CaptureCheckoutBody } from "@/lib/checkouts/schemas";
import { operation } from "@/lib/openapi/operation";
import { OrderObject } from "@/lib/orders/schemas";

export const POST = operation({
  operationId: "captureCheckout",
  summary: "Pay a checkout: charge and capture; answers its order",
  tag: "Checkouts",
  auth: "secret",
  permission: ["checkouts", "write"],
  // captureCheckout and the charge engine run statements only (sqlIn): a plain pg transaction, without Prisma's.
  db: "pg",
  body: CaptureCheckoutBody,
  bodyName: "CaptureCheckoutParams",
  responses: { 200: OrderObject },
  sdk: { resource: "checkouts", method: "capture" },
});
